// What the target can do, found out once per test file: whether it exposes the test helpers of
// shared/test-helpers.md (then the behaviour level runs), whether it is a mock (examples by name,
// any readable bearer accepted), whether that mock is bare Prism (its own 422 for invalid requests;
// or --mock), and whether it is read-only.
import { call } from './http.ts';
import { settings } from './settings.ts';
import { targetUrl } from './target-url.ts';

export interface Target {
  helpers: boolean;
  /** A mock: serves any documented example by name (`Prefer`) and accepts any JWT it can read. */
  prism: boolean;
  /** Bare Prism, which answers invalid requests with its own errors, not the API's. */
  ownErrors: boolean;
  readOnly: boolean;
}

let detected: Promise<Target> | undefined;

/** Detects the target's capabilities (cached for the file). */
export function target(): Promise<Target> {
  detected ??= (async () => {
    const clock = await fetch(targetUrl(settings.target, '/test_helpers/clock')).catch(() => undefined);
    const body = clock?.headers.get('content-type')?.includes('json') ? await clock.json().catch(() => null) : null;
    const helpers = clock?.status === 200 && typeof body?.content?.now === 'number';
    // A login without apiKey changes nothing: the API answers 300, Prism its own 422.
    const probe = await call('POST', '/user/login', { json: {}, record: false });
    const ownErrors = settings.mock || (probe.status === 422 && probe.contentType.includes('problem+json'));
    // packages/mock names itself on every answer, and answers invalid requests as the API does.
    const mock = probe.headers['x-marketplace-mock'] === 'examples';
    return { helpers, prism: ownErrors || mock, ownErrors, readOnly: settings.readOnly };
  })();
  return detected;
}

export const NO_HELPERS = 'the target exposes no test helpers (shared/test-helpers.md): behaviour needs known state';
export const PRISM_INVALID = 'Prism answers invalid requests with its own 422, not the API envelope';
export const READ_ONLY = '--read-only: this test changes state';
export const PRISM_LARGE =
  'Prism does not validate a request body of several megabytes (it serves the 7,000,001-character attachment a 200)';
