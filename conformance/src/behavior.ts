// Shared set-up of the behaviour level: it runs only where the target exposes the test helpers,
// and starts every file from a reset state.
import type { TestContext } from 'vitest';
import { helpers } from './helpers.ts';
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
