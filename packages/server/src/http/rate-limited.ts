// A route's 429 (the seed's "Limits"): a route that knows an attempt's outcome refuses with the
// contract's headers and message, as the pipeline does (@marketplace/contract's sendRateLimited).
import { setRateLimitHeaders } from '@marketplace/contract';
import type { Response } from 'express';
import { rateLimited } from '../domain/messages.ts';
import { fail, type Result } from '../domain/tx.ts';
import type { Verdict } from '../rate-limit.ts';

/** A handler's 429: the headers on `res`, the message as the result. */
export function rateLimitedReply(res: Response, verdict: Verdict): Result<never, ReturnType<typeof rateLimited>> {
  setRateLimitHeaders(res, verdict);
  return fail(rateLimited(verdict.retryAfter), 429);
}
