// What a route handler receives and returns. Handlers are thin: read the validated request, call
// the engine once through `run` (one synchronous unit of work, journaled before the reply), map the
// result. They are registered by operationId, and typed from the document by it: a handler reads
// only the fields its operation declares (path and query values already typed by their schemas, so
// `{item}` is a number) and answers only what its operation documents: its success, and the
// messages it lists as its errors.

import type { FORBIDDEN, OperationInfo, rateLimited } from '@marketplace/contract';
import type {
  ErrorOf,
  JsonContentOf,
  OperationId,
  PathParamsOf,
  QueryOf,
  RawReplyOf,
  RequestBodyOf,
} from '@marketplace/types';
import type { Request } from 'express';
import type { Claims } from '../auth/jwt.ts';
import type { Session, User } from '../domain/state.ts';
import type { Failure, Result, Tx } from '../domain/tx.ts';
import type { ServerDeps } from './deps.ts';

export type { OperationId } from '@marketplace/types';

export interface Caller {
  user: User;
  session: Session;
  claims: Claims;
}

/** What every handler receives, whatever its operation (what helpers shared by handlers take). */
export interface BaseCtx {
  req: Request;
  op: OperationInfo;
  deps: ServerDeps;
  /** Unix seconds on the server clock. */
  now: number;
  ip: string;
  /** The authenticated caller (always set on Connected routes; optional on API-only routes). */
  caller: Caller | undefined;
  /**
   * Beyond a rate-limit rule of the operation whose `exceeded` is `serve-cached` (counted by the
   * contract's OperationLimits): the cached answer is what the caller gets.
   */
  servesCached: boolean;
  /** Runs one engine command; its changes are durable before this resolves. */
  run<T, E extends Failure>(command: (tx: Tx) => Result<T, E>): Promise<Result<T, E>>;
  /** Reads the state without changing it. */
  read<T>(query: (tx: Tx) => T): T;
}

/** A handler's input: the request of operation `Id`, validated against the document. */
export interface Ctx<Id extends OperationId> extends BaseCtx {
  /** The body (`{}` when the operation takes none or the client sent none). */
  body: RequestBodyOf<Id>;
  /** The query, its values converted by their schemas and absent ones set to their defaults. */
  query: QueryOf<Id>;
  /** The path parameters, numbers where the schema says so. */
  params: PathParamsOf<Id>;
}

/**
 * A handler's answer: the documented success content, a documented error (a message its operation
 * lists in `x-error-messages`, a global one, or its documented error object), or a documented raw
 * body. A message dropped from the operation in the document fails `tsc` where it is answered.
 */
export type Reply<Id extends OperationId> = Result<JsonContentOf<Id>, ErrorOf<Id> | SharedRefusal> | RawReplyOf<Id>;

/**
 * The refusals every operation's shared answers document: 403 `forbidden` (a caller the service no
 * longer knows) and the 429 of a handler that counts an attempt itself (TooManyRequests).
 */
type SharedRefusal = typeof FORBIDDEN | ReturnType<typeof rateLimited>;

export type Handler<Id extends OperationId> = (ctx: Ctx<Id>) => Reply<Id> | Promise<Reply<Id>>;

/** One handler for every operation of the document, by operationId. */
export type Routes = { [Id in OperationId]: Handler<Id> };

/** The handlers of one area of the API (`satisfies AreaRoutes`: a misspelled operationId fails). */
export type AreaRoutes = Partial<Routes>;

/** The authenticated caller of a Connected route (the auth middleware guarantees it). */
export function callerOf(ctx: BaseCtx): Caller {
  if (!ctx.caller) throw new Error(`${ctx.op.operationId} needs an authenticated caller`);
  return ctx.caller;
}
