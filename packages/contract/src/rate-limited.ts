// The seed's 429 ("Limits"): envelope A with `Rate limit exceeded. Retry after N seconds.` and the
// four integer headers, whoever refuses: the server's counters, a route that knows an attempt's
// outcome, or a 429 asked for on purpose (on-purpose.ts) in the server and the mock alike.
import type { Response } from 'express';
import { sendError } from './envelope.ts';
import { rateLimited } from './messages.ts';

/** What the four headers of a refused request say. */
export interface RateLimitHeaders {
  /** The quota of the window. */
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
  /** Seconds to wait. */
  retryAfter: number;
}

/** Sets the rate-limit headers of a refused request. */
export function setRateLimitHeaders(res: Response, refusal: RateLimitHeaders): void {
  res.set({
    'X-RateLimit-Limit': String(refusal.limit),
    'X-RateLimit-Remaining': String(refusal.remaining),
    'X-RateLimit-Reset': String(refusal.reset),
    'Retry-After': String(refusal.retryAfter),
  });
}

/** Answers the seed's 429: the headers and the message. */
export function sendRateLimited(res: Response, refusal: RateLimitHeaders): void {
  setRateLimitHeaders(res, refusal);
  sendError(res, 'A', rateLimited(refusal.retryAfter), 429);
}
