// How long a 429 asks the client to wait: `Retry-After` (seconds or an HTTP date), else the
// window's end in `X-RateLimit-Reset` (Unix seconds). Both are the server's; Retry-After is
// preferred because it does not depend on the two clocks agreeing.

/** Seconds to wait before retrying, or undefined when the answer says nothing usable. */
export function retryDelay(headers: Headers, nowSeconds: number): number | undefined {
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null && retryAfter.trim() !== '') {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date / 1000 - nowSeconds);
  }
  const reset = Number(headers.get('x-ratelimit-reset'));
  if (headers.has('x-ratelimit-reset') && Number.isFinite(reset)) return Math.max(0, reset - nowSeconds);
  return undefined;
}

export interface RetryPolicy {
  /** Retries after the first attempt (default 3). */
  retries: number;
  /** The most time spent waiting across retries, in seconds (default 30): a longer wait is not made. */
  maxWaitSeconds: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, maxWaitSeconds: 30 };

/** Whether to wait `delay` seconds after `attempt` retries and `waited` seconds already spent. */
export function shouldRetry(policy: RetryPolicy, attempt: number, waited: number, delay: number | undefined): boolean {
  return delay !== undefined && attempt < policy.retries && waited + delay <= policy.maxWaitSeconds;
}
