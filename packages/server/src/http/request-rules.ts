// The rules a request passes before any handler runs, shared by the reference server and the mock
// (packages/mock): how the body is read, which operation the request addresses, who may call it,
// how a form body is typed, and which documented message a request that breaks the document gets.
// One copy of these rules means a frontend built against the mock meets the errors the API sends.
import type { Express, Request } from 'express';
import { NOT_FOUND } from '../domain/messages.ts';
import { coerceFormValue, derefSchema, foldExplodedObjects } from './form-body.ts';
import { type Envelope, indexOperations, type OperationInfo } from './operation-index.ts';
import { INVALID_BODY, validationMessage } from './validation-message.ts';

export { FORBIDDEN, INTERNAL_ERROR, NOT_FOUND } from '../domain/messages.ts';
export { FORM_DEPTH, FORM_PARAMETERS, guardBody, readBody } from './body-reader.ts';
export { sendError, sendOk } from './envelope.ts';
export type { Envelope, ErrorMessage, OperationInfo, Permission } from './operation-index.ts';
export { type PermittedCaller, permits } from './permission.ts';
export { RouteMatcher } from './route-matcher.ts';
export { INVALID_BODY, type ValidationIssue, validationMessage } from './validation-message.ts';
export { documentValidators } from './validators.ts';

// biome-ignore lint/suspicious/noExplicitAny: the bundled OpenAPI document is plain JSON
type Json = any;

// The seed's double descriptions whose success is a oneOf of both envelopes (ADR 0003).
const ENVELOPE_OVERRIDES = { getInfosPricesBuyorderAndLowestSales: 'B' } as const;

/** Every operation of the document by `METHOD path`, with the envelope each answers in. */
export const documentOperations = (document: Json): Map<string, OperationInfo> =>
  indexOperations(document, ENVELOPE_OVERRIDES);

/** Query strings as the API reads them: nested keys (`filters[0][name]`). */
export function useRequestParsing(app: Express): void {
  app.set('query parser', 'extended');
}

/**
 * Readies a parsed body for validation: a form body gets the types the operation's schema gives
 * its fields, and a POST that sends nothing is validated as an empty JSON object.
 */
export function prepareBody(req: Request, op: OperationInfo, document: Json): void {
  const content = document.paths[op.path]?.[op.method.toLowerCase()]?.requestBody?.content;
  if (req.is('application/x-www-form-urlencoded') && req.body && typeof req.body === 'object') {
    const schema = derefSchema(content?.['application/x-www-form-urlencoded']?.schema, document);
    req.body = coerceFormValue(foldExplodedObjects({ ...req.body }, schema, document), schema, document);
  } else if (content?.['application/json'] && isEmptyRequest(req)) {
    // A POST that sends nothing lacks every field; it is not a body of an unsupported type, so a
    // missing field gets its documented message.
    req.headers['content-type'] = 'application/json';
    req.body = {};
  }
}

/** A request without a body and without a content type (`curl -X POST` with no data). */
const isEmptyRequest = (req: Request): boolean =>
  !req.headers['content-type'] && !req.headers['transfer-encoding'] && Number(req.headers['content-length'] ?? 0) === 0;

export interface ErrorAnswer {
  status: number;
  envelope: Envelope;
  content: unknown;
}

interface HttpError {
  status?: number;
  type?: string;
  errors?: { path: string; errorCode?: string; message?: string }[];
}

/** Whether the error is a client that went away while sending: nobody is left to answer. */
export const isAbortedRequest = (err: unknown): boolean => (err as HttpError | undefined)?.type === 'request.aborted';

/**
 * The answer to a body parser or validator error (`op` is the operation the request addressed),
 * or undefined when the error is none of those: an unexpected failure.
 */
export function requestErrorAnswer(err: unknown, op: OperationInfo | undefined): ErrorAnswer | undefined {
  const e = (err ?? {}) as HttpError;
  const envelope = op?.envelope ?? 'A';
  // Every refusal of the body reader (too large, malformed, nested deeper than FORM_DEPTH, more
  // than FORM_PARAMETERS fields, an unknown type, encoding or charset) is the documented
  // `Invalid request body`; the reader itself closes the connection of a body it left unread.
  const badBody = typeof e.type === 'string' && (e.status === 400 || e.status === 413 || e.status === 415);
  if (badBody || e.status === 415) return { status: 300, envelope, content: INVALID_BODY };
  if (e.status === 400 && Array.isArray(e.errors) && op) {
    const { message, status, type } = validationMessage(e.errors, op.errorMessages);
    // Operations whose errors are objects (`{type, message}`, the deposit trade status) get one.
    return { status, envelope: status === 300 ? envelope : 'A', content: type ? { type, message } : message };
  }
  if (e.status === 404 || e.status === 405) return { status: 404, envelope: 'A', content: NOT_FOUND };
  return undefined;
}
