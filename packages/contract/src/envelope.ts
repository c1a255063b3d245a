// The two envelopes of the seed ("Response envelopes") and the error answers every route shares.
import type { Response } from 'express';
import { NOT_FOUND } from './messages.ts';
import type { Envelope } from './operation-index.ts';

/** A success: envelope A `{err: false, success: true, content}` or B `{status: 'success', data}`. */
export function sendOk(res: Response, envelope: Envelope, payload: unknown): void {
  sendJson(
    res,
    200,
    envelope === 'B' ? { status: 'success', data: payload } : { err: false, success: true, content: payload },
  );
}

/**
 * A failure. Business errors are HTTP 300 in the operation's envelope (B: `{status: 'error',
 * message}`, the document's choice); 403/404/429/500 are envelope A on every route.
 */
export function sendError(res: Response, envelope: Envelope, error: unknown, status = 300): void {
  if (envelope === 'B' && status === 300 && typeof error === 'string')
    sendJson(res, 300, { status: 'error', message: error });
  else sendJson(res, status, { err: true, success: false, content: error });
}

/**
 * An envelope as JSON, what `res.json` sends (the API's apps have no ETag, no JSON settings), without
 * its content-type parsing and formatting on every answer (a few µs of the bench's read). Where the
 * response validator (test mode) has hooked `res.json` on the response, it goes through it.
 */
function sendJson(res: Response, status: number, envelope: object): void {
  if (Object.hasOwn(res, 'json')) {
    res.status(status).json(envelope);
    return;
  }
  const body = JSON.stringify(envelope);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  if (res.req.method === 'HEAD') res.end();
  else res.end(body);
}

/**
 * 404 `Not found` in envelope A, the one answer of an unknown route and of an operation without a
 * handler. Written as a string, so that the response validation (test mode) lets it be: no
 * operation documents a 404 of its own, and the validator would turn the answer into a 500.
 */
export function sendNotFound(res: Response): void {
  res
    .status(404)
    .type('application/json')
    .send(JSON.stringify({ err: true, success: false, content: NOT_FOUND }));
}
