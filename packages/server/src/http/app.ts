// The HTTP adapter: Express 5 behind the document's gate (@marketplace/contract, the one the mock
// mounts too). Order of a request: match the document operation, check its permission level,
// count its rate limits (the contract's OperationLimits, on this server's windows), read the body (never past the operation's limit, and only now: a caller
// refused so far costs no body), convert a form body to the schema's types, validate against the
// document, run the handler. Every failure leaves in the API's envelope with the documented message.

import {
  corsLayer,
  createGate,
  isAbortedRequest,
  LOCAL_DEV_ORIGINS,
  type OperationInfo,
  OperationLimits,
  requestErrorAnswer,
  sendError,
  sendOk,
  sendRateLimited,
} from '@marketplace/contract';
import type { RawReply } from '@marketplace/types';
import express, { type NextFunction, type Request, type Response } from 'express';
import { NOT_FOUND, SERVICE_UNAVAILABLE } from '../domain/messages.ts';
import { type Result, Tx } from '../domain/tx.ts';
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
  before?: express.Router[];
  /**
   * Whether the world this app serves was deleted under it (a sandbox deleted through another
   * PostgreSQL instance, ADR 25): asked when a request fails unexpectedly (its store's tables are
   * gone), so that it is answered 404 like an unknown sandbox, not 500.
   */
  gone?: () => Promise<boolean>;
}

