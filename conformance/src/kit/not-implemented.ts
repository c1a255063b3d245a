// One rule for what a target does not implement (yet), in every file and level: when an operation
// or a test helper a test needs answers 404 (the unknown-route 404 of the document, or any
// framework's 404 page), the test ends as a skip naming that operation and what it was needed for.
// A failure is only ever about an exchange that answered and broke a documented rule. The names
// are the reports' names: `GET /item/listing/{item}` (the document's paths) and
// `POST /test_helpers/payments/{cashoutId}` (the test-helpers document's paths).
import { type HelperOperation, helperOperations, operations } from '../oracle/document.ts';
import type { ExchangeNote } from './rule.ts';

/** Whether an answer says the target has no such route: any 404. */
export function isNotImplemented(status: number): boolean {
  return status === 404;
}

/** The purpose of a test helper in a skip reason: its summary, lower-cased (`move the clock`). */
export const helperPurpose = (h: HelperOperation): string => `${h.summary[0]?.toLowerCase()}${h.summary.slice(1)}`;

/** The skip reason of a test whose needed operation answered 404. */
export const notImplementedReason = (name: string, purpose: string): string =>
  `not implemented: ${name} answered 404 (needed to ${purpose})`;

/** The skip reason of a test whose needed operation is left out by --operations (never sent). */
export const outOfScopeReason = (name: string, purpose: string): string =>
  `not in scope: ${name} is left out by --operations (needed to ${purpose})`;

/**
 * Raised where no test is running (a `beforeAll` set-up) when an operation it needs is missing: the
 * tests that depend on that set-up end as skips with this reason (skip.ts, `surface`).
 */
export class NotImplemented extends Error {
  readonly missing: string;
  readonly reason: string;
  /** The 404 answer (absent when --operations kept the request from being sent). */
  readonly subject?: ExchangeNote;
  /** Left out by --operations: never sent, so never a failure, even with --require-all. */
  readonly outOfScope: boolean;
  constructor(missing: string, reason: string, subject?: ExchangeNote, outOfScope = false) {
    super(reason);
    this.missing = missing;
    this.reason = reason;
    this.subject = subject;
    this.outOfScope = outOfScope;
  }
}

/** How a failed set-up names a test helper's answer off its document (helper-answers.ts). */
export const HELPER_ANSWER = "the helper's answer is not the documented one";

/**
 * A set-up call answered something other than success and other than 404: the test fails with
 * "set-up failed: `<operation>` answered `<status> <body>`", pinned on that exchange.
 */
export class SetUpFailed extends Error {
  readonly subject: ExchangeNote;
  /** `why`: what was wrong with the answer, when not its status (a helper's answer off its document). */
  constructor(subject: ExchangeNote, what?: string, why?: string) {
    super(
      `set-up failed: ${why ? `${why}: ` : ''}${subject.operation} answered ${subject.status} ${subject.body}${what ? ` (${what})` : ''}`,
    );
    this.subject = subject;
  }
}

const byId = new Map([...operations, ...helperOperations].map((o) => [o.id, o.name]));
const byName = new Set([...operations, ...helperOperations].map((o) => o.name));

/**
 * The operation names of an `--operations` value: a comma-separated list, or the text of a file
 * with one per line (`#` starts a comment). Entries are `METHOD /path` as the reports print them
 * or operationIds, of the document or of the test helpers; `unknown` lists the others.
 */
export function parseOperations(text: string): { names: Set<string>; unknown: string[] } {
  const names = new Set<string>();
  const unknown: string[] = [];
  for (const raw of text.split(/[\n,]/)) {
    const entry = raw.replace(/#.*/, '').trim().replace(/\s+/, ' ');
    if (!entry) continue;
    const [method = '', ...rest] = entry.split(' ');
    const name = rest.length ? `${method.toUpperCase()} ${rest.join(' ')}` : (byId.get(entry) ?? entry);
    if (byName.has(name)) names.add(name);
    else unknown.push(entry);
  }
  return { names, unknown };
}

/**
 * Whether `--operations` (its `scope`) lets a request to `name` be sent: every operation of the
 * document must be listed; test helpers only when the list names some.
 */
export function inScope(scope: ReadonlySet<string> | undefined, name: string): boolean {
  if (!scope) return true;
  const helper = name.includes(' /test_helpers/');
  if (helper && ![...scope].some((n) => n.includes(' /test_helpers/'))) return true;
  return scope.has(name);
}
