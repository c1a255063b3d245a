// Request (and in test mode response) validation by express-openapi-validator, one instance per
// first path segment (`/item/...`, `/user/...`). The validator finds a request's operation by
// trying every path of its document in turn, so a document cut by segment makes that search
// several times shorter; every instance sees all the components, so the schemas are the same.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Json } from './document.ts';
import { cacheValidatorRouteRegexps } from './route-regexp-cache.ts';

const segmentOf = (path: string): string => path.split('/')[1] ?? '';

/**
 * The validators built for a document, by whether they check responses. They hold no state of a
 * server: servers of one process on one document (sandboxes, issue 25) share them, since building
 * them (Ajv compiling every schema) costs about a second.
 */
const built = new WeakMap<object, Map<boolean, RequestHandler>>();

/** One validator per first path segment, dispatched by the request's path. */
export function documentValidators(document: Json, validateResponses: boolean): RequestHandler {
  const byMode = built.get(document) ?? new Map<boolean, RequestHandler>();
  built.set(document, byMode);
  const handler = byMode.get(validateResponses) ?? buildValidators(document, validateResponses);
  byMode.set(validateResponses, handler);
  return handler;
}

function buildValidators(document: Json, validateResponses: boolean): RequestHandler {
  cacheValidatorRouteRegexps();
  const bySegment = new Map<string, express.Router>();
  const segments = new Set(Object.keys(document.paths).map(segmentOf));
  for (const segment of segments) {
    const spec = structuredClone(document);
    spec.paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => segmentOf(path) === segment));
    const router = express.Router();
    router.use(
      OpenApiValidator.middleware({
        apiSpec: spec,
        validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false },
        validateResponses,
        validateSecurity: false,
        validateFormats: true,
      }),
    );
    bySegment.set(segment, router);
  }
  return (req: Request, res: Response, next: NextFunction) => {
    const router = bySegment.get(segmentOf(req.path));
    if (router) router(req, res, next);
    else next();
  };
}