/** Builds the Express application (no `listen`: tests start it on port 0). */
export function createApp({ deps, routes, before = [], gone }: AppParts): express.Express {
  const uploads = new Map<string, number>();
  // A caller counts by its user; the general limit applies to API tokens (every token of the server's is one).
  const limits = new OperationLimits<Caller>({
    limiter: deps.limiter,
    counted: (caller) => ({ user: caller.user.platformId, general: caller.claims.API === true }),
  });
  const gate = createGate<Caller>({
    document: deps.document,
    identify: (req) => identify(deps, req.get('authorization'), req.ip ?? '', deps.clock.now()),
    limits,
    count: (req, res, _op, caller) =>
      caller !== undefined || !hasBody(req) || holdUpload(uploads, req, res, deps.clock.now()),
    // A caller without a JWT: at most ANONYMOUS_BODY_LIMIT, whatever the route admits.
    bodyLimit: (op, caller) => (caller ? op.bodyLimit! : Math.min(op.bodyLimit!, ANONYMOUS_BODY_LIMIT)),
    validateResponses: deps.config.testMode,
    unexpected: (err, req) => deps.logger.error({ err, path: req.path, method: req.method }, 'request failed'),
  });
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  // Nothing of a body is read before the caller is known, and a refused caller's upload stays unread.
  // A request HTTP parsers answer bare gets the document's answer here (the contract's protocol-errors.ts).
  app.use(gate.guard);
  // CORS before anything of the API: a preflight is answered here, never identified, validated,
  // counted or failed on purpose, and every later answer (a 429 too) is readable by an allowed page.
  // Unset, local dev servers may call a server that is no production one: test mode, every
  // sandbox, and a store in memory (`npm run sandbox`), which keeps nothing.
  const { corsOrigins, testMode, db } = deps.config;
  const cors = corsLayer(corsOrigins ?? (testMode || db === ':memory:' ? LOCAL_DEV_ORIGINS : []));
  if (cors) app.use(cors);
  // The access log costs a listener per request: only when someone reads debug logs.
  if (deps.logger.isLevelEnabled('debug')) {
    app.use((req: Request, res: Response, next: NextFunction) => {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        deps.logger.debug({ method: req.method, path: req.path, status: res.statusCode, ms, ip: req.ip }, 'request');
      });
      next();
    });
  }
  // What other instances on the same database committed since the last request (ADR 19): before
  // anything reads the state, the test helpers included; the shared world (simulators, outbox,
  // test clock) alike, when the store's query (which reads the world's version too) says it moved.
  // With one process there is nothing to apply, and no middleware.
  if (deps.store.replicated || deps.world.replicated)
    app.use(async (_req: Request, _res: Response, next: NextFunction) => {
      await deps.store.sync();
      await deps.world.sync(deps.store.worldVersion);
      next();
    });
  for (const router of before) app.use(router);
  gate.mount(app);

  // The operation was matched once, before anything else (literals first: `/item/pricing/bulk`
  // before `/item/pricing/{item}`); its handler is found by it, with no Express router to walk
  // (routers per path segment cost a tenth of a simple GET's CPU time).
  // Each handler was typed by its operation where it was written; here the operation is known at
  // run time only, and the validator has checked the request against that operation's schemas.
  const byId = routes as unknown as Record<string, EdgeHandler | undefined>;
  const handlers = new Map<OperationInfo, EdgeHandler>();
  for (const op of gate.operations.values()) {
    const handler = byId[op.operationId];
    if (handler) handlers.set(op, handler); // none (a JavaScript caller's table): 404 like an unknown route
  }
  app.use(async (req: Request, res: Response, next: NextFunction) => {
    const op = gate.operationOf(res);
    const handler = op && handlers.get(op);
    if (!op || !handler) return next();
    const caller = gate.callerOf(res);
    const servesCached = await limits.servesCached(req, op, caller);
    const ctx = context(deps, req, op, gate.matcher.typedParams(op, req.path), caller, servesCached);
    await doDueWork(ctx);
    const reply = await handler(ctx);
    // A refusal a rule counts (the login's `Invalid API key` per IP), counted before it is answered.
    if ('ok' in reply && !reply.ok) await limits.answered(req, op, caller, reply.error);
    // What the handler wrote to the shared world (a computed price cached for 20 minutes) is
    // there for the next request on any instance before this one is answered. With the database
    // away, the handler's own commit is durable already: its answer stands, and the world's
    // writes stay pending for the next flush.
    if (deps.world.replicated)
      await deps.world.flush().catch((error: unknown) => {
        if (!isUnavailable(error)) throw error;
        deps.logger.warn({ err: error }, 'shared world writes kept for later: the database is away');
      });
    if ('raw' in reply) {
      res.status(200).type(reply.raw.contentType).send(reply.raw.body);
    } else if (reply.ok) {
      sendOk(res, op.envelope, reply.value);
    } else {
      sendError(res, op.envelope, reply.error, reply.status ?? 300);
    }
  });

  // Reached by a document operation without a handler yet: 404 like an unknown route.
  app.use((_req: Request, res: Response) => sendNotFoundUnchecked(res));
  if (gone)
    app.use(async (err: unknown, _req: Request, res: Response, next: NextFunction) => {
      // A refused request is answered as documented whatever the world: only a failure asks.
      const refused = isAbortedRequest(err) || requestErrorAnswer(err, gate.operationOf(res)) !== undefined;
      if (refused || res.headersSent || !(await gone().catch(() => false))) return next(err);
      sendNotFoundUnchecked(res);
    });
  // The database away (a restart, dropped connections): 503 with Retry-After, never a 500 or a
  // hang; nothing of a write answered so was kept (ADR 19, "PostgreSQL going away").
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent || !isUnavailable(err)) return next(err);
    res.set('Retry-After', String(UNAVAILABLE_RETRY_SECONDS));
    sendError(res, 'A', SERVICE_UNAVAILABLE, 503);
  });
  app.use(gate.refuse);
  return app;
}

/**
 * 404 with the API's "Not found", written as a string so that the response validator (test mode)
 * does not see it: the operation does not document a 404 of its own, and the validator would turn
 * the answer into a 500.
 */
function sendNotFoundUnchecked(res: Response): void {
  res
    .status(404)
    .type('application/json')
    .send(JSON.stringify({ err: true, success: false, content: NOT_FOUND }));
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

/** A handler as the pipeline sees it: its operation's types erased. */
type EdgeCtx = BaseCtx & { body: unknown; query: unknown; params: unknown };
type EdgeHandler = (ctx: EdgeCtx) => Result<unknown> | RawReply | Promise<Result<unknown> | RawReply>;

function context(
  deps: ServerDeps,
  req: Request,
  op: OperationInfo,
  params: Record<string, string | number>,
  caller: Caller | undefined,
  servesCached: boolean,
): EdgeCtx {
  return {
    req,
    op,
    deps,
    now: deps.clock.now(),
    ip: req.ip ?? '',
    caller,
    servesCached,
    body: req.body ?? {},
    query: req.query ?? {},
    params,
    run: (command) => execute(deps, command),
    read: (query) => query(new Tx(deps.store.state)),
  };
}
