// The API: Express 5 behind the gate of @marketplace/contract, which applies the document before
// any handler runs (match the operation, identify the caller, check its permission level, read the
// body within the operation's limit, validate; every refusal in the API's envelope with the
// documented message). The document's rate limits are counted by the contract (OperationLimits),
// except those answered with a documented 300: the handler's. Then the operation's handler, found by
// operationId in src/handlers/.
import {
  createGate,
  FixedWindowLimiter,
  MemoryWindows,
  type OperationInfo,
  OperationLimits,
  readDocument,
  sendError,
  sendOk,
} from '@marketplace/contract';
import type { RawReply } from '@marketplace/types';
import express, { type NextFunction, type Request, type Response } from 'express';
import { type Caller, identify } from './auth.ts';
import type { Clock } from './clock.ts';
import { handlerModules } from './generated/handlers.ts';
import { GeoIp } from './geoip.ts';
import { type Ctx, type NotImplemented, notImplemented, type Refusal } from './handler.ts';
import type { Store } from './store.ts';
import { testHelpers } from './test-helpers.ts';

export interface AppOptions {
  store: Store;
  clock: Clock;
  /** The country of a client IP (default: the table the test helpers fill, `US` otherwise). */
  geoip?: GeoIp;
  /** Mounts the test helpers and validates answers against the document too. */
  testMode: boolean;
}

/** A handler as the app sees it: its operation's types erased. */
type AnyReply = { ok: true; value: unknown } | Refusal | NotImplemented | RawReply;
type AnyHandler = (ctx: Ctx<never>) => AnyReply | Promise<AnyReply>;

/** The answer of an unknown route. A string, so that the answer validation (test mode) lets it be. */
function unknownRoute(_req: Request, res: Response): void {
  res
    .status(404)
    .type('application/json')
    .send(JSON.stringify({ err: true, success: false, content: 'Not found' }));
}

export function createApp({ store, clock, geoip = new GeoIp(), testMode }: AppOptions): express.Express {
  // The windows live in this process's memory: several instances each count their own until they
  // are kept in a store all of them share (a `RateWindows` of yours in place of MemoryWindows).
  const limiter = new FixedWindowLimiter(new MemoryWindows(), () => clock.now());
  // Every caller has a token; the general limit applies to each. Stubs never get counted.
  const limits = new OperationLimits<Caller>({
    limiter,
    counted: (caller) => ({ user: caller.user.platformId, apiKey: caller.user.apiKey, general: true }),
  });
  const gate = createGate<Caller>({
    document: readDocument(),
    identify: (req) => identify(req, store, clock.now()),
    limits,
    validateResponses: testMode,
    unexpected: (err, req) => console.error(`${req.method} ${req.path} failed`, err),
  });
  const handlers = new Map<string, AnyHandler>();
  for (const module of handlerModules)
    for (const [name, handler] of Object.entries(module))
      if (typeof handler === 'function' && handler !== notImplemented) handlers.set(name, handler as AnyHandler);

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(gate.guard);
  if (testMode) app.use(testHelpers(store, clock, limiter, geoip));
  // An operation still a stub answers as an unknown route before the gate checks anything (its
  // permission, its body): the conformance suite then counts it as not implemented.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const op = gate.matcher.match(req.method, req.path);
    if (op && !handlers.has(op.operationId)) return unknownRoute(req, res);
    next();
  });
  gate.mount(app);
  app.use(async (req: Request, res: Response, next: NextFunction) => {
    const op = gate.operationOf(res);
    const handler = op && handlers.get(op.operationId);
    if (!op || !handler) return next();
    const caller = gate.callerOf(res);
    const servesCached = await limits.servesCached(req, op, caller);
    const ctx = context(req, res, op, gate.matcher.typedParams(op, req.path), caller, servesCached);
    const reply = await handler(ctx);
    // A refusal a rule counts (the login's refused keys per IP), counted before it is answered.
    if ('ok' in reply && !reply.ok) await limits.answered(req, op, caller, reply.error);
    if ('notImplemented' in reply) return next();
    if ('raw' in reply) res.status(200).type(reply.raw.contentType).send(reply.raw.body);
    else if (reply.ok) sendOk(res, op.envelope, reply.value);
    else sendError(res, op.envelope, reply.error, reply.status ?? 300);
  });
  // A handler that answered `notImplemented`: as an unknown route too.
  app.use(unknownRoute);
  app.use(gate.refuse);
  return app;

  function context(
    req: Request,
    res: Response,
    op: OperationInfo,
    params: unknown,
    caller: Caller | undefined,
    servesCached: boolean,
  ): Ctx<never> {
    return {
      req,
      res,
      op,
      store,
      clock,
      geoip,
      limiter,
      servesCached,
      now: clock.now(),
      ip: req.ip ?? '',
      caller,
      body: req.body ?? {},
      query: req.query ?? {},
      params,
    } as Ctx<never>;
  }
}
