// The whole request flow of the API, in one place for every host (ADR 0034), the way Prism's
// factory holds its order and its terminal choice: the reference server, the mock, the test
// helpers and a generated project each call `createApi` with their own parts, and a fix here
// reaches all of them, a team's project by a version bump. The order:
//
//   guard → before (docs, helpers, sandboxes, CORS) → gate (match, identify, permit, count, read
//   the body, type it, validate) → one terminal: dispatch by operationId, or forward (the mock's
//   Prism) → not implemented (404 like an unknown route) → refuse (documented answers, host
//   failures, 500)
//
// The route is matched once, by the gate: dispatch and the not-implemented policy use its match.
import express, {
  type ErrorRequestHandler,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { Json } from './document.ts';
import { sendError, sendNotFound, sendOk } from './envelope.ts';
import { createGate } from './gate.ts';
import type { OperationInfo } from './operation-index.ts';
import type { ApiLimits } from './operation-limits.ts';
import type { PermittedCaller } from './permission.ts';
import { settle } from './settle.ts';

export type { ApiLimits } from './operation-limits.ts';

/** What a handler answers, its operation's types erased: the typed `Reply<Id>` of each host fits. */
export type Answer =
  | { ok: true; value: unknown; raw?: undefined }
  | { ok: false; error: unknown; status?: number }
  | { ok: true; raw: { contentType: string; body: string } }
  | NotImplemented;

/** An answer for a case not written yet: answered as an unknown route (404 `Not found`). */
export interface NotImplemented {
  notImplemented: true;
}

/**
 * A handler not written yet: its operation answers as an unknown route before the gate looks at the
 * request (its permission, its body), so the conformance suite counts it as not implemented.
 */
export const notImplemented = (_ctx: unknown): NotImplemented => ({ notImplemented: true });

/** The typed dispatch: a handler per operationId, and the context each receives. */
export interface Dispatch<Caller, Ctx> {
  /**
   * The handlers by operationId (the host's typed table; a missing one, or `notImplemented`,
   * answers 404 like an unknown route).
   */
  handlers: object;
  /**
   * What a handler receives; path parameters typed as the document types them. `servesCached`: the
   * request is beyond a `serve-cached` rate limit (`update=1`), the handler answers from its cache.
   */
  context(
    req: Request,
    res: Response,
    op: OperationInfo,
    params: Record<string, string | number>,
    caller: Caller | undefined,
    servesCached: boolean,
  ): Ctx | Promise<Ctx>;
  /** After the handler, before its answer leaves (the server makes its shared-world writes visible). */
  answered?(ctx: Ctx, answer: Answer): void | Promise<void>;
}

export interface ApiOptions<Caller extends PermittedCaller, Ctx> {
  document: Json;
  /** Who calls (undefined: nobody the API knows), from the request's credentials. */
  identify: (req: Request, op: OperationInfo) => Caller | undefined | Promise<Caller | undefined>;
  /** Headers on every answer, the guard's refusals included (the mock says what it is). */
  answerHeaders?: Record<string, string>;
  /** Express's `trust proxy` (`req.ip` behind a proxy). */
  trustProxy?: string | boolean;
  /** Handlers mounted after the guard and before the gate, in order (CORS, docs, helpers, sandboxes). */
  before?: RequestHandler[];
  /**
   * The document's rate limits (the limiter's seam, `OperationLimits`): counted by the gate before
   * and once the body is read, then around the handler.
   */
  limits?: ApiLimits<Caller>;
  /**
   * The host's own admission of a permitted request, after its limits and before its body is read
   * (the mock's `Prefer` checks, the server's upload slots); it answers a refusal and says false.
   */
  admit?: (req: Request, res: Response, op: OperationInfo, caller: Caller | undefined) => boolean | Promise<boolean>;
  /** Bytes of body this caller may send to this operation; the operation's own limit by default. */
  bodyLimit?: (op: OperationInfo, caller: Caller | undefined) => number;
  /** Validates answers against the document too (test mode). */
  validateResponses?: boolean;
  /** The terminal: a typed dispatch by operationId ... */
  dispatch?: Dispatch<Caller, Ctx>;
  /** ... or a handler every admitted request goes to (the mock's Prism, the helpers' routes). */
  forward?: RequestHandler;
  /**
   * Error handlers for failures that are no refused request (a database away, a sandbox gone),
   * in order; what they pass on is reported to `unexpected` and answered 500.
   */
  failures?: ErrorRequestHandler[];
  /** A failure that is no refused request and no host failure (a bug): reported here, answered 500. */
  unexpected: (err: unknown, req: Request) => void;
}

/** The API as an Express application (no `listen`: tests start it on port 0). */
export function createApi<Caller extends PermittedCaller, Ctx = unknown>(
  options: ApiOptions<Caller, Ctx>,
): express.Express {
  const { dispatch, forward, limits, admit } = options;
  if (Boolean(dispatch) === Boolean(forward)) throw new Error('createApi: give either `dispatch` or `forward`');
  const handlers = dispatch ? handlerTable(dispatch.handlers) : undefined;
  const gate = createGate<Caller>({
    document: options.document,
    identify: options.identify,
    implemented: handlers && ((op) => handlers.has(op.operationId)),
    limits,
    count: admit,
    bodyLimit: options.bodyLimit,
    validateResponses: options.validateResponses,
    unexpected: options.unexpected,
  });

  const app = express();
  app.disable('x-powered-by');
  // No ETag: the document answers no operation with 304 (what a matching If-None-Match got), and
  // hashing each answer cost a validated read about 5 us (issue 35 item 6, ADR 0034).
  app.set('etag', false);
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy);
  const headers = options.answerHeaders;
  const steps: RequestHandler[] = [];
  if (headers)
    steps.push((_req: Request, res: Response, next: NextFunction) => {
      res.set(headers);
      next();
    });
  steps.push(gate.guard, ...(options.before ?? []), gate.admission(app));
  if (forward) steps.push(forward);
  if (dispatch && handlers) {
    /** The handler's answer, once the context is made: counted, kept, then sent. */
    const answerWith = (
      req: Request,
      res: Response,
      next: NextFunction,
      op: OperationInfo,
      handler: EdgeHandler<Ctx>,
      ctx: Ctx,
    ) => {
      settle(handler(ctx), next, (answer) => {
        // A refusal a rule counts (the login's `Invalid API key` per IP), counted before it is answered.
        const counted =
          'ok' in answer && !answer.ok ? limits?.answered?.(req, op, gate.callerOf(res), answer.error) : undefined;
        settle(counted, next, () =>
          settle(dispatch.answered?.(ctx, answer), next, () => {
            if ('notImplemented' in answer) return next();
            if (answer.ok && answer.raw) res.status(200).type(answer.raw.contentType).send(answer.raw.body);
            else if (answer.ok) sendOk(res, op.envelope, answer.value);
            else sendError(res, op.envelope, answer.error, answer.status ?? 300);
          }),
        );
      });
    };
    // Each part may answer at once or later: only a promise is waited for (settle.ts), so a request
    // nothing has to wait for is answered in the turn it arrived in.
    steps.push((req: Request, res: Response, next: NextFunction) => {
      const op = gate.operationOf(res);
      const handler = op && handlers.get(op.operationId);
      if (!op || !handler) return next();
      const caller = gate.callerOf(res);
      settle(limits?.servesCached?.(req, op, caller) ?? false, next, (servesCached) =>
        settle(dispatch.context(req, res, op, gate.paramsOf(res), caller, servesCached), next, (ctx) =>
          answerWith(req, res, next, op, handler, ctx),
        ),
      );
    });
  }
  // The steps before the not-found answer as one layer: each Express layer costs every request a
  // step of its router (a match, its parameters, a trace check).
  app.use(inSequence(steps));

  // One policy for "no handler": a handler that answered `notImplemented`, or a document operation
  // no terminal answered, gets the unknown route's 404.
  app.use((_req: Request, res: Response) => sendNotFound(res));
  app.use(gate.refuseDocumented);
  for (const failure of options.failures ?? []) app.use(failure);
  app.use(gate.refuse);
  return app;
}

