// What an answer failed on purpose (on-purpose.ts) looks like over HTTP, checked on each program
// that installs the layer: the reference server (its http/on-purpose.test.ts) and the mock (its
// on-purpose.test.ts).
import { expect } from 'vitest';

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];

/** `Prefer: code=429`'s answer: the API's 429, its message and four integer rate-limit headers, Retry-After 1. */
export async function expectForced429(res: Response): Promise<void> {
  expect([res.status, await res.json()]).toEqual([
    429,
    { err: true, success: false, content: 'Rate limit exceeded. Retry after 1 seconds.' },
  ]);
  for (const header of RATE_LIMIT_HEADERS) expect(res.headers.get(header), header).toMatch(/^\d+$/);
  expect(res.headers.get('retry-after')).toBe('1');
}

/** `Prefer: code=500`'s answer: the API's 500. */
export async function expectForced500(res: Response): Promise<void> {
  expect([res.status, await res.json()]).toEqual([
    500,
    { err: true, success: false, content: 'Internal server error' },
  ]);
}
