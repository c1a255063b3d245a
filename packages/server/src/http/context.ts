// What a route handler receives and returns. Handlers are thin: read the validated request, call
// the engine once through `run` (one synchronous unit of work, journaled before the reply), map the
// result. They are registered by operationId, so every handler answers a documented operation.
import type { Request } from 'express';
import type { Claims } from '../auth/jwt.ts';
import type { Session, User } from '../domain/state.ts';
import type { Result, Tx } from '../domain/tx.ts';
import type { ServerDeps } from './deps.ts';
import type { OperationInfo } from './operation-index.ts';

export interface Caller {
  user: User;
  session: Session;
  claims: Claims;
}

export interface Ctx {
  req: Request;
  op: OperationInfo;
  deps: ServerDeps;
  /** Unix seconds on the server clock. */
  now: number;
  ip: string;
  /** The authenticated caller (always set on Connected routes; optional on API-only routes). */
  caller: Caller | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: validated against the document before the handler runs
  body: any;
  // biome-ignore lint/suspicious/noExplicitAny: validated against the document before the handler runs
  query: any;
  params: Record<string, string>;
  /** Runs one engine command; its changes are durable before this resolves. */
  run<T>(command: (tx: Tx) => Result<T>): Promise<Result<T>>;
  /** Reads the state without changing it. */
  read<T>(query: (tx: Tx) => T): T;
}

/** A handler's answer: a result (content or documented error), or a raw body such as CSV. */
export type Reply = Result<unknown> | { ok: true; raw: { contentType: string; body: string } };

export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

/** Handlers by operationId. */
export type Routes = Record<string, Handler>;

/** The authenticated caller of a Connected route (the auth middleware guarantees it). */
export function callerOf(ctx: Ctx): Caller {
  if (!ctx.caller) throw new Error(`${ctx.op.operationId} needs an authenticated caller`);
  return ctx.caller;
}
