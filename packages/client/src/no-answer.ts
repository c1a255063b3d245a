// Why a request got no answer the caller may read. A browser's fetch rejects with the same
// TypeError ("Failed to fetch") when the server is down and when its CORS check keeps the answer
// from the page: on purpose, a page must not learn which servers answer elsewhere. What can
// honestly be told apart:
// - an abort: the caller's signal (`AbortError`, or `TimeoutError` from `AbortSignal.timeout`);
// - on a page calling another origin, whether that origin answers at all: a `no-cors` request is
//   not subject to the CORS check (its answer is opaque, nothing of it is read), so when it is
//   answered, the server is up and the browser refused the page the real answer: a CORS refusal
//   (or, rarely, a request the server cut). When it is not answered either, the server is not
//   reachable from the page.

/** `aborted` by the caller's signal, refused by the browser's `cors` check, or no answer (`network`). */
export type NoAnswerKind = 'aborted' | 'cors' | 'network';

/** A failed fetch, with what could be learned about why. */
export class NoAnswer extends Error {
  readonly kind: NoAnswerKind;
  constructor(message: string, kind: NoAnswerKind, cause: unknown) {
    super(message, { cause });
    this.kind = kind;
  }
}

/** Milliseconds the `no-cors` probe may take: a server that is up answers it at once. */
const PROBE_MS = 5_000;

/** The origin of the page this runs on, in a browser (or a worker); undefined elsewhere. */
export function pageOrigin(): string | undefined {
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  return typeof origin === 'string' && origin !== 'null' ? origin : undefined;
}

/** The most specific reason of a failed fetch: Node's undici hides the code (ECONNREFUSED...) in `cause`. */
function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const inner = error.cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof inner?.code === 'string' ? inner.code : undefined;
  const detail = typeof inner?.message === 'string' && inner.message ? inner.message : undefined;
  return code && detail && !detail.includes(code)
    ? `${error.message} (${code}: ${detail})`
    : detail
      ? `${error.message} (${detail})`
      : error.message;
}

const isAbort = (error: unknown) =>
  error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');

/**
 * Says why `request` failed with `cause`. On a page at `page` calling another origin, asks that
 * origin once more with a `no-cors` request (`fetch` is the caller's) to tell a CORS refusal from
 * a server that does not answer.
 */
export async function noAnswer(
  request: Request,
  cause: unknown,
  fetch: typeof globalThis.fetch,
  page: string | undefined,
): Promise<NoAnswer> {
  const tried = `${request.method} ${request.url}`;
  if (request.signal.aborted || isAbort(cause))
    return new NoAnswer(`${tried} was aborted: ${reason(cause)}`, 'aborted', cause);
  const target = new URL(request.url).origin;
  if (page === undefined || page === target)
    return new NoAnswer(`${tried} did not answer: ${reason(cause)}`, 'network', cause);
  const answers = await fetch(`${target}/`, {
    method: 'HEAD',
    mode: 'no-cors',
    cache: 'no-store',
    signal: AbortSignal.timeout(PROBE_MS),
  }).then(
    () => true,
    () => false,
  );
  if (answers)
    return new NoAnswer(
      `${tried}: the server answers, but the browser kept its answer from this page: a CORS refusal (the server does not allow the origin ${page}; reference server: MARKETPLACE_CORS_ORIGINS)`,
      'cors',
      cause,
    );
  return new NoAnswer(
    `${tried} did not answer: ${reason(cause)} (a browser reports a CORS refusal the same way, but ${target} did not answer a request the CORS check does not apply to either: it is down or not reachable from this page)`,
    'network',
    cause,
  );
}
