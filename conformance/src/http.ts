// The suite's HTTP client: every request and response is recorded (for the coverage report) and
// every failure message carries a curl line that reproduces the request, and the response seen.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, TestRunner } from 'vitest';
import { checkResponse, type Exchange, errorMessage } from './contract.ts';
import { findOperation } from './document.ts';
import type { ExchangeNote } from './rule.ts';
import { levelOf, settings } from './settings.ts';
import { apiPath, targetUrl } from './target-url.ts';

export interface Call {
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body (an object) or a raw string sent as is. */
  json?: unknown;
  /** A form-urlencoded body. */
  form?: Record<string, string>;
  raw?: { contentType: string; body: string };
  token?: string;
  /** Sent as X-Forwarded-For: the client address the target sees (behind a trusted proxy). */
  ip?: string;
  headers?: Record<string, string>;
  /** false: leave the exchange out of the coverage (the suite's own probes). */
  record?: boolean;
}

export interface Answer extends Exchange {
  /** The operation the request addressed (`GET /item/listing/{item}`), if the document has it. */
  operation?: string;
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

/** Sends one request to the target and records it. */
export async function call(method: string, path: string, c: Call = {}): Promise<Answer> {
  const url = targetUrl(settings.target, path);
  for (const [k, v] of Object.entries(c.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { ...(c.headers ?? {}) };
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
  const curl = [
    'curl -i',
    `-X ${method}`,
    quote(url.toString()),
    ...Object.entries(headers).map(([k, v]) => `-H ${quote(`${k}: ${v}`)}`),
    ...(body === undefined ? [] : [`--data ${quote(body)}`]),
  ].join(' ');
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body });
  } catch (e) {
    const cause = (e as Error).cause ?? e;
    throw new Error(`the target did not answer (${String(cause)})\n  request:  ${short(curl)}`);
  }
  const text = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
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
    operation: findOperation(method, apiPath(url, settings.target))?.name,
    request: { headers, body },
    status: res.status,
    headers: Object.fromEntries(res.headers.entries()),
    body: parsed,
    contentType,
    curl,
    message: res.status >= 300 ? errorMessage(parsed) : undefined,
  };
  if (c.record !== false) {
    record(answer);
    noteExchange(answer);
  }
  return answer;
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

const responseText = (a: Answer) => {
  const body = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
  return body.length > 600 ? `${body.slice(0, 600)}…` : body;
};

const note = (a: Answer): ExchangeNote | undefined =>
  a.operation ? { operation: a.operation, status: a.status, body: responseText(a), curl: short(a.curl) } : undefined;

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

/** Appends the exchange to this worker's traffic file, read by the coverage report. */
function record(a: Answer): void {
  if (!a.operation) return;
  mkdirSync(settings.out, { recursive: true });
  const message = typeof a.message === 'string' ? a.message : (a.message as { type?: string } | undefined)?.type;
  const file = testFile();
  appendFileSync(
    join(settings.out, `traffic-${process.pid}.ndjson`),
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
