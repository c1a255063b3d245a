// Shared set-up of the behaviour level: it runs only where the target exposes the test helpers,
// and starts every file from a reset state.
import type { TestContext } from 'vitest';
import { helpers } from './helpers.ts';
import { type Answer, assertConforms, assertThat, call } from './http.ts';
import { LEVEL, runs } from './settings.ts';
import { skip } from './skip.ts';
import { NO_HELPERS, READ_ONLY, target } from './target.ts';

/** Skips the test unless the behaviour level can run on this target. */
export async function needsHelpers(ctx: TestContext): Promise<void> {
  const t = await target();
  if (!runs('behavior')) skip(ctx, LEVEL);
  if (t.readOnly) skip(ctx, READ_ONLY);
  if (!t.helpers) skip(ctx, NO_HELPERS);
}

/** Resets the target's state when it has test helpers (call in beforeAll). */
export async function resetIfPossible(): Promise<void> {
  const t = await target();
  if (t.helpers && !t.readOnly && runs('behavior')) await helpers.reset();
}

/** The payload of a JWT (no verification: the suite checks what the target put in it). */
export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

/**
 * Skips the test when a route it needs to set up state answers 404 `Not found` although the
 * document has it: the target does not implement that operation (yet), and the reason says which.
 */
export function needsRoute(ctx: TestContext, answer: Answer, purpose: string): void {
  if (answer.status === 404 && answer.operation)
    skip(ctx, `the target does not implement ${answer.operation} (404), needed ${purpose}`);
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
