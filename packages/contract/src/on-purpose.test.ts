// Slow and failing on purpose, the layer the server and the mock both install: what a `Prefer` and
// the per-run options parse to, and a seeded latency and failure share that repeats exactly for the
// same seed. The answers themselves are checked over HTTP on each (packages/server's
// http/on-purpose.test.ts, packages/mock's on-purpose.test.ts).
import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it, vi } from 'vitest';
import { onPurpose, onPurposePrefer, parseFailRate, parseLatency, parseSeed } from './on-purpose.ts';

describe('parsing', () => {
  it.each([
    ['100-800', { min: 100, max: 800 }],
    ['250', { min: 250, max: 250 }],
    ['800-100', 'refused'],
    ['0-30001', 'refused'],
    ['fast', 'refused'],
  ])('latency %s', (text, want) => {
    const got = parseLatency(text);
    expect(typeof got === 'string' ? 'refused' : got).toEqual(want);
  });
  it.each([
    ['0', 0],
    ['0.25', 0.25],
    ['1', 1],
    ['1.5', 'refused'],
    ['-0.1', 'refused'],
    ['half', 'refused'],
  ])('fail rate %s', (text, want) => {
    const got = parseFailRate(text);
    expect(typeof got === 'string' ? 'refused' : got).toEqual(want);
  });
  it('seed', () => {
    expect(parseSeed('42')).toBe(42);
    expect(typeof parseSeed('x')).toBe('string');
  });
  it.each([
    ['delay=300', { delay: 300 }],
    ['code=429', { code: 429 }],
    ['code=500, delay=20', { code: 500, delay: 20 }],
    ['delay=999999', { delay: 30_000 }],
    ['code=300, example=notEnoughBalance', { rest: 'code=300, example=notEnoughBalance' }],
    ['code=429, example=rateLimited', { rest: 'code=429, example=rateLimited' }],
    ['delay=50, code=300, example=x', { delay: 50, rest: 'code=300, example=x' }],
  ])('Prefer: %s', (header, want) => {
    const { rest, ...asked } = onPurposePrefer(header);
    expect({ ...asked, ...(rest ? { rest } : {}) }).toEqual(want);
  });
});

/** What the middleware does to `n` requests in a row: the delay it waits and the status it answers (200: passed on). */
function outcomes(options: Parameters<typeof onPurpose>[0], n: number): [number, number][] {
  const handler = onPurpose(options);
  const timeouts = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void) => {
    fn();
    return 0;
  }) as never);
  const seen: [number, number][] = [];
  try {
    for (let i = 0; i < n; i += 1) {
      let status = 200;
      const res = {
        headersSent: false,
        destroyed: false,
        set: () => res,
        status: (s: number) => {
          status = s;
          return res;
        },
        json: () => res,
      };
      const before = timeouts.mock.calls.length;
      handler(
        { get: () => undefined, headers: {} } as unknown as Request,
        res as unknown as Response,
        (() => undefined) as NextFunction,
      );
      const delay = timeouts.mock.calls.length > before ? Number(timeouts.mock.calls.at(-1)?.[1]) : 0;
      seen.push([delay, status]);
    }
  } finally {
    timeouts.mockRestore();
  }
  return seen;
}

describe('a run with a seed', () => {
  const run = { latency: { min: 10, max: 500 }, failRate: 0.3 };

  it('Given the same seed, then the same requests meet the same delays and failures', () => {
    const first = outcomes({ ...run, seed: 7 }, 200);
    expect(outcomes({ ...run, seed: 7 }, 200)).toEqual(first);
    expect(outcomes({ ...run, seed: 8 }, 200)).not.toEqual(first);
    // The draws are spread as asked: delays within the range, about 30% failures, both codes.
    expect(first.every(([d]) => d >= 10 && d <= 500)).toBe(true);
    const failures = first.filter(([, s]) => s !== 200);
    expect(failures.length).toBeGreaterThan(30);
    expect(failures.length).toBeLessThan(90);
    expect(new Set(failures.map(([, s]) => s))).toEqual(new Set([429, 500]));
  });

  it('Given no latency and no failures, then nothing waits and everything passes', () => {
    expect(outcomes({ prefer: true }, 5)).toEqual(Array(5).fill([0, 200]));
  });
});
