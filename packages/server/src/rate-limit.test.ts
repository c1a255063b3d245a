import { describe, expect, it } from 'vitest';
import { createTestClock } from './clock.ts';
import { RateLimiter } from './rate-limit.ts';

const base = { now: () => 1000, nowMs: () => 1_000_000 };

describe('RateLimiter', () => {
  it('allows up to the limit in a window, then tells when to retry', async () => {
    const clock = createTestClock(base);
    const limiter = new RateLimiter(clock);
    expect(await limiter.hit('k', 2, 60)).toEqual({
      allowed: true,
      limit: 2,
      remaining: 1,
      reset: 1060,
      retryAfter: 0,
    });
    expect((await limiter.hit('k', 2, 60)).remaining).toBe(0);
    await clock.advance(15);
    expect(await limiter.hit('k', 2, 60)).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      reset: 1060,
      retryAfter: 45,
    });
    expect((await limiter.hit('other', 2, 60)).allowed).toBe(true);
  });

  it('opens a new window when the clock passes the reset', async () => {
    const clock = createTestClock(base);
    const limiter = new RateLimiter(clock);
    await limiter.hit('k', 1, 300);
    await clock.advance(300);
    expect((await limiter.hit('k', 1, 300)).allowed).toBe(true);
  });

  it('forgets everything on clear', async () => {
    const limiter = new RateLimiter(createTestClock(base));
    await limiter.hit('k', 1, 60);
    await limiter.clear();
    expect((await limiter.hit('k', 1, 60)).allowed).toBe(true);
  });

  it('starts afresh when the clock is moved back before the window', async () => {
    const clock = createTestClock(base);
    const limiter = new RateLimiter(clock);
    await clock.advance(3600);
    await limiter.hit('k', 1, 300);
    clock.reset();
    expect(await limiter.hit('k', 1, 300)).toMatchObject({ allowed: true, reset: 1300 });
  });

  it('drops expired windows once it holds more than its maximum', async () => {
    const clock = createTestClock(base);
    const limiter = new RateLimiter(clock, { maxWindows: 3 });
    for (const key of ['a', 'b', 'c']) await limiter.hit(key, 1, 60);
    await clock.advance(30);
    await limiter.hit('d', 1, 60); // 4 windows, none expired yet
    expect(limiter.size).toBe(4);
    await clock.advance(31);
    await limiter.hit('e', 1, 60); // a, b and c have expired
    expect(limiter.size).toBe(2);
    expect((await limiter.hit('d', 1, 60)).allowed).toBe(false);
  });
});
