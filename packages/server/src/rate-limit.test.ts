import { describe, expect, it } from 'vitest';
import { createTestClock } from './clock.ts';
import { RateLimiter } from './rate-limit.ts';

const base = { now: () => 1000, nowMs: () => 1_000_000 };

describe('RateLimiter', () => {
  it('allows up to the limit in a window, then tells when to retry', () => {
    const clock = createTestClock(base);
    const limiter = new RateLimiter(clock);
    expect(limiter.hit('k', 2, 60)).toEqual({ allowed: true, limit: 2, remaining: 1, reset: 1060, retryAfter: 0 });
    expect(limiter.hit('k', 2, 60).remaining).toBe(0);
    clock.advance(15);
    expect(limiter.hit('k', 2, 60)).toEqual({ allowed: false, limit: 2, remaining: 0, reset: 1060, retryAfter: 45 });
    expect(limiter.hit('other', 2, 60).allowed).toBe(true);
  });

  it('opens a new window when the clock passes the reset', () => {
    const clock = createTestClock(base);
    const limiter = new RateLimiter(clock);
    limiter.hit('k', 1, 300);
    clock.advance(300);
    expect(limiter.hit('k', 1, 300).allowed).toBe(true);
  });

  it('forgets everything on clear', () => {
    const limiter = new RateLimiter(createTestClock(base));
    limiter.hit('k', 1, 60);
    limiter.clear();
    expect(limiter.hit('k', 1, 60).allowed).toBe(true);
  });
});
