// Skips a test with its reason, and records the reason for the summary and results.json: a test
// the target cannot take is never dropped silently. A skip because the target lacks an operation
// or a test helper lists it in `missing` (not-implemented.ts), for the progress reports.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'vitest';
import { NotImplemented, SetUpFailed } from './not-implemented.ts';
import { settings } from './settings.ts';

/** The name the JSON reporter gives a test: its suites' titles and its own, space-separated. */
function fullName(ctx: TestContext): string {
  const names: string[] = [ctx.task.name];
  for (let suite = ctx.task.suite; suite?.name; suite = suite.suite) names.unshift(suite.name);
  return names.join(' ');
}

/** A recorded skip: why, and the operations or test helpers whose absence caused it. */
export interface SkipRecord {
  reason: string;
  /** Operations or test helpers that answered 404. */
  missing?: string[];
  /** Operations or test helpers --operations leaves out (never sent, never missing). */
  outOfScope?: string[];
}

/** Skips the running test, recording why (and what it missed or what --operations left out). */
export function skip(ctx: TestContext, reason: string, cause: Omit<SkipRecord, 'reason'> = {}): never {
  mkdirSync(settings.out, { recursive: true });
  const record: SkipRecord = { reason };
  if (cause.missing?.length) record.missing = cause.missing;
  if (cause.outOfScope?.length) record.outOfScope = cause.outOfScope;
  appendFileSync(
    join(settings.out, `skips-${process.pid}.ndjson`),
    `${JSON.stringify({ name: fullName(ctx), ...record })}\n`,
  );
  ctx.skip(reason);
  throw new Error('unreachable');
}

/**
 * Ends the test on a missing operation or a set-up call that answered wrongly, met in the test or
 * raised outside it (a `beforeAll`): a missing operation skips it (fails it with --require-all; one
 * left out by --operations always skips), a wrong set-up answer fails it, pinned on that exchange.
 * Anything else is rethrown as is.
 */
export function surface(ctx: TestContext, problem: unknown): never {
  if (problem instanceof NotImplemented && problem.outOfScope)
    skip(ctx, problem.reason, { outOfScope: [problem.missing] });
  if (problem instanceof NotImplemented && !settings.requireAll)
    skip(ctx, problem.reason, { missing: [problem.missing] });
  if (problem instanceof NotImplemented || problem instanceof SetUpFailed) {
    if (problem.subject) ctx.task.meta.subject = problem.subject;
    throw new Error(
      problem instanceof NotImplemented
        ? `${problem.reason}: --require-all makes every missing operation a failure`
        : problem.message,
    );
  }
  throw problem;
}

/** Reads and removes the recorded skips, by test name. */
export function readSkips(out: string): Map<string, SkipRecord> {
  const skips = new Map<string, SkipRecord>();
  if (!existsSync(out)) return skips;
  for (const file of readdirSync(out).filter((f) => f.startsWith('skips-'))) {
    for (const line of readFileSync(join(out, file), 'utf8').split('\n')) {
      if (!line) continue;
      const { name, ...record } = JSON.parse(line) as { name: string } & SkipRecord;
      skips.set(name, record);
    }
    rmSync(join(out, file));
  }
  return skips;
}
