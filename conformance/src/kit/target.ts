// What the target can do, found out once per run: whether it exposes the test helpers of
// shared/test-helpers.md (then the behaviour level runs), whether it is a mock (examples by name,
// any readable bearer accepted), whether that mock is bare Prism (its own 422 for invalid requests;
// or --mock), and whether it is read-only.
import { type Answer, call } from './http.ts';
import { inScope, NotImplemented } from './not-implemented.ts';
import { settings } from './settings.ts';

export interface Target {
  helpers: boolean;
  /** Without helpers: what each probe got (`GET /test_helpers/clock answered 500 ...`), for --require-all's failure. */
  helperProbes: HelperProbe[];
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

/** What one helper probe got: an answer (`status` and its start), none, or nothing sent (--operations). */
export interface HelperProbe {
  helper: string;
  status?: number;
  body?: string;
  outOfScope?: boolean;
}

/** Whether the target has test helpers, and what each probe got where none answered as documented. */
async function probeHelpers(): Promise<{ helpers: boolean; probes: HelperProbe[] }> {
  const probes: HelperProbe[] = [];
  for (const probe of HELPER_PROBES) {
    const helper = `GET ${probe.path.replace(/\?.*/, '')}`;
    let answer: Answer;
    try {
      answer = await call('GET', probe.path, { record: false, on404: 'answer' });
    } catch (e) {
      probes.push({ helper, ...(e instanceof NotImplemented && e.outOfScope ? { outOfScope: true } : {}) });
      continue;
    }
    const content = (answer.body as { content?: Record<string, unknown> } | null)?.content;
    if (answer.status === 200 && content && probe.answers(content)) return { helpers: true, probes: [] };
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    probes.push({ helper, status: answer.status, body: text.length > 120 ? `${text.slice(0, 120)}…` : text });
  }
  return { helpers: false, probes };
}

/**
 * The failure of a test that needs the test helpers on a target where no probe found them, or
 * undefined where it skips (NO_HELPERS). Without --require-all it skips: a target run without test
 * mode (production, staging) has none, and its contract level still runs. With --require-all (a
 * release gate: every operation implemented and passing) it fails: every behaviour test would
 * otherwise skip and the gate pass on the contract level alone, with helpers missing (404) or
 * broken (500) alike. Where --operations kept every probe from being sent, nothing answered: a skip.
 */
export function noHelpersFailure(probes: HelperProbe[], requireAll: boolean): string | undefined {
  const sent = probes.filter((p) => !p.outOfScope);
  if (!requireAll || sent.length === 0) return undefined;
  const got = sent.map((p) =>
    p.status === undefined ? `${p.helper} did not answer` : `${p.helper} answered ${p.status} ${p.body}`,
  );
  return `${NO_HELPERS}: --require-all makes a target without working test helpers a failure (${got.join('; ')})`;
}

let detected: Promise<Target> | undefined;

/** Detects the target's capabilities (cached for the file). */
export function target(): Promise<Target> {
  detected ??= (async () => {
    const { helpers, probes } = await probeHelpers();
    // A login without apiKey changes nothing: the API answers 300, Prism its own 422 (unless
    // --operations leaves the login out: then nothing is sent to it).
    const probe = inScope(settings.operations, 'POST /user/login')
      ? await call('POST', '/user/login', { json: {}, record: false, on404: 'answer' })
      : undefined;
    const ownErrors = settings.mock || (probe?.status === 422 && probe.contentType.includes('problem+json'));
    // packages/mock names itself on every answer, and answers invalid requests as the API does.
    const mock = probe?.headers['x-marketplace-mock'] === 'examples';
    return { helpers, helperProbes: probes, prism: ownErrors || mock, ownErrors, readOnly: settings.readOnly };
  })();
  return detected;
}

export const NO_HELPERS = 'the target exposes no test helpers (shared/test-helpers.md): behaviour needs known state';
export const PRISM_INVALID = 'Prism answers invalid requests with its own 422, not the API envelope';
export const READ_ONLY = '--read-only: this test changes state';
export const PRISM_LARGE =
  'Prism does not validate a request body of several megabytes (it serves the 7,000,001-character attachment a 200)';
