// What the target can do, found out once per test file: whether it exposes the test helpers of
// shared/test-helpers.md (then the behaviour level runs), whether it is the Prism mock (its own
// 422 for invalid requests, any bearer accepted; or --mock), and whether it is read-only.
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
    // A login without apiKey changes nothing: the API answers 300, Prism its own 422.
    const probe = await call('POST', '/user/login', { json: {}, record: false });
    const prism = settings.mock || (probe.status === 422 && probe.contentType.includes('problem+json'));
    return { helpers, prism, readOnly: settings.readOnly };
  })();
  return detected;
}

export const NO_HELPERS = 'the target exposes no test helpers (shared/test-helpers.md): behaviour needs known state';
export const PRISM_INVALID = 'Prism answers invalid requests with its own 422, not the API envelope';
export const READ_ONLY = '--read-only: this test changes state';
export const PRISM_LARGE =
  'Prism does not validate a request body of several megabytes (it serves the 7,000,001-character attachment a 200)';
