// The HTTP adapter: the contract's request flow (`createApi`, @marketplace/contract, the one the
// mock, the test helpers and a generated project mount too) with the server's own parts plugged
// in: who the caller is (JWT sessions), what it counts (the document's rate limits on its own
// windows, the contract's OperationLimits; anonymous upload slots), what
// a handler receives (`context`, the engine behind `run`), and what a failure of its store means
// (503, or 404 for a sandbox deleted under it). The order and the documented answers are the
// contract's (api.ts there).

import {
  corsLayer,
  createApi,
  LOCAL_DEV_ORIGINS,
  type OperationInfo,
  OperationLimits,
  sendError,
  sendNotFound,
  sendRateLimited,
} from '@marketplace/contract';
import type express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { SERVICE_UNAVAILABLE } from '../domain/messages.ts';
import { type Failure, type Result, Tx } from '../domain/tx.ts';
import { isUnavailable, UNAVAILABLE_RETRY_SECONDS } from '../store/unavailable.ts';
import { identify } from './authenticate.ts';
import type { BaseCtx, Caller, Routes } from './context.ts';
import type { ServerDeps } from './deps.ts';
import { doDueWork } from './due-work.ts';
import { execute } from './execute.ts';

export { FORM_DEPTH, FORM_PARAMETERS, INVALID_BODY } from '@marketplace/contract';
/** Bytes of body a caller without a valid JWT may send, whatever the route admits (login needs bytes). */
export const ANONYMOUS_BODY_LIMIT = 16 * 1024;
/**
 * Bodies a caller without a valid JWT may have arriving at once per IP: a body counts until it has
 * arrived in full (or the request ends), so concurrent logins of a busy client do not collide;
 * stalled uploads do.
 */
export const ANONYMOUS_UPLOADS = 32;
/** Seconds a caller over ANONYMOUS_UPLOADS is told to wait: a body arrives in well under that. */
export const UPLOAD_RETRY_AFTER = 1;

export interface AppParts {
  deps: ServerDeps;
  routes: Routes;
  /** Extra routers mounted before the API (document, docs page, test helpers). */
  before?: express.RequestHandler[];
  /**
   * Whether the world this app serves was deleted under it (a sandbox deleted through another
   * PostgreSQL instance, ADR 25): asked when a request fails unexpectedly (its store's tables are
   * gone), so that it is answered 404 like an unknown sandbox, not 500.
   */
  gone?: () => Promise<boolean>;
}

/** Builds the Express application (no `listen`: tests start it on port 0): the contract's `createApi` with the server's parts. */
export function createApp({ deps, routes, before = [], gone }: AppParts): express.Express {
  const uploads = new Map<string, number>();
  return createApi<Caller, EdgeCtx>({
    document: deps.document,
    // A request without credentials (most public reads) has nobody to look up and nothing to wait for.
    identify: (req) => {
      const authorization = req.get('authorization');
      return authorization === undefined ? undefined : identify(deps, authorization, req.ip ?? '', deps.clock.now());
    },
    trustProxy: deps.config.trustProxy,
    before: [...ownSteps(deps), ...before],
    // A caller counts by its user; the general limit applies to API tokens (every token of the server's is one).
    limits: new OperationLimits<Caller>({
      limiter: deps.limiter,
      counted: (caller) => ({ user: caller.user.platformId, general: caller.claims.API === true }),
    }),
    // Nobody without an account holds the server's memory with uploads (holdUpload).
    admit: (req, res, _op, caller) =>
      caller !== undefined || !hasBody(req) || holdUpload(uploads, req, res, deps.clock.now()),
    // A caller without a JWT: at most ANONYMOUS_BODY_LIMIT, whatever the route admits.
    bodyLimit: (op, caller) => (caller ? op.bodyLimit! : Math.min(op.bodyLimit!, ANONYMOUS_BODY_LIMIT)),
    validateResponses: deps.config.testMode,
    dispatch: {
      handlers: routes,
      context(req, _res, op, params, caller, servesCached) {
        const ctx = new Context(deps, req, op, params, caller, servesCached);
        const due = doDueWork(ctx);
        return due ? due.then(() => ctx) : ctx;
      },
      // What the handler wrote to the shared world (a computed price cached for 20 minutes) is
      // there for the next request on any instance before this one is answered. With the database
      // away, the handler's own commit is durable already: its answer stands, and the world's
      // writes stay pending for the next flush.
      answered: () => {
        if (!deps.world.replicated) return;
        return deps.world.flush().catch((error: unknown) => {
          if (!isUnavailable(error)) throw error;
          deps.logger.warn({ err: error }, 'shared world writes kept for later: the database is away');
        });
      },
    },
    failures: [
      // A sandbox deleted under this app: a failure (its tables are gone) is answered 404 like an
      // unknown sandbox, not 500. Refused requests never get here: they were answered as documented.
      ...(gone
        ? [
            async (err: unknown, _req: Request, res: Response, next: NextFunction) => {
              if (res.headersSent || !(await gone().catch(() => false))) return next(err);
              sendNotFound(res);
            },
          ]
        : []),
      // The database away (a restart, dropped connections): 503 with Retry-After, never a 500 or a
      // hang; nothing of a write answered so was kept (ADR 19, "PostgreSQL going away").
      (err: unknown, _req: Request, res: Response, next: NextFunction) => {
        if (res.headersSent || !isUnavailable(err)) return next(err);
        res.set('Retry-After', String(UNAVAILABLE_RETRY_SECONDS));
        sendError(res, 'A', SERVICE_UNAVAILABLE, 503);
      },
    ],
    unexpected: (err, req) => deps.logger.error({ err, path: req.path, method: req.method }, 'request failed'),
  });
}

