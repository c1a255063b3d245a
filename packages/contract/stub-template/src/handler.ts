// What a handler receives and answers, typed from the document by operationId (@marketplace/types):
// it reads only the fields its operation declares (path and query values already typed by their
// schemas) and answers only what its operation documents as its success. A handler is also stamped
// with the revision of its operation (src/generated/revisions.ts): when `update` brings a document
// in which that operation changed or is gone, tsc points at the handler.
import {
  type FixedWindowLimiter,
  type NotImplemented,
  type OperationInfo,
  rateLimited as rateLimitedMessage,
  setRateLimitHeaders,
  type Verdict,
} from '@marketplace/contract';
import type { JsonContentOf, OperationId, PathParamsOf, QueryOf, RawReplyOf, RequestBodyOf } from '@marketplace/types';
import type { Request, Response } from 'express';
import type { Caller } from './auth.ts';
import type { Clock } from './clock.ts';
import type { Revisions } from './generated/revisions.ts';
import type { GeoIp } from './geoip.ts';
import type { Store } from './store.ts';

/** The operations of the document the stubs were generated from. */
export type DocumentedId = keyof Revisions & OperationId;

export interface Ctx<Id extends OperationId> {
  req: Request;
  /** For headers of the answer (a 429's `Retry-After`: `rateLimited`). */
  res: Response;
  op: OperationInfo;
  store: Store;
  clock: Clock;
  /** The country of a client IP: the login refuses those of settings.ts's BLOCKED_COUNTRIES. */
  geoip: GeoIp;
  /**
   * The app's rate-limit windows (@marketplace/contract), for a rule the stub's comment calls yours
   * to count: `await ctx.limiter.hit(key, rule.limit, rule.window)`.
   */
  limiter: FixedWindowLimiter;
  /**
   * Beyond a rule of the operation whose `exceeded` is `serve-cached` (the app counts it, `update=1`
   * of the price lists): answer what you have cached, do not refresh it.
   */
  servesCached: boolean;
  /** Unix seconds on the clock (the test helpers move it in test mode). */
  now: number;
  ip: string;
  /** The caller the authentication hook found (always set on Connected operations). */
  caller: Caller | undefined;
  /** The body, validated against the document (`{}` when the operation takes none). */
  body: RequestBodyOf<Id>;
  /** The query, converted by its schemas, absent values set to their defaults. */
  query: QueryOf<Id>;
  /** The path parameters, numbers where the schema says so. */
  params: PathParamsOf<Id>;
}

/** A documented error: its message (src/generated/messages.ts), HTTP 300 unless the document says otherwise. */
export interface Refusal {
  ok: false;
  error: string | Record<string, unknown>;
  status?: number;
}

/** An answer for a case not written yet: the app answers it as an unknown route (404 `Not found`). */
export type { NotImplemented } from '@marketplace/contract';

export type Reply<Id extends OperationId> =
  | { ok: true; value: JsonContentOf<Id> }
  | Refusal
  | NotImplemented
  | RawReplyOf<Id>;

/**
 * The handler of operation `Id`, generated against revision `Revision` of it: a stamp that is no
 * longer the operation's revision (or an operation no longer in the document) fails to compile.
 */
// biome-ignore lint/correctness/noUnusedVariables: the stamp is checked through its constraint alone
export type Handler<Id extends DocumentedId, Revision extends Revisions[Id]> = (
  ctx: Ctx<Id>,
) => Reply<Id> | Promise<Reply<Id>>;

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const fail = (error: string | Record<string, unknown>, status?: number): Refusal =>
  status === undefined ? { ok: false, error } : { ok: false, error, status };
/**
 * A stub: its operation answers as an unknown route does (404 `Not found`) before the request flow
 * (@marketplace/contract's createApi) looks at the request, so the suite counts the operation as
 * not implemented, not as refusing.
 */
export { notImplemented } from '@marketplace/contract';

/** The API's 429 as a handler's reply (a rule counted in the handler): its headers on `res`, its message. */
export function rateLimited(res: Response, verdict: Verdict): Refusal {
  setRateLimitHeaders(res, verdict);
  return { ok: false, error: rateLimitedMessage(verdict.retryAfter), status: 429 };
}

/** The caller of a Connected operation (the gate refused the request otherwise). */
export function callerOf(ctx: { caller: Caller | undefined; op: OperationInfo }): Caller {
  if (!ctx.caller) throw new Error(`${ctx.op.operationId} needs an authenticated caller`);
  return ctx.caller;
}
