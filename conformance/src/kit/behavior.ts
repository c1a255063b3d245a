// Shared set-up of the behaviour level: it runs only where the target exposes the test helpers,
// and starts every file from a reset state.
import type { TestContext } from 'vitest';
import { helpers } from './helpers.ts';
import { type Answer, assertConforms, assertThat, call } from './http.ts';
import { NotImplemented, SetUpFailed } from './not-implemented.ts';
import { LEVEL, runs, settings } from './settings.ts';
import { skip, surface } from './skip.ts';
import { NO_HELPERS, noHelpersFailure, READ_ONLY, target } from './target.ts';

/** What went wrong with the reset of the file running now (`resetIfPossible`), for its tests to surface. */
let resetProblem: NotImplemented | SetUpFailed | undefined;

/**
 * Skips the test unless the behaviour level can run on this target (fails it where --require-all
 * wants the test helpers that are missing: noHelpersFailure), and ends it as its file's set-up ended
 * when the reset failed: every behaviour test starts from the reset state.
 */
export async function needsHelpers(ctx: TestContext): Promise<void> {
  const t = await target();
  if (!runs('behavior')) skip(ctx, LEVEL);
  if (t.readOnly) skip(ctx, READ_ONLY);
  if (!t.helpers) {
    const failure = noHelpersFailure(t.helperProbes, settings.requireAll);
    if (failure) throw new Error(failure);
    skip(ctx, NO_HELPERS);
  }
  if (resetProblem) surface(ctx, resetProblem);
}

/**
 * Resets the target's state when it has test helpers (call in beforeAll). A missing reset helper or
 * a refused reset does not crash the file: each test that needs the reset state (`needsHelpers`)
 * ends as a skip naming it, or as a failed set-up pinned on that exchange.
 */
export async function resetIfPossible(): Promise<void> {
  resetProblem = undefined;
  const t = await target();
  if (!(t.helpers && !t.readOnly && runs('behavior'))) return;
  try {
    await helpers.reset();
  } catch (e) {
    if (!(e instanceof NotImplemented || e instanceof SetUpFailed)) throw e;
    resetProblem = e;
  }
}

/** The payload of a JWT (no verification: the suite checks what the target put in it). */
export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

/** The payload of an answer in either envelope (`content` or `data`). */
// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
export const content = (a: Answer): any =>
  (a.body as { content?: unknown; data?: unknown }).content ?? (a.body as { data?: unknown }).data;

/** A GET that must conform and succeed. */
export async function getOk(path: string, query: Record<string, string | number> = {}, token?: string, ip?: string) {
  const answer = await call('GET', path, { query, token, ip });
  assertConforms(answer);
  assertThat(answer, answer.status === 200, `${path} must succeed`);
  return answer;
}
