// Rate limits through the pipeline (seed: "Limits"): a route's own `x-rate-limit` (GET /item/prices,
// 1 per 300 s per API key) and the general limit of 600 requests per 60 s per user, route and
// method. Both answer 429 with four integer headers, counted before the request is validated.
import { GENERAL_LIMIT } from '@marketplace/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rateLimited } from '../domain/messages.ts';
import { startTestServer, type TestServer } from '../routes/test-harness.fixture.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(() => t.reset());

const T = 1_800_000_000;

/** A new user's JWT. */
const session = async () => t.login((await t.user()).apiKey);

/** The status, 429 headers and envelope of a response. */
async function answer(res: Response) {
  const limitHeaders = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'].map((h) =>
    res.headers.get(h),
  );
  return { status: res.status, headers: limitHeaders, body: await res.json() };
}

const get = async (path: string, jwt: string) =>
  answer(await fetch(`${t.baseUrl}${path}`, { headers: { authorization: `Bearer ${jwt}` } }));

describe('GET /item/prices: 1 request per 300 s per API key', () => {
  it('answers the second call in the window 429, and the window reopens 300 s after it started', async () => {
    await t.clock({ set: T });
    const jwt = await session();
    const first = await get('/item/prices?game=440', jwt);
    expect(first.status).toBe(200);
    expect(first.headers).toEqual([null, null, null, null]);

    const second = await get('/item/prices?game=440', jwt);
    const now = await t.now();
    // The window opened at the first call: T, or a second later on a machine slow enough that
    // the clock ticked in between (the clock keeps running after it is set).
    const start = Number(second.headers[2]) - 300;
    expect(start).toBeGreaterThanOrEqual(T);
    expect(start).toBeLessThanOrEqual(now);
    const retry = Number(second.headers[3]);
    expect(retry).toBeGreaterThanOrEqual(start + 300 - now);
    expect(second).toEqual({
      status: 429,
      headers: ['1', '0', String(start + 300), String(Math.min(300, retry))],
      body: { err: true, success: false, content: rateLimited(retry) },
    });

    await t.clock({ set: start + 120 });
    const later = await get('/item/prices?game=730', jwt);
    expect(later.status).toBe(429);
    expect(later.headers).toEqual(['1', '0', String(start + 300), '180']);
    expect(later.body.content).toBe('Rate limit exceeded. Retry after 180 seconds.');

    await t.clock({ set: start + 300 });
    expect((await get('/item/prices?game=440', jwt)).status).toBe(200);
  });

  it('counts a request before validating it, and counts each API key apart', async () => {
    const jwt = await session();
    expect((await get('/item/prices?game=abc', jwt)).body.content).toBe('Invalid game parameter');
    expect((await get('/item/prices?game=440', jwt)).status).toBe(429);
    expect((await get('/item/prices?game=abc', jwt)).status).toBe(429);
    expect((await get('/item/prices?game=440', await session())).status).toBe(200);
  });
});

describe('the general limit: 600 requests per 60 s per user, route and method', () => {
  it('answers the 601st GET /user/ipList 429 while other routes and users still answer', async () => {
    expect(GENERAL_LIMIT).toEqual({ limit: 600, window: 60 });
    await t.clock({ set: T });
    const jwt = await session();
    const statuses: number[] = [];
    for (let batch = 0; batch < 12; batch += 1) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => get('/user/ipList', jwt)));
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses).toEqual(Array(600).fill(200));

    const over = await get('/user/ipList', jwt);
    expect(over.status).toBe(429);
    const [limit, remaining, reset, retryAfter] = over.headers;
    expect([limit, remaining]).toEqual(['600', '0']);
    // The window opened at the first call: T, or later when a busy machine let the clock tick.
    expect(Number(reset) - 60).toBeGreaterThanOrEqual(T);
    expect(Number(reset) - 60).toBeLessThanOrEqual(await t.now());
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(over.body).toEqual({ err: true, success: false, content: rateLimited(Number(retryAfter)) });

    expect((await get('/user/getBuyorder', jwt)).status).toBe(200);
    expect((await get('/user/ipList', await session())).status).toBe(200);
    await t.clock({ set: T + 60 });
    expect((await get('/user/ipList', jwt)).status).toBe(200);
  });
});
