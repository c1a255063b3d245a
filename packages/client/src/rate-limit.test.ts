import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, retryDelay, shouldRetry } from './rate-limit.ts';

describe('retryDelay', () => {
  const now = 1_800_000_000;
  it('reads Retry-After in seconds', () => {
    expect(retryDelay(new Headers({ 'retry-after': '42' }), now)).toBe(42);
  });
  it('reads Retry-After as an HTTP date against the given clock', () => {
    const at = new Date((now + 90) * 1000).toUTCString();
    expect(retryDelay(new Headers({ 'retry-after': at }), now)).toBe(90);
  });
  it('falls back to X-RateLimit-Reset (Unix seconds) when Retry-After is absent or unreadable', () => {
    expect(retryDelay(new Headers({ 'x-ratelimit-reset': String(now + 7) }), now)).toBe(7);
    expect(retryDelay(new Headers({ 'retry-after': 'soon', 'x-ratelimit-reset': String(now + 3) }), now)).toBe(3);
  });
  it('never answers a negative wait, and nothing when the answer says nothing', () => {
    expect(retryDelay(new Headers({ 'x-ratelimit-reset': String(now - 10) }), now)).toBe(0);
    expect(retryDelay(new Headers(), now)).toBeUndefined();
  });
});

describe('shouldRetry', () => {
  const policy = { retries: 2, maxWaitSeconds: 10 };
  it('retries while both the count and the waiting budget allow', () => {
    expect(shouldRetry(policy, 0, 0, 10)).toBe(true);
    expect(shouldRetry(policy, 1, 4, 6)).toBe(true);
  });
  it('stops at the retry count, beyond the budget, or without a delay', () => {
    expect(shouldRetry(policy, 2, 0, 1)).toBe(false);
    expect(shouldRetry(policy, 1, 5, 6)).toBe(false);
    expect(shouldRetry(policy, 0, 0, undefined)).toBe(false);
  });
  it('defaults to 3 retries within 30 seconds', () => {
    expect(DEFAULT_RETRY).toEqual({ retries: 3, maxWaitSeconds: 30 });
  });
});
