// The suite's HTTP client: every request and response is recorded (for the coverage report) and
// every failure message carries a curl line that reproduces the request, and the response seen.
import { mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { expect, TestRunner } from 'vitest';
import { checkResponse, errorMessage, type RecordedExchange } from '../oracle/contract.ts';
import { findHelper, findOperation, namedOperation, operations } from '../oracle/document.ts';
import { apiPath, targetUrl } from '../oracle/target-url.ts';
import {
  helperPurpose,
  inScope,
  isNotImplemented,
  NotImplemented,
  notImplementedReason,
  outOfScopeReason,
  SetUpFailed,
} from './not-implemented.ts';
import { buildRequest } from './requests.ts';
import type { ExchangeNote } from './rule.ts';
import { levelOf, settings } from './settings.ts';
import { surface } from './skip.ts';
import { fillHeaderFields, send, type WireAnswer } from './wire.ts';

export interface Call {
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body (an object) or a raw string sent as is. */
  json?: unknown;
  /** A form-urlencoded body. */
  form?: Record<string, string>;
  raw?: { contentType: string; body: string };
  /** Send the body with `Transfer-Encoding: chunked` and no `Content-Length` (wire.ts `send`). */
  chunked?: boolean;
  token?: string;
  /** Sent as X-Forwarded-For: the client address the target sees (behind a trusted proxy). */
  ip?: string;
  headers?: Record<string, string>;
  /** Exactly this many header fields on the wire, fillers added to the request's own (`fillHeaderFields`). */
  fields?: number;
  /** false: leave the exchange out of the coverage (the suite's own probes). */
  record?: boolean;
  /** What the exchange is needed for, named when the target lacks its operation (`read the balance`). */
  purpose?: string;
  /**
   * What a 404 means. By default the target lacks the operation (or test helper): the running test
   * ends as a skip naming it (a set-up outside a test throws `NotImplemented`, see skip.ts
   * `surface`). `answer`: the caller expects the 404 and gets it (a test helper outside test mode,
   * the suite's own probes, a loop over operations that skips the missing ones itself).
   * `documented`: the operation documents a 404 for this input, so a 404 is an answer once the
   * operation is known to exist (it answered something else, or answers its documented request).
   */
  on404?: 'skip' | 'answer' | 'documented';
}

export interface Answer extends RecordedExchange {
  /** The operation the request addressed (`GET /item/listing/{item}`), if the document has it. */
  operation?: string;
  /** The test helper the request addressed (`POST /test_helpers/users`), if it is one. */
  helper?: string;
  /** What was sent, as sent. */
  request: { headers: Record<string, string>; body?: string };
  /** The curl line that reproduces the request. */
  curl: string;
  /** The error message of a failure answer, in either envelope. */
  message: unknown;
}

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
/** A curl line cut to a readable length (a 7 MB body stays out of the report). */
const short = (curl: string) => (curl.length > 1000 ? `${curl.slice(0, 1000)}… (${curl.length} characters)` : curl);

/** The curl line that sends a request as it was sent. */
export const curlLine = (method: string, url: URL, headers: Record<string, string>, body?: string): string =>
  [
    'curl -i',
    `-X ${method}`,
    quote(url.toString()),
    ...Object.entries(headers).map(([k, v]) => `-H ${quote(`${k}: ${v}`)}`),
    ...(body === undefined ? [] : [`--data ${quote(body)}`]),
  ].join(' ');

/** Sends one request to the target and records it; a 404 ends the running test as a skip (see `on404`). */
export async function call(method: string, path: string, c: Call = {}): Promise<Answer> {
  const url = targetUrl(settings.target, path);
  for (const [k, v] of Object.entries(c.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const apiRoute = apiPath(url, settings.target);
  const operation = findOperation(method, apiRoute)?.name;
  const helper = operation ? undefined : findHelper(method, apiRoute);
  const name = operation ?? helper?.name;
  const purpose = () => c.purpose ?? (helper ? helperPurpose(helper) : purposeOf(operation ?? ''));
  // A test about an operation --operations leaves out is not in scope as a whole: none of its
  // requests go out, so no set-up of it can fail it (not even a helper's 404 under --require-all).
  // The suite's own probes (`record: false`: what the target has) are not the test's requests.
  const subject = c.record === false ? undefined : subjectOf(currentTest());
  if (subject && !inScope(settings.operations, subject)) {
    const problem = new NotImplemented(subject, outOfScopeReason(subject, 'test this operation'), undefined, true);
    if (c.on404 === 'answer') throw problem;
    missing(problem);
  }
  if (name && !inScope(settings.operations, name)) {
    const problem = new NotImplemented(name, outOfScopeReason(name, purpose()), undefined, true);
    if (c.on404 === 'answer') throw problem;
    missing(problem);
  }
  let headers: Record<string, string> = { ...(c.headers ?? {}) };
  if (c.token) headers.authorization = `Bearer ${c.token}`;
  if (c.ip) headers['x-forwarded-for'] = c.ip;
  let body: string | undefined;
  if (c.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = typeof c.json === 'string' ? c.json : JSON.stringify(c.json);
  } else if (c.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(c.form).toString();
  } else if (c.raw) {
    headers['content-type'] = c.raw.contentType;
    body = c.raw.body;
  }
  if (c.fields !== undefined) headers = fillHeaderFields(c.fields, method, headers, body);
  // What goes on the wire: undici adds the chunked framing's header itself, curl sends it when asked.
  const sentHeaders = c.chunked ? { ...headers, 'transfer-encoding': 'chunked' } : headers;
  const curl = curlLine(method, url, sentHeaders, body);
  let res: WireAnswer;
  try {
    res = await send(method, url, headers, body, c.chunked);
  } catch (e) {
    const cause = (e as Error).cause ?? e;
    throw new Error(`the target did not answer (${String(cause)})\n  request:  ${short(curl)}`);
  }
  const text = res.text;
  const contentType = res.headers['content-type'] ?? '';
  let parsed: unknown = text;
  if (contentType.includes('json')) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  const answer: Answer = {
    method,
    url: url.toString(),
    operation,
    ...(helper ? { helper: helper.name } : {}),
    request: { headers: sentHeaders, body },
    status: res.status,
    headers: res.headers,
    body: parsed,
    contentType,
    curl,
    message: res.status >= 300 ? errorMessage(parsed) : undefined,
  };
  if (c.record !== false) {
    record(answer);
    noteExchange(answer);
  }
  if (!name) return answer;
  if (!isNotImplemented(answer.status)) {
    present.set(name, Promise.resolve(true));
    return answer;
  }
  if (c.on404 === 'answer') return answer;
  if (c.on404 === 'documented' && operation && (await exists(operation, c))) return answer;
  return missing(new NotImplemented(name, notImplementedReason(name, purpose()), note(answer)));
}

/** The operations and helpers known to exist in this worker: they answered something else than 404. */
const present = new Map<string, Promise<boolean>>();

/**
 * Whether the target has `operation`: it answered something else than 404 before, or answers its
 * documented request (sent once, with the caller's credentials, left out of the coverage) so.
 */
function exists(operation: string, c: Call): Promise<boolean> {
  const known = present.get(operation);
  if (known) return known;
  const o = operations.find((x) => x.name === operation);
  if (!o) return Promise.resolve(false);
  const built = buildRequest(o);
  const probe = call(o.method, built.path, {
    query: built.query,
    json: built.json,
    token: c.token,
    ip: c.ip,
    record: false,
    on404: 'answer',
  }).then((a) => !isNotImplemented(a.status));
  present.set(operation, probe);
  return probe;
}

/** Why a test needs an operation it did not say it needs: it is what the test checks, or a step of it. */
function purposeOf(operation: string): string {
  const test = currentTest();
  if (!test) return 'set up the tests of this file';
  let name = test.name;
  for (let suite = test.suite; suite?.name; suite = suite.suite) name = `${suite.name} ${name}`;
  return name.includes(operation) ? 'test this operation' : 'set up or check the state of this test';
}

/**
 * The target lacks an operation (or --operations leaves it out): the running test ends as a skip
 * listing it as missing (a failure with --require-all); outside a test (a `beforeAll`) the problem
 * is thrown for the tests that need that set-up to surface.
 */
function missing(problem: NotImplemented): never {
  const test = currentTest();
  if (!test) throw problem;
  return surface(test.context, problem);
}

/** The operation a running test is about: the first its name states (cached per test). */
const subjects = new WeakMap<object, string | undefined>();
function subjectOf(test: ReturnType<typeof currentTest>): string | undefined {
  if (!test || !settings.operations) return undefined;
  if (!subjects.has(test)) {
    let name = test.name;
    for (let suite = test.suite; suite?.name; suite = suite.suite) name = `${suite.name} ${name}`;
    subjects.set(test, namedOperation(name)?.name);
  }
  return subjects.get(test);
}

/** The running test (undefined in hooks and outside vitest). */
const currentTest = () => {
  try {
    return TestRunner.getCurrentTest();
  } catch {
    return undefined;
  }
};

/**
 * Names the seed rules the running test checks, from inside its body (a case of an `it.each` that
 * checks its own rule); test options `rule(...)` (rule.ts) name them for the whole test.
 */
export function checksRules(...ids: string[]): void {
  const test = currentTest();
  if (test) test.meta.rules = [...new Set([...(test.meta.rules ?? []), ...ids])];
}

/**
 * Names the fields (`GET /user/getCashoutHistory totalCashedOut`) and events whose documented
 * meaning the running test's data tells apart from its nearest wrong readings (meanings.ts).
 */
export function pinsMeaning(...keys: string[]): void {
  const test = currentTest();
  if (test) test.meta.meanings = [...new Set([...(test.meta.meanings ?? []), ...keys])];
}

const responseText = (a: Answer) => {
  const body = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
  return body.length > 600 ? `${body.slice(0, 600)}…` : body;
};

/** The exchange as reports show it, named by its operation or test helper. */
function note(a: Answer): ExchangeNote | undefined {
  const operation = a.operation ?? a.helper;
  return operation ? { operation, status: a.status, body: responseText(a), curl: short(a.curl) } : undefined;
}

/** Tells the reports which operations the running test called, and its last exchange. */
function noteExchange(a: Answer): void {
  const test = currentTest();
  if (!test || !a.operation) return;
  const operations = test.meta.operations ?? [];
  if (!operations.includes(a.operation)) test.meta.operations = [...operations, a.operation];
  test.meta.last = note(a);
}

/** The test file sending a request, when it runs under vitest. */
function testFile(): string | undefined {
  try {
    return expect.getState().testPath;
  } catch {
    return undefined;
  }
}

/**
 * This worker's traffic file in a reports directory, opened for appending on the first exchange and
 * kept open: creating the directory and opening the file for each of a run's 7,000 exchanges took
 * about 0.4 s of the worker's CPU. Each line is still written as it comes (a worker that is killed
 * loses nothing); the CLI reads and removes the files once its workers are gone (run.ts).
 */
const trafficFiles = new Map<string, number>();
function trafficFile(out: string): number {
  let fd = trafficFiles.get(out);
  if (fd === undefined) {
    mkdirSync(out, { recursive: true });
    fd = openSync(join(out, `traffic-${process.pid}.ndjson`), 'a');
    trafficFiles.set(out, fd);
  }
  return fd;
}

/** Appends the exchange to this worker's traffic file, read by the coverage report. */
function record(a: Answer): void {
  if (!a.operation) return;
  const message = typeof a.message === 'string' ? a.message : (a.message as { type?: string } | undefined)?.type;
  const file = testFile();
  writeSync(
    trafficFile(settings.out),
    `${JSON.stringify({ op: a.operation, status: a.status, message, level: file ? levelOf(file) : undefined })}\n`,
  );
}

/** The request and response of an answer, for failure messages. */
export function describe(a: Answer): string {
  return `\n  request:  ${short(a.curl)}\n  response: ${a.status} ${responseText(a)}`;
}

/** What came back, in one line: the status and the error message, or the start of the body. */
export function received(a: Answer): string {
  if (a.message !== undefined) return `${a.status} ${JSON.stringify(a.message)}`;
  const body = responseText(a);
  return `${a.status} ${body.length > 200 ? `${body.slice(0, 200)}…` : body}`;
}

/** Marks the exchange a failing check is about, for the reports (operation, curl line). */
function fails(a: Answer, message: string): never {
  const test = currentTest();
  if (test) test.meta.subject = note(a);
  throw new Error(message);
}

/**
 * Checks a set-up exchange (a test helper, a login, a step that prepares state): unless `ok`
 * (default: a 200), it throws "set-up failed: `<operation>` answered `<status> <body>`", pinned on
 * that exchange (`why`: what was wrong with it, when not its status). (A 404 never gets here:
 * `call` has skipped the test already.)
 */
export function setUpOk(a: Answer, ok = a.status === 200, what?: string, why?: string): void {
  if (ok) return;
  const subject = note(a) ?? {
    operation: `${a.method} ${a.url}`,
    status: a.status,
    body: responseText(a),
    curl: short(a.curl),
  };
  const test = currentTest();
  if (test) test.meta.subject = subject;
  throw new SetUpFailed(subject, what, why);
}

/** Fails with the reproduction when an answer breaks the document. */
export function assertConforms(a: Answer): void {
  const violations = checkResponse(a, settings.target);
  if (violations.length)
    fails(
      a,
      `the answer breaks the document: ${violations.join('; ')}\n  expected: ${a.operation ?? `${a.method} ${a.url}`} as documented\n  received: ${received(a)}${describe(a)}`,
    );
}

/** Fails with the reproduction unless `check` holds: `what` says what was expected. */
export function assertThat(a: Answer, check: boolean, what: string): void {
  if (!check) fails(a, `${what}\n  received: ${received(a)}${describe(a)}`);
}

/**
 * Fails unless `received` equals `expected` (compared as JSON), stating both: the values compared
 * (balances, prices, counts, orders), not the answer they were read from. `a` is the exchange that
 * gave `received` (a `GET /user/balance`), on which the failure is pinned.
 */
export function assertValue(a: Answer, received: unknown, expected: unknown, what: string): void {
  const [got, want] = [JSON.stringify(received), JSON.stringify(expected)];
  if (got !== want) fails(a, `${what}\n  expected: ${want}\n  received: ${got}${describe(a)}`);
}

/**
 * Fails unless the answer has the expected status and (when given) error message, stating both the
 * expected and the received values.
 */
export function assertAnswer(a: Answer, expected: { status: number; message?: unknown }, what: string): void {
  const messageOk =
    !('message' in expected) || JSON.stringify(a.message) === JSON.stringify(expected.message ?? undefined);
  if (a.status !== expected.status || !messageOk) {
    const want = `${expected.status}${'message' in expected ? ` ${JSON.stringify(expected.message)}` : ''}`;
    fails(a, `${what}\n  expected: ${want}\n  received: ${received(a)}${describe(a)}`);
  }
}