/** The server's own steps before its routers: CORS, the access log, other instances' commits. */
function ownSteps(deps: ServerDeps): express.RequestHandler[] {
  const steps: express.RequestHandler[] = [];
  // CORS before anything of the API: a preflight is answered here, never identified, validated,
  // counted or failed on purpose, and every later answer (a 429 too) is readable by an allowed page.
  // Unset, local dev servers may call a server that is no production one: test mode, every
  // sandbox, and a store in memory (`npm run sandbox`), which keeps nothing.
  const { corsOrigins, testMode, db } = deps.config;
  const cors = corsLayer(corsOrigins ?? (testMode || db === ':memory:' ? LOCAL_DEV_ORIGINS : []));
  if (cors) steps.push(cors);
  // The access log costs a listener per request: only when someone reads debug logs.
  if (deps.logger.isLevelEnabled('debug'))
    steps.push((req: Request, res: Response, next: NextFunction) => {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        deps.logger.debug({ method: req.method, path: req.path, status: res.statusCode, ms, ip: req.ip }, 'request');
      });
      next();
    });
  // What other instances on the same database committed since the last request (ADR 19): before
  // anything reads the state, the test helpers included; the shared world (simulators, outbox,
  // test clock) alike, when the store's query (which reads the world's version too) says it moved.
  // With one process there is nothing to apply, and no middleware.
  if (deps.store.replicated || deps.world.replicated)
    steps.push(async (_req: Request, _res: Response, next: NextFunction) => {
      await deps.store.sync();
      await deps.world.sync(deps.store.worldVersion);
      next();
    });
  return steps;
}

/** Whether a request announces a body (a length above 0, or a chunked one). */
const hasBody = (req: Request): boolean =>
  Boolean(req.headers['transfer-encoding']) || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * Counts an upload of a caller without a JWT against its IP while it is in progress; refuses with
 * 429 past ANONYMOUS_UPLOADS, so nobody without an account holds the server's memory.
 */
function holdUpload(uploads: Map<string, number>, req: Request, res: Response, now: number): boolean {
  const ip = req.ip ?? '';
  const held = uploads.get(ip) ?? 0;
  if (held >= ANONYMOUS_UPLOADS) {
    sendRateLimited(res, {
      limit: ANONYMOUS_UPLOADS,
      remaining: 0,
      reset: now + UPLOAD_RETRY_AFTER,
      retryAfter: UPLOAD_RETRY_AFTER,
    });
    return false;
  }
  uploads.set(ip, held + 1);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    const left = (uploads.get(ip) ?? 1) - 1;
    if (left > 0) uploads.set(ip, left);
    else uploads.delete(ip);
  };
  // The slot is held while the body is arriving: released once it has arrived, or the request ends.
  req.once('end', release);
  res.once('close', release);
  return true;
}

/** A handler's context as the pipeline builds it: its operation's types erased. */
type EdgeCtx = BaseCtx & { body: unknown; query: unknown; params: unknown };

/**
 * A handler's context. A class, not an object literal: a literal with a getter (`ip`) and two
 * closures is built slowly on every request (about 6 µs of the bench's read in its profile); here
 * the getter and the methods sit once on the prototype.
 */
class Context implements EdgeCtx {
  readonly req: Request;
  readonly op: OperationInfo;
  readonly deps: ServerDeps;
  readonly now: number;
  readonly caller: Caller | undefined;
  readonly servesCached: boolean;
  readonly body: unknown;
  readonly query: unknown;
  readonly params: Record<string, string | number>;

  constructor(
    deps: ServerDeps,
    req: Request,
    op: OperationInfo,
    params: Record<string, string | number>,
    caller: Caller | undefined,
    servesCached: boolean,
  ) {
    this.req = req;
    this.op = op;
    this.deps = deps;
    this.now = deps.clock.now();
    this.caller = caller;
    this.servesCached = servesCached;
    this.body = req.body ?? {};
    this.query = req.query ?? {};
    this.params = params;
  }

  /** Read when a handler asks (Express works it out from the proxy headers on each read). */
  get ip(): string {
    return this.req.ip ?? '';
  }

  run<T, E extends Failure>(command: (tx: Tx) => Result<T, E>): Promise<Result<T, E>> {
    return execute(this.deps, command);
  }

  read<T>(query: (tx: Tx) => T): T {
    return query(new Tx(this.deps.store.state));
  }
}