type EdgeHandler<Ctx> = (ctx: Ctx) => Answer | Promise<Answer>;

/**
 * The host's typed table at run time: each handler was typed by its operation where it was
 * written, and the gate has checked the request against that operation's schemas, so this is the
 * one point where the operation's types are erased.
 */
function handlerTable<Ctx>(table: object): Map<string, EdgeHandler<Ctx>> {
  const handlers = new Map<string, EdgeHandler<Ctx>>();
  for (const [operationId, handler] of Object.entries(table))
    if (typeof handler === 'function' && handler !== notImplemented)
      handlers.set(operationId, handler as EdgeHandler<Ctx>);
  return handlers;
}

/**
 * Runs `steps` in order as one middleware, the way Express runs layers mounted at `/`: a step goes
 * on with `next()`, an error (`next(err)`, a throw, a rejected promise) leaves the sequence for the
 * error handlers, and `next()` past the last step goes on after the sequence.
 */
function inSequence(steps: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, out: NextFunction) => {
    let i = 0;
    const next = (error?: unknown) => {
      if (error && error !== 'route') return out(error);
      const step = steps[i++];
      if (!step) return out();
      try {
        const returned: unknown = step(req, res, next);
        if (returned instanceof Promise)
          returned.catch((rejected: unknown) => out(rejected || new Error('Rejected promise')));
      } catch (thrown) {
        out(thrown);
      }
    };
    next();
  };
}
