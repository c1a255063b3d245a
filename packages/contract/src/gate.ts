// The gate every request of the API passes before it is answered, mounted by the reference server
// and by the mock alike: match the document operation, identify the caller and check the
// operation's permission level, count it (rate limits), read the body (never past the operation's
// limit, and only now: a caller refused so far costs no body), type a form body by the schema,
// validate against the document, refuse text no store can keep (text-rule.ts). Whatever it
// refuses leaves in the API's envelope with the documented message. What identifies a caller and
// what counts is the mounting side's.
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { guardBody, readBody } from './body-reader.ts';
import type { Json } from './document.ts';
import { sendError, sendNotFound } from './envelope.ts';
import { FORBIDDEN, INTERNAL_ERROR } from './messages.ts';
import type { OperationInfo } from './operation-index.ts';
import type { ApiLimits } from './operation-limits.ts';
import { type PermittedCaller, permits } from './permission.ts';
import { refuseMalformed } from './protocol-errors.ts';
import {
  documentOperations,
  isAbortedRequest,
  prepareBody,
  requestErrorAnswer,
  useRequestParsing,
} from './request-rules.ts';
import { RouteMatcher } from './route-matcher.ts';
import { settle } from './settle.ts';
import { unstorableTextMessage } from './text-rule.ts';
import { documentValidators } from './validators.ts';

export interface GateOptions<Caller extends PermittedCaller> {
  document: Json;
  /** Who calls (undefined: nobody the API knows), from the request's credentials. */
  identify: (req: Request, op: OperationInfo) => Caller | undefined | Promise<Caller | undefined>;
  /**
   * The document's rate limits (operation-limits.ts), counted here: before the body is read, and
   * once it is (the rules keyed by the API key a body sends), before it is validated.
   */
  limits?: ApiLimits<Caller>;
  /**
   * Admits a permitted request within its rate limits, or answers it itself and says false (the
   * host's own admission: the server's anonymous uploads). Runs before the body is read.
   */
  count?: (req: Request, res: Response, op: OperationInfo, caller: Caller | undefined) => boolean | Promise<boolean>;
  /** Whether an operation has a handler; one without answers as an unknown route before anything else. */
  implemented?: (op: OperationInfo) => boolean;
  /** Bytes of body this caller may send to this operation; the operation's own limit by default. */
  bodyLimit?: (op: OperationInfo, caller: Caller | undefined) => number;
  /** Validates answers against the document too (test mode). */
  validateResponses?: boolean;
  /** A failure that is no refused request (a bug): reported here, answered 500. */
  unexpected: (err: unknown, req: Request) => void;
}

export interface Gate<Caller> {
  operations: Map<string, OperationInfo>;
  matcher: RouteMatcher;
  /**
   * The first middleware of `app`, before anything that might read a body: nothing of a body is
   * read before the gate's reader, and an answer given before it cuts the body (body-reader.ts).
   * It refuses what Node lets through but the document does not (refuseMalformed).
   */
  guard: RequestHandler;
  /**
   * Readies `app` for the gate (its query parser) and gives its admission, validation and text rule
   * as one handler: what comes after it sees only requests the document admits.
   */
  admission(app: Express): RequestHandler;
  /** An error handler answering refused requests as documented; it passes any other error on. */
  refuseDocumented: ErrorRequestHandler;
  /** The last error handler of `app`: documented answers for refused requests, 500 for the rest. */
  refuse: ErrorRequestHandler;
  /** The operation a request that passed the gate addresses. */
  operationOf(res: Response): OperationInfo | undefined;
  /** The caller `identify` found for a request that passed the gate. */
  callerOf(res: Response): Caller | undefined;
  /** The path parameters of a request that passed the gate, typed as the document types them. */
  paramsOf(res: Response): Record<string, string | number>;
}

/** The operation a request that passed the gate addresses (for a terminal that forwards it). */
export const operationOf = (res: Response): OperationInfo | undefined => res.locals.operation;

