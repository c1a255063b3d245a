// What the target can do, found out once per test file: whether it exposes the test helpers of
// shared/test-helpers.md (then the behaviour level runs), whether it is the Prism mock (its own
// 422 for invalid requests, any bearer accepted), and which operations it implements.
import { call } from './http.ts';
import { settings } from './settings.ts';

export interface Target {
  helpers: boolean;
  prism: boolean;
  readOnly: boolean;
}

let detected: Promise<Target> | undefined;

/** Detects the target's capabilities (cached for the file). */
export function target(): Promise<Target> {
  detected ??= (async () => {
    const clock = await fetch(new URL('/test_helpers/clock', settings.target)).catch(() => undefined);
    const body = clock?.headers.get('content-type')?.includes('json') ? await clock.json().catch(() => null) : null;
    const helpers = clock?.status === 200 && typeof body?.content?.now === 'number';
    const probe = await call('POST', '/user/login', { json: {} });
    const prism = probe.status === 422 && probe.contentType.includes('problem+json');
    return { helpers, prism, readOnly: settings.readOnly };
  })();
  return detected;
}

export const NO_HELPERS = 'the target exposes no test helpers (shared/test-helpers.md): behaviour needs known state';
export const PRISM_INVALID = 'Prism answers invalid requests with its own 422 problem+json, not the API envelope';
export const READ_ONLY = '--read-only: this test changes state';
