// The seed's 429 ("Limits"): envelope A with `Rate limit exceeded. Retry after N seconds.` and the
// four integer headers, whether the pipeline or a route (which knows an attempt's outcome) refuses.
import type { Response } from 'express';
import { rateLimited } from '../domain/messages.ts';
import { fail, type Result } from '../domain/tx.ts';
import type { Verdict } from '../rate-limit.ts';

/** Sets the rate-limit headers of a refused request. */
export function setRateLimitHeaders(res: Response, verdict: Verdict): void {
  res.set({
    'X-RateLimit-Limit': String(verdict.limit),
    'X-RateLimit-Remaining': String(verdict.remaining),
    'X-RateLimit-Reset': String(verdict.reset),
    'Retry-After': String(verdict.retryAfter),
  });
}

/** A handler's 429: the headers on `res`, the message as the result. */
export function rateLimitedReply(res: Response, verdict: Verdict): Result<never> {
  setRateLimitHeaders(res, verdict);
  return fail(rateLimited(verdict.retryAfter), 429);
}