export function createGate<Caller extends PermittedCaller>(options: GateOptions<Caller>): Gate<Caller> {
  const { document, limits } = options;
  const operations = documentOperations(document);
  const matcher = new RouteMatcher(operations.values());
  const callerOf = (res: Response): Caller | undefined => res.locals.caller;

  // Admission in the request's order. Each host's part may answer at once or later (a database
  // lookup): a value that is there is used at once and only a promise is waited for, so a request
  // nothing has to wait for takes no promise turn on its way in (an `await` takes one per step).
  function admit(req: Request, res: Response, next: NextFunction): void {
    // The one match of the route: validation and dispatch use it (res.locals.route).
    const found = matcher.find(req.method, req.path);
    const op = found?.info;
    // A refusal here leaves the body unread, and its answer cuts it (guardBody).
    if (!op || (options.implemented && !options.implemented(op))) {
      sendNotFound(res);
      return;
    }
    res.locals.operation = op;
    res.locals.route = found;
    settle(options.identify(req, op), next, (caller) => {
      if (!permits(op.permission, caller)) return sendError(res, 'A', FORBIDDEN, 403);
      res.locals.caller = caller;
      settle(limits?.admit ? limits.admit(req, res, op, caller) : true, next, (withinLimits) => {
        if (!withinLimits) return;
        settle(options.count ? options.count(req, res, op, caller) : true, next, (counted) => {
          if (counted) readAdmitted(req, res, next, op, caller);
        });
      });
    });
  }

  /** Reads the body of an admitted request, up to the operation's limit, and readies it for validation. */
  function readAdmitted(req: Request, res: Response, next: NextFunction, op: OperationInfo, caller?: Caller): void {
    const prepared = (error?: unknown) => {
      if (error) return next(error);
      prepareBody(req, op, document);
      if (!limits?.admitBody) return next();
      settle(limits.admitBody(req, res, op, caller), next, (admitted) => {
        if (admitted) next();
      });
    };
    const limit = op.bodyLimit === undefined ? undefined : (options.bodyLimit?.(op, caller) ?? op.bodyLimit);
    readBody(limit, req, res, prepared);
  }

  /** Answers a refused request as documented (or nobody, for a client gone); false for any other error. */
  function answerRefused(err: unknown, req: Request, res: Response): boolean {
    if (isAbortedRequest(err)) return true;
    // A request refused before its operation was matched (none is today): match it here.
    const answer = requestErrorAnswer(err, operationOf(res) ?? matcher.match(req.method, req.path));
    if (!answer) return false;
    sendError(res, answer.envelope, answer.content, answer.status);
    return true;
  }

  return {
    operations,
    matcher,
    operationOf,
    callerOf,
    paramsOf: (res) => (res.locals.route ? matcher.typed(res.locals.route) : {}),
    guard(req: Request, res: Response, next: NextFunction) {
      guardBody(req, res);
      // A request HTTP parsers answer bare gets the document's answer here (protocol-errors.ts).
      if (!refuseMalformed(req, res)) next();
    },
    admission(app) {
      useRequestParsing(app);
      const validate = documentValidators(document, options.validateResponses ?? false);
      // After the schema's checks (their messages come first), the document's text rule.
      const textRule = (req: Request, res: Response, next: NextFunction) => {
        const refusal = unstorableTextMessage(req);
        if (refusal === undefined) return next();
        sendError(res, operationOf(res)?.envelope ?? 'A', refusal, 300);
      };
      // Admission, validation and the text rule in a row, as one step: each Express layer costs
      // every request a step of its router.
      return (req: Request, res: Response, next: NextFunction) =>
        admit(req, res, (admitError?: unknown) => {
          if (admitError) return next(admitError);
          validate(req, res, (invalid?: unknown) => (invalid ? next(invalid) : textRule(req, res, next)));
        });
    },
    refuseDocumented(err: unknown, req: Request, res: Response, next: NextFunction) {
      if (!answerRefused(err, req, res)) next(err);
    },
    refuse(err: unknown, req: Request, res: Response, _next: NextFunction) {
      if (answerRefused(err, req, res)) return;
      options.unexpected(err, req);
      if (!res.headersSent) sendError(res, 'A', INTERNAL_ERROR, 500);
    },
  };
}
