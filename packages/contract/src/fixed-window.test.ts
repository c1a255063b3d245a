import { describe, expect, it } from 'vitest';
import { FixedWindowLimiter, MemoryWindows } from './fixed-window.ts';

/** A limiter on windows in memory, and the clock it reads (Unix seconds, moved by hand). */
function limiterAt(start = 1000, windows = new MemoryWindows()) {
  const clock = { now: start };
  return { clock, windows, limiter: new FixedWindowLimiter(windows, () => clock.now) };
}

describe('FixedWindowLimiter on windows in memory', () => {
  it('allows up to the limit in a window, then tells when to retry', async () => {
    const { clock, limiter } = limiterAt();
    expect(await limiter.hit('k', 2, 60)).toEqual({
      allowed: true,
      limit: 2,
      remaining: 1,
      reset: 1060,
      retryAfter: 0,
    });
    expect((await limiter.hit('k', 2, 60)).remaining).toBe(0);
    clock.now += 15;
    expect(await limiter.hit('k', 2, 60)).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      reset: 1060,
      retryAfter: 45,
    });
    expect((await limiter.hit('other', 2, 60)).allowed).toBe(true);
  });

  it('peeks without counting: allowed until the window is full, a fresh window when none is live', async () => {
    const { clock, limiter } = limiterAt();
    expect(await limiter.peek('k', 1, 60)).toEqual({
      allowed: true,
      limit: 1,
      remaining: 1,
      reset: 1060,
      retryAfter: 0,
    });
    expect(await limiter.peek('k', 1, 60)).toMatchObject({ allowed: true });
    await limiter.hit('k', 1, 60);
    clock.now += 10;
    expect(await limiter.peek('k', 1, 60)).toEqual({
      allowed: false,
      limit: 1,
      remaining: 0,
      reset: 1060,
      retryAfter: 50,
    });
    clock.now += 50;
    expect(await limiter.peek('k', 1, 60)).toMatchObject({ allowed: true, reset: 1120 });
  });

  it('a refused request changes nothing: the window still ends when it would have', async () => {
    const { clock, limiter } = limiterAt();
    await limiter.hit('k', 1, 60);
    for (let i = 0; i < 5; i += 1) expect((await limiter.hit('k', 1, 60)).allowed).toBe(false);
    clock.now += 60;
    expect(await limiter.hit('k', 1, 60)).toMatchObject({ allowed: true, remaining: 0, reset: 1120 });
  });

  it('opens a new window when the clock passes the reset', async () => {
    const { clock, limiter } = limiterAt();
    await limiter.hit('k', 1, 300);
    clock.now += 300;
    expect((await limiter.hit('k', 1, 300)).allowed).toBe(true);
  });

  it('forgets everything on clear', async () => {
    const { limiter } = limiterAt();
    await limiter.hit('k', 1, 60);
    await limiter.clear();
    expect((await limiter.hit('k', 1, 60)).allowed).toBe(true);
  });

  it('starts afresh when the clock is moved back before the window', async () => {
    const { clock, limiter } = limiterAt();
    clock.now += 3600;
    await limiter.hit('k', 1, 300);
    clock.now = 1000;
    expect(await limiter.hit('k', 1, 300)).toMatchObject({ allowed: true, reset: 1300 });
  });

  it('drops expired windows once it holds more than its maximum', async () => {
    const { clock, windows, limiter } = limiterAt(1000, new MemoryWindows({ maxWindows: 3 }));
    for (const key of ['a', 'b', 'c']) await limiter.hit(key, 1, 60);
    clock.now += 30;
    await limiter.hit('d', 1, 60); // 4 windows, none expired yet
    expect(windows.size).toBe(4);
    clock.now += 31;
    await limiter.hit('e', 1, 60); // a, b and c have expired
    expect(windows.size).toBe(2);
    expect((await limiter.hit('d', 1, 60)).allowed).toBe(false);
  });
});
