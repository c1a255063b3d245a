// The API: Express 5 behind the gate of @marketplace/contract, which applies the document before
// any handler runs (match the operation, identify the caller, check its permission level, read the
// body within the operation's limit, validate; every refusal in the API's envelope with the
// documented message). Then the operation's handler, found by operationId in src/handlers/.
import { createGate, type OperationInfo, readDocument, sendError, sendOk } from '@marketplace/contract';
import express, { type NextFunction, type Request, type Response } from 'express';
import { type Caller, identify } from './auth.ts';
import type { Clock } from './clock.ts';
import { handlerModules } from './generated/handlers.ts';
import { type Ctx, type NotImplemented, notImplemented, type RawReply, type Refusal } from './handler.ts';
import { RateLimiter } from './rate-limit.ts';
import type { Store } from './store.ts';
import { testHelpers } from './test-helpers.ts';

export interface AppOptions {
  store: Store;
  clock: Clock;
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

export function createApp({ store, clock, testMode }: AppOptions): express.Express {
  const gate = createGate<Caller>({
    document: readDocument(),
    identify: (req) => identify(req, store, clock.now()),
    // count(req, res, op, caller): the general limit and the operations' rate limits that count
    // every request (op.rateLimits, with `limiter` and `rateLimited` of rate-limit.ts); answer the
    // 429 and return false. Until then nothing is counted here.
    validateResponses: testMode,
    unexpected: (err, req) => console.error(`${req.method} ${req.path} failed`, err),
  });
  const limiter = new RateLimiter();
  const handlers = new Map<string, AnyHandler>();
  for (const module of handlerModules)
    for (const [name, handler] of Object.entries(module))
      if (typeof handler === 'function' && handler !== notImplemented) handlers.set(name, handler as AnyHandler);

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(gate.guard);
  if (testMode) app.use(testHelpers(store, clock, limiter));
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
    const reply = await handler(context(req, res, op, gate.matcher.typedParams(op, req.path), gate.callerOf(res)));
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
  ): Ctx<never> {
    return {
      req,
      res,
      op,
      store,
      clock,
      limiter,
      now: clock.now(),
      ip: req.ip ?? '',
      caller,
      body: req.body ?? {},
      query: req.query ?? {},
      params,
    } as Ctx<never>;
  }
}
