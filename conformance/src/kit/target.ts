// What the target can do, found out once per run: whether it exposes the test helpers of
// shared/test-helpers.md (then the behaviour level runs), whether it is a mock (examples by name,
// any readable bearer accepted), whether that mock is bare Prism (its own 422 for invalid requests;
// or --mock), and whether it is read-only.

import { helperDocument, helperOperations } from '../oracle/document.ts';
import { type Answer, call } from './http.ts';
import { inScope } from './not-implemented.ts';
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

/** A request asked to find out whether the target has test helpers, and the answer that says so. */
export interface HelperAsk {
  helper: string;
  method: 'GET' | 'POST';
  path: string;
  /** A body the helper's contract refuses (answered 300, nothing changed). */
  json?: unknown;
  answers: (status: number, body: unknown) => boolean;
}

const contentOf = (body: unknown) => (body as { content?: Record<string, unknown> } | null)?.content;
const ok = (has: (content: Record<string, unknown>) => boolean) => (status: number, body: unknown) => {
  const content = contentOf(body);
  return status === 200 && !!content && typeof content === 'object' && has(content);
};

/**
 * The helpers that read and change nothing: any of them answering its documented content is enough
 * (a partial implementation may lack some; the tests that need a missing one skip, naming it).
 */
const READING: HelperAsk[] = [
  {
    helper: 'GET /test_helpers/clock',
    method: 'GET',
    path: '/test_helpers/clock',
    answers: ok((c) => typeof c.now === 'number'),
  },
  {
    helper: 'GET /test_helpers/outbox',
    method: 'GET',
    path: '/test_helpers/outbox?channel=email',
    answers: ok((c) => Array.isArray(c.messages)),
  },
  {
    helper: 'GET /test_helpers/platform/offers',
    method: 'GET',
    path: '/test_helpers/platform/offers',
    answers: ok((c) => Array.isArray(c.offers)),
  },
];

/**
 * A helper that takes a body answers one its contract refuses (`[]`, not an object) with "HTTP 300
 * with a message string" in envelope A (shared/test-helpers.md), and changes nothing: a target
 * without test mode answers 404 instead.
 */
const refuses = (status: number, body: unknown): boolean => {
  const b = body as { err?: unknown; success?: unknown; content?: unknown } | null;
  return status === 300 && b?.err === true && b.success === false && typeof b.content === 'string';
};

/**
 * What to ask to find out whether the target has test helpers, within `--operations` (`scope`):
 * the reading helpers where the list names no helper (every helper is callable then), else the
 * named ones that can be asked without changing anything, reading ones first, then those taking a
 * body (sent one they refuse; a path parameter `0`, which such a helper refuses as unknown), none
 * of them under --read-only (no POST). Which API operations the list names plays no part: the
 * helpers are routes of their own contract. Empty where the list names helpers but none can be
 * asked so (only the reset, which any request carries out): `claimed` then takes them at the
 * list's word, and each test meets a missing one as it meets any (a skip naming it, or a failure
 * under --require-all).
 */
export function helperAsks(
  scope: ReadonlySet<string> | undefined,
  readOnly: boolean,
): { asks: HelperAsk[]; claimed: boolean } {
  const named = [...(scope ?? [])].filter((n) => n.includes(' /test_helpers/'));
  if (named.length === 0) return { asks: READING, claimed: false };
  const withBody = helperOperations
    .filter((h) => named.includes(h.name) && h.method === 'POST' && bodyRefused(h.path, h.method))
    .sort((a, b) => Number(a.path.includes('{')) - Number(b.path.includes('{')))
    .map(
      (h): HelperAsk => ({
        helper: h.name,
        method: 'POST',
        path: h.path.replace(/\{[^}]+\}/g, '0'),
        json: [],
        answers: refuses,
      }),
    );
  const asks = [...READING.filter((a) => named.includes(a.helper)), ...(readOnly ? [] : withBody)];
  return { asks, claimed: asks.length === 0 };
}

/** Whether the helper's document gives it a body and a 300 for a bad one. */
function bodyRefused(path: string, method: 'GET' | 'POST'): boolean {
  const op = (helperDocument.paths as Record<string, Record<string, { requestBody?: unknown; responses?: object }>>)[
    path
  ]?.[method.toLowerCase()];
  return !!op?.requestBody && !!op.responses && '300' in op.responses;
}

/** What one helper probe got: an answer (`status` and its start), or none. */
export interface HelperProbe {
  helper: string;
  status?: number;
  body?: string;
}

/** Whether the target has test helpers, and what each probe got where none answered as documented. */
async function probeHelpers(): Promise<{ helpers: boolean; probes: HelperProbe[] }> {
  const { asks, claimed } = helperAsks(settings.operations, settings.readOnly);
  const probes: HelperProbe[] = [];
  for (const ask of asks) {
    let answer: Answer;
    try {
      answer = await call(ask.method, ask.path, { json: ask.json, record: false, on404: 'answer' });
    } catch {
      probes.push({ helper: ask.helper });
      continue;
    }
    if (ask.answers(answer.status, answer.body)) return { helpers: true, probes: [] };
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    probes.push({
      helper: ask.helper,
      status: answer.status,
      body: text.length > 120 ? `${text.slice(0, 120)}…` : text,
    });
  }
  return { helpers: claimed, probes };
}

/**
 * The failure of a test that needs the test helpers on a target where no probe found them, or
 * undefined where it skips (NO_HELPERS). Without --require-all it skips: a target run without test
 * mode (production, staging) has none, and its contract level still runs. With --require-all (a
 * release gate: every operation implemented and passing) it fails: every behaviour test would
 * otherwise skip and the gate pass on the contract level alone, with helpers missing (404) or
 * broken (500) alike. Where no probe was sent (--read-only), nothing answered: a skip.
 */
export function noHelpersFailure(probes: HelperProbe[], requireAll: boolean): string | undefined {
  if (!requireAll || probes.length === 0) return undefined;
  const got = probes.map((p) =>
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
