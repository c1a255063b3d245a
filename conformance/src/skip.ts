// Skips a test with its reason, and records the reason for the summary and results.json: a test
// the target cannot take is never dropped silently.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'vitest';
import { settings } from './settings.ts';

/** The name the JSON reporter gives a test: its suites' titles and its own, space-separated. */
function fullName(ctx: TestContext): string {
  const names: string[] = [ctx.task.name];
  for (let suite = ctx.task.suite; suite?.name; suite = suite.suite) names.unshift(suite.name);
  return names.join(' ');
}

/** Skips the running test, recording why. */
export function skip(ctx: TestContext, reason: string): never {
  mkdirSync(settings.out, { recursive: true });
  appendFileSync(
    join(settings.out, `skips-${process.pid}.ndjson`),
    `${JSON.stringify({ name: fullName(ctx), reason })}\n`,
  );
  ctx.skip(reason);
  throw new Error('unreachable');
}

/** Reads and removes the recorded skip reasons, by test name. */
export function readSkips(out: string): Map<string, string> {
  const reasons = new Map<string, string>();
  if (!existsSync(out)) return reasons;
  for (const file of readdirSync(out).filter((f) => f.startsWith('skips-'))) {
    for (const line of readFileSync(join(out, file), 'utf8').split('\n')) {
      if (!line) continue;
      const { name, reason } = JSON.parse(line) as { name: string; reason: string };
      reasons.set(name, reason);
    }
    rmSync(join(out, file));
  }
  return reasons;
}
