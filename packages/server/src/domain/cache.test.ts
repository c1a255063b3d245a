import { describe, expect, it } from 'vitest';
import { type Cache, cached } from './cache.ts';

describe('cached', () => {
  it.each([
    ['reused just before the TTL ends', { computedAt: 1000, now: 1000 + 1199, force: false }, { hit: true, at: 1000 }],
    [
      'recomputed once the TTL has passed',
      { computedAt: 1000, now: 1000 + 1200, force: false },
      { hit: false, at: 2200 },
    ],
    ['recomputed when forced', { computedAt: 1000, now: 1001, force: true }, { hit: false, at: 1001 }],
    ['recomputed when the clock went backwards', { computedAt: 1000, now: 999, force: false }, { hit: false, at: 999 }],
  ])('%s', (_name, given, want) => {
    const cache: Cache = new Map();
    let calls = 0;
    const compute = () => ++calls;
    cached(cache, 'k', { now: given.computedAt, ttl: 1200 }, compute);
    const second = cached(cache, 'k', { now: given.now, ttl: 1200, force: given.force }, compute);
    expect({ hit: second.hit, at: second.at }).toEqual(want);
    expect(second.value).toBe(want.hit ? 1 : 2);
    expect(cache.get('k')).toEqual({ at: want.at, value: second.value });
  });

  it('keeps keys apart', () => {
    const cache: Cache = new Map();
    cached(cache, 'a', { now: 0, ttl: 60 }, () => 'A');
    expect(cached(cache, 'b', { now: 1, ttl: 60 }, () => 'B')).toEqual({ value: 'B', at: 1, hit: false });
    expect(cached(cache, 'a', { now: 2, ttl: 60 }, () => 'X')).toEqual({ value: 'A', at: 0, hit: true });
  });
});
