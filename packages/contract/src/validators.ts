// Request (and in test mode response) validation by express-openapi-validator, on the operation
// the gate matched: the route is matched once. The validator would find a request's operation
// itself, trying every path of its document with path-to-regexp on every request
// (openapi.metadata.js, lookupRoute): with ~100 paths that was the largest item of a simple GET's
// profile after the Express router. Its metadata step is the one part replaced here: given the
// gate's operation, it sets what the validator's own lookup would have set (`req.openapi`: the
// route, its schema, the decoded path parameters). The request check is ours too
// (request-validator.ts: prepared once per operation, with the validator's Ajv, schemas and
// errors); the response check (test mode) runs as the validator builds it. The steps run in a row
// here, with no Express router around them.
//
// The validator builds one schema per operation (requests) and per documented response, each
// carrying the document's whole `paths` and `components` for its `$ref`s; Ajv scans every schema it
// is given for `$id`s, so each first request of an operation walked the whole document several
// times: about 150 ms of CPU per operation, some 15 s over a conformance run against a fresh
// server. The validator works on its own copy of the document (index.js clones `apiSpec`): the
// entries of that copy's `paths` and `components` are hidden from the scan (`hideFromIdScan`), and
// `$ref`s still resolve, by property access.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { ResponseValidator } from 'express-openapi-validator/dist/middlewares/openapi.response.validator.js';
import type { Json } from './document.ts';
import type { OperationInfo } from './operation-index.ts';
import { requestValidation } from './request-validator.ts';
import { type LibraryResponseValidator, sharedResponseValidators } from './response-validator.ts';
import type { RouteMatch } from './route-matcher.ts';

/** A route of the validator's context (express-openapi-validator's `RouteMetadata`). */
interface ValidatorRoute {
  method: string;
  expressRoute: string;
  openApiRoute: string;
}

/** What the validator's metadata step is built from once its document is loaded (`OpenApiContext`). */
interface ValidatorContext {
  apiDoc: Json;
  routes: ValidatorRoute[];
  serial: number;
}

/**
 * The validator instance `middleware()` last built, with the methods that build its steps' inner
 * middlewares once its document is loaded.
 */
interface Validator {
  metadataMiddleware(context: ValidatorContext, responseApiDoc: Json): RequestHandler;
  requestValidationMiddleware(apiDoc: Json): RequestHandler;
  responseValidationMiddleware(apiDoc: Json, serial: number): RequestHandler;
  /** The Ajv options the validator gives its steps (`AjvOptions`: `request`, `response`). */
  ajvOpts: { request: Json; response: Json };
  options: { validateResponses: Json };
}

/**
 * Steps of the validator that do nothing here, each a promise turn per request: the security check
 * (off: the gate checks permissions) and the path parameters of Express routes (`app.param`: no
 * route of the API is an Express route, the gate's match gives them). The multipart step is not
 * built at all (`fileUploader: false`): the gate's body reader refuses a multipart body (415,
 * `Invalid request body`) before it could reach the validator, and no operation takes one.
 */
const UNUSED_STEPS = new Set(['securityMiddleware', 'pathParamsMiddleware']);

/**
 * The validators built for a document, by whether they check responses. They hold no state of a
 * server: servers of one process on one document (sandboxes, issue 25) share them, since building
 * them (Ajv compiling every schema) costs about a second.
 */
const built = new WeakMap<object, Map<boolean, RequestHandler>>();

/** Validates a request the gate admitted (`res.locals.operation`) against its operation. */
export function documentValidators(document: Json, validateResponses: boolean): RequestHandler {
  const byMode = built.get(document) ?? new Map<boolean, RequestHandler>();
  built.set(document, byMode);
  const handler = byMode.get(validateResponses) ?? buildValidators(document, validateResponses);
  byMode.set(validateResponses, handler);
  return handler;
}

