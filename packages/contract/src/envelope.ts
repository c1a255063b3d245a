// The two envelopes of the seed ("Response envelopes") and the error answers every route shares.
import type { Response } from 'express';
import type { Envelope } from './operation-index.ts';

/** A success: envelope A `{err: false, success: true, content}` or B `{status: 'success', data}`. */
export function sendOk(res: Response, envelope: Envelope, payload: unknown): void {
  res
    .status(200)
    .json(envelope === 'B' ? { status: 'success', data: payload } : { err: false, success: true, content: payload });
}

/**
 * A failure. Business errors are HTTP 300 in the operation's envelope (B: `{status: 'error',
 * message}`, the document's choice); 403/404/429/500 are envelope A on every route.
 */
export function sendError(res: Response, envelope: Envelope, error: unknown, status = 300): void {
  if (envelope === 'B' && status === 300 && typeof error === 'string') {
    res.status(300).json({ status: 'error', message: error });
    return;
  }
  res.status(status).json({ err: true, success: false, content: error });
}
