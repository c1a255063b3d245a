// What the target can do, found out once per run: whether it exposes the test helpers of
// shared/test-helpers.md (then the behaviour level runs), whether it is a mock (examples by name,
// any readable bearer accepted), whether that mock is bare Prism (its own 422 for invalid requests;
// or --mock), and whether it is read-only.
import { call } from './http.ts';
import { inScope } from './not-implemented.ts';
import { settings } from './settings.ts';

export interface Target {
  helpers: boolean;
  /** A mock: serves any documented example by name (`Prefer`) and accepts any JWT it can read. */
  prism: boolean;
  /** Bare Prism, which answers invalid requests with its own errors, not the API's. */
  ownErrors: boolean;
  readOnly: boolean;
}

/**
 * The helpers that read and change nothing, asked to find out whether the target has test helpers:
 * any of them answering its documented content is enough (a partial implementation may lack some;
 * the tests that need a missing one skip, naming it).
 */
const HELPER_PROBES: { path: string; answers: (content: Record<string, unknown>) => boolean }[] = [
  { path: '/test_helpers/clock', answers: (c) => typeof c.now === 'number' },
  { path: '/test_helpers/outbox?channel=email', answers: (c) => Array.isArray(c.messages) },
  { path: '/test_helpers/platform/offers', answers: (c) => Array.isArray(c.offers) },
];

async function hasHelpers(): Promise<boolean> {
  for (const probe of HELPER_PROBES) {
    const answer = await call('GET', probe.path, { record: false, on404: 'answer' }).catch(() => undefined);
    const content = (answer?.body as { content?: Record<string, unknown> } | null)?.content;
    if (answer?.status === 200 && content && probe.answers(content)) return true;
  }
  return false;
}

let detected: Promise<Target> | undefined;

/** Detects the target's capabilities (cached for the file). */
export function target(): Promise<Target> {
  detected ??= (async () => {
    const helpers = await hasHelpers();
    // A login without apiKey changes nothing: the API answers 300, Prism its own 422 (unless
    // --operations leaves the login out: then nothing is sent to it).
    const probe = inScope(settings.operations, 'POST /user/login')
      ? await call('POST', '/user/login', { json: {}, record: false, on404: 'answer' })
      : undefined;
    const ownErrors = settings.mock || (probe?.status === 422 && probe.contentType.includes('problem+json'));
    // packages/mock names itself on every answer, and answers invalid requests as the API does.
    const mock = probe?.headers['x-marketplace-mock'] === 'examples';
    return { helpers, prism: ownErrors || mock, ownErrors, readOnly: settings.readOnly };
  })();
  return detected;
}

export const NO_HELPERS = 'the target exposes no test helpers (shared/test-helpers.md): behaviour needs known state';
export const PRISM_INVALID = 'Prism answers invalid requests with its own 422, not the API envelope';
export const READ_ONLY = '--read-only: this test changes state';
export const PRISM_LARGE =
  'Prism does not validate a request body of several megabytes (it serves the 7,000,001-character attachment a 200)';