function buildValidators(document: Json, validateResponses: boolean): RequestHandler {
  const steps = (
    OpenApiValidator.middleware({
      apiSpec: document,
      validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false },
      validateResponses,
      validateSecurity: false,
      validateFormats: true,
      fileUploader: false,
    }) as unknown as RequestHandler[]
  ).filter((step) => !UNUSED_STEPS.has(step.name));
  // The instance just built (index.js keeps it as `middleware._oav`). Each of its steps waits for
  // the loaded document (a promise turn per step and request) and builds its inner middleware on
  // the first request; the builders are wrapped here to keep what they build, and once every inner
  // middleware is there the steps are skipped for them: the same checks, called in a row.
  const validator = (OpenApiValidator.middleware as unknown as { _oav: Validator })._oav;
  const inner: { metadata?: RequestHandler; request?: RequestHandler; response?: RequestHandler } = {};
  validator.metadataMiddleware = (context, responseApiDoc) => {
    inner.metadata = matchedMetadata(context, responseApiDoc);
    return inner.metadata;
  };
  // The request step is ours (request-validator.ts), on the validator's prepared document and
  // options; the validator's own step is built only for an operation ours leaves to it.
  const buildRequest = validator.requestValidationMiddleware.bind(validator);
  validator.requestValidationMiddleware = (apiDoc) => {
    inner.request = requestValidation(apiDoc, validator.ajvOpts.request, () => buildRequest(apiDoc));
    return inner.request;
  };
  // The response step is the validator's, with its validators kept per operation: the library
  // keys them by the request's Content-Type too and compiles every response schema of the
  // operation again for each new one (a form body, a JSON body, none), a first-use cost paid
  // several times per operation by a conformance run. The request's type plays no part in them.
  // They are compiled against one shared root (response-validator.ts), not one root per response.
  validator.responseValidationMiddleware = (apiDoc, serial) => {
    // Without Ajv's optimising pass over the generated code: compiling every response schema of the
    // document took about 0.75 s of CPU instead of 1.1 s, and validating its examples no longer than
    // before (issue 32). The pass changes how the code reads, not what it accepts.
    const responses = new ResponseValidator(
      apiDoc,
      { ...validator.ajvOpts.response, code: { optimize: false } },
      validator.options.validateResponses,
      serial,
    );
    const build = responses._getOrBuildValidator.bind(responses);
    const shared = sharedResponseValidators(responses as unknown as LibraryResponseValidator);
    // The library declares one level (`{[key]: ValidateFunction}`); `_validate` reads two (status, media type).
    type Built = ReturnType<typeof build>;
    const byOperation = new Map<string, Built>();
    responses._getOrBuildValidator = (req: Request & { openapi: Json }, schemas: Json) => {
      const key = `${req.method}-${req.openapi.expressRoute}`;
      const kept = byOperation.get(key) ?? (shared(req, schemas) as Built | undefined) ?? build(req, schemas);
      byOperation.set(key, kept);
      return kept;
    };
    inner.response = responses.validate();
    return inner.response;
  };
  let direct: RequestHandler[] | undefined;
  // Without response validation, the two inner steps in one call: no chain to walk per request.
  let checked: RequestHandler | undefined;
  const ready = (): RequestHandler[] | undefined => {
    const { metadata, request, response } = inner;
    if (metadata && request && (response || !validateResponses))
      direct = response ? [metadata, request, response] : [metadata, request];
    if (direct && !response && metadata && request)
      checked = (req, res, next) =>
        metadata(req, res, (error?: unknown) => (error ? next(error) : request(req, res, next)));
    return direct;
  };
  return (req: Request, res: Response, next: NextFunction) => {
    if (checked) {
      try {
        checked(req, res, next);
      } catch (thrown) {
        next(thrown); // a step's refusal thrown as the validator throws it (415, reserved characters)
      }
      return;
    }
    const chain = direct ?? ready() ?? steps;
    let i = 0;
    const step = (error?: unknown): void => {
      const handler = chain[i++];
      if (error || !handler) {
        next(error);
        return;
      }
      try {
        void handler(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

/**
 * The validator's metadata step on the gate's match: the validator's route of the operation, by
 * `METHOD path`, and the gate's values of the path parameters decoded as the validator's own
 * lookup decodes them (a malformed escape is its 400, which the gate answers as documented).
 */
function matchedMetadata(context: ValidatorContext, responseApiDoc: Json): RequestHandler {
  // Built once the validator has loaded and prepared its copies, before it builds any schema.
  hideFromIdScan(context.apiDoc);
  if (responseApiDoc) hideFromIdScan(responseApiDoc);
  const routes = new Map<string, { route: ValidatorRoute; names: string[] }>();
  for (const route of context.routes) {
    const names = [...route.openApiRoute.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    routes.set(`${route.method.toUpperCase()} ${route.openApiRoute}`, { route, names });
  }
  // Each operation's route, found once (the key is a string built per lookup).
  const byOperation = new WeakMap<OperationInfo, { route: ValidatorRoute; names: string[] } | null>();
  const routeOf = (op: OperationInfo) => {
    let found = byOperation.get(op);
    if (found === undefined) {
      found = routes.get(`${op.method} ${op.path}`) ?? null;
      byOperation.set(op, found);
    }
    return found;
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const op: OperationInfo | undefined = res.locals.operation;
    const found = op && routeOf(op);
    if (!op || !found) return next(); // no operation of this document: nothing to validate
    const pathParams: Record<string, string> = {};
    if (found.names.length > 0) {
      const values: string[] = (res.locals.route as RouteMatch | undefined)?.values ?? [];
      try {
        found.names.forEach((name, n) => {
          const raw = values[n] ?? '';
          pathParams[name] = raw.includes('%') ? decodeURIComponent(raw) : raw; // no escape, nothing to decode
        });
      } catch {
        return next(new OpenApiValidator.error.BadRequest({ path: req.path, message: "malformed uri'" }));
      }
    }
    const method = op.method.toLowerCase();
    const openapi: Json = {
      expressRoute: found.route.expressRoute,
      openApiRoute: found.route.openApiRoute,
      pathParams,
      schema: context.apiDoc.paths[op.path][method],
      serial: context.serial,
    };
    if (responseApiDoc) openapi._responseSchema = responseApiDoc.paths[op.path]?.[method];
    (req as Request & { openapi: Json }).openapi = openapi;
    req.params = pathParams;
    next();
  };
}

/**
 * Makes the entries of a document's `paths` and `components` non-enumerable: Ajv's scan of a schema
 * for `$id`s (json-schema-traverse, every enumerable key) then skips them in the schemas the
 * validator builds, while a `$ref` (`#/components/schemas/Listing`) still reads them. A document
 * with an identifier for the scan to find (`$id`, `$anchor`; the bundled one has none) is left as
 * it is. Only these two levels are hidden: the validator has found its routes in `paths` already,
 * and it still registers every schema of `components.schemas` (enumerable) with each Ajv it creates.
 */
function hideFromIdScan(apiDoc: Json): void {
  if (/"\$(id|anchor|dynamicAnchor)":/.test(JSON.stringify(apiDoc))) return;
  for (const part of [apiDoc.paths, apiDoc.components])
    for (const key of Object.keys(part ?? {})) Object.defineProperty(part, key, { enumerable: false });
}
