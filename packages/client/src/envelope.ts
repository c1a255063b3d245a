// Turns an answer in either envelope into the value it carries or a MarketplaceError. Envelope A is
// `{err, success, content}`, envelope B `{status, data}` or `{status: "error", message}`; a few
// routes answer a raw document (CSV), returned as it is.
import type { paths } from '@marketplace/types';
import { MarketplaceError } from './errors.ts';
import { type Content, indexEntry, type Method, type Operation } from './operations.ts';

export type Outcome<P extends keyof paths, M extends Method> =
  | { ok: true; value: Content<Operation<P, M>>; response: Response }
  | { ok: false; error: MarketplaceError<P, M>; response: Response | undefined };

type Raw = { data?: unknown; error?: unknown; response: Response };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isEnvelopeA = (b: unknown): b is { err: boolean; content?: unknown } => isObject(b) && typeof b.err === 'boolean';
const isEnvelopeB = (b: unknown): b is { status: string; data?: unknown; message?: unknown } =>
  isObject(b) && typeof b.status === 'string';

/** The operationId the document gives a path and method, or `METHOD /path`. */
export function operationIdOf(method: Method, path: string): string {
  return indexEntry(method, path)?.operationId ?? `${method.toUpperCase()} ${path}`;
}

/** The human message of a failed answer's body. */
export function messageOf(body: unknown, fallback: string): string {
  if (typeof body === 'string' && body !== '') return body;
  const carried = isEnvelopeA(body) ? body.content : isEnvelopeB(body) ? (body.message ?? body.data) : body;
  if (typeof carried === 'string') return carried;
  if (isObject(carried) && typeof carried.message === 'string') return carried.message;
  return carried === undefined || carried === null ? fallback : JSON.stringify(carried);
}

function retryAfterOf(response: Response): number | undefined {
  const seconds = Number(response.headers.get('retry-after'));
  return response.status === 429 && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/** The outcome of one openapi-fetch result for `method path`. */
export function settle<P extends keyof paths, M extends Method>(method: M, path: P, raw: Raw): Outcome<P, M> {
  const { response } = raw;
  const body = raw.data ?? raw.error;
  const failure = (status: number): Outcome<P, M> => ({
    ok: false,
    response,
    error: new MarketplaceError<P, M>({
      message: messageOf(body, response.statusText || `HTTP ${status}`),
      status,
      operation: operationIdOf(method, path),
      method,
      path,
      body,
      retryAfter: retryAfterOf(response),
    }),
  });
  if (!response.ok) return failure(response.status);
  // A 2xx that says it failed is still a failure (the seed's envelopes allow it).
  if (isEnvelopeA(body)) return body.err ? failure(300) : { ok: true, response, value: body.content as never };
  if (isEnvelopeB(body))
    return body.status === 'error' ? failure(300) : { ok: true, response, value: body.data as never };
  return { ok: true, response, value: body as never };
}

/** The value of an outcome, or its error thrown. */
export function orThrow<P extends keyof paths, M extends Method>(outcome: Outcome<P, M>): Content<Operation<P, M>> {
  if (outcome.ok) return outcome.value;
  throw outcome.error;
}
