// The rate-limit windows on PostgreSQL (ADR 19), under the contract's one limiter, with two
// limiters on one database as two instances would be: they count into the same windows, concurrent
// requests never get more than the limit through, a clear reaches both, and every verdict is the
// one the same limiter gives on windows in memory.
import { FixedWindowLimiter, MemoryWindows } from '@marketplace/contract';
import { describe, expect, it } from 'vitest';
import { createTestClock, type TestClock } from '../../clock.ts';
import { useDatabases } from './databases.fixture.ts';
import { PostgresRateWindows } from './rate-windows.ts';

const { missing, instances } = useDatabases('windows');
const base = { now: () => 1000, nowMs: () => 1_000_000 };

/** Two limiters on one fresh database, each with a pool of its own, reading one clock. */
async function limiters(clock: TestClock): Promise<[FixedWindowLimiter, FixedWindowLimiter]> {
  const { pools } = await instances(2, 8);
  const on = (i: number) => new FixedWindowLimiter(new PostgresRateWindows(pools[i]!), () => clock.now());
  return [on(0), on(1)];
}

describe.skipIf(missing)(`rate-limit windows on PostgreSQL${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('counts the requests of both instances in one window per key', async () => {
    const [a, b] = await limiters(createTestClock(base));
    expect((await a.hit('k', 3, 60)).remaining).toBe(2);
    expect((await b.hit('k', 3, 60)).remaining).toBe(1);
    expect(await b.peek('k', 3, 60)).toMatchObject({ allowed: true, remaining: 1 }); // a peek counts nothing
    expect((await a.hit('k', 3, 60)).remaining).toBe(0);
    expect(await b.hit('k', 3, 60)).toEqual({ allowed: false, limit: 3, remaining: 0, reset: 1060, retryAfter: 60 });
    expect((await a.peek('k', 3, 60)).allowed).toBe(false);
    expect((await b.hit('other', 3, 60)).allowed).toBe(true);
  }, 60_000);

  it('lets no more than the limit through when two instances count at once', async () => {
    const [a, b] = await limiters(createTestClock(base));
    const verdicts = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).hit('busy', 10, 60)));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(10);
    expect(
      verdicts
        .filter((v) => v.allowed)
        .map((v) => v.remaining)
        .toSorted(),
    ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  }, 60_000);

  it('forgets every window of both instances on clear', async () => {
    const [a, b] = await limiters(createTestClock(base));
    await a.hit('k', 1, 60);
    expect((await b.hit('k', 1, 60)).allowed).toBe(false);
    await b.clear();
    expect((await a.hit('k', 1, 60)).allowed).toBe(true);
  }, 60_000);

  it('answers every verdict as the in-memory limiter does, as the clock moves on and back', async () => {
    const [clock, memoryClock] = [createTestClock(base), createTestClock(base)];
    const [shared] = await limiters(clock);
    const memory = new FixedWindowLimiter(new MemoryWindows(), () => memoryClock.now());
    const steps: [string, (l: FixedWindowLimiter) => Promise<unknown>, number][] = [
      ['hit', (l) => l.hit('k', 2, 300), 0],
      ['peek', (l) => l.peek('k', 2, 300), 10],
      ['hit', (l) => l.hit('k', 2, 300), 10],
      ['hit (refused)', (l) => l.hit('k', 2, 300), 100],
      ['peek (refused)', (l) => l.peek('k', 2, 300), 0],
      ['hit in the next window', (l) => l.hit('k', 2, 300), 300],
      ['peek of a new key', (l) => l.peek('new', 5, 60), 0],
      ['hit after the clock went back', (l) => l.hit('k', 2, 300), -3600],
    ];
    for (const [name, step, advance] of steps) {
      await clock.advance(advance);
      await memoryClock.advance(advance);
      expect([name, await step(shared)]).toEqual([name, await step(memory)]);
    }
  }, 60_000);
});
