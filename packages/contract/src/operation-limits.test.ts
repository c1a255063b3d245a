// The document's rate limits as the gate counts them (OperationLimits), on the bundled document and
// windows in memory, through HTTP: the login's refused keys per IP and attempts per API key, GET
// /item/prices' one request per API key counted before validation, and update=1's cached answer.
// The numbers are read from the document. Each test has a clock of its own, far from the others'.
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_DOCUMENT, readDocument } from './document.ts';
import { sendError, sendOk } from './envelope.ts';
import { FixedWindowLimiter, MemoryWindows } from './fixed-window.ts';
import { createGate } from './gate.ts';
import { rateLimited } from './messages.ts';
import { OperationLimits } from './operation-limits.ts';

type TestCaller = { user: { id: string; admin?: boolean } };
const document = readDocument(BUNDLED_DOCUMENT);
const clock = { now: 0 };
const limiter = new FixedWindowLimiter(new MemoryWindows(), () => clock.now);
let baseUrl = '';
let close = () => {};

/** The rules of an operation, by scope. */
const rule = (path: string, method: string, scope: string) =>
  [document.paths[path][method]['x-rate-limit']].flat().find((r: { scope: string }) => r.scope === scope) as {
    limit: number;
    window: number;
  };

beforeAll(async () => {
  const limits = new OperationLimits<TestCaller>({
    limiter,
    counted: (caller) => ({ user: caller.user.id, general: true }),
  });
  const gate = createGate<TestCaller>({
    document,
    // `Bearer <user>` is that user; nothing else is checked.
    identify: (req) => {
      const user = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1];
      return user === undefined ? undefined : { user: { id: user } };
    },
    limits,
    unexpected: (err) => console.error(err),
  });
  const app = express();
  app.set('trust proxy', 'loopback');
  app.use(gate.guard);
  app.use(gate.admission(app));
  // The handlers: the login knows one key; the others say whether the cached answer is served.
  app.use(async (req: Request, res: Response, next: NextFunction) => {
    const op = gate.operationOf(res)!;
    const caller = gate.callerOf(res);
    if (op.operationId !== 'postUserLogin')
      return sendOk(res, 'A', { servesCached: await limits.servesCached(req, op, caller) });
    if (req.body.apiKey === 'good') return sendOk(res, 'A', { jwt: 'j' });
    await limits.answered(req, op, caller, 'Invalid API key').catch(next);
    sendError(res, 'A', 'Invalid API key');
  });
  app.use(gate.refuse);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

/** Status, the four rate-limit headers and the body of one request. */
async function call(
  path: string,
  { ip = '10.0.0.1', user, body }: { ip?: string; user?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = { 'x-forwarded-for': ip };
  if (user) headers.authorization = `Bearer ${user}`;
  if (body) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  const limitHeaders = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'].map((h) =>
    res.headers.get(h),
  );
  return { status: res.status, headers: limitHeaders, body: await res.json() };
}

const login = (apiKey: string, ip?: string) => call('/user/login', { body: { apiKey }, ip });

describe('POST /user/login: refused keys per IP, checked before the attempt', () => {
  it('refuses every attempt of an IP once it had its refused keys, a known key too, until the window ends', async () => {
    clock.now = 1_000_000;
    const { limit, window } = rule('/user/login', 'post', 'ip');
    for (let i = 0; i < limit; i += 1) expect((await login(`bad-${i}`, '10.1.0.1')).status).toBe(300);
    // Known keys do not count: they are not answered `Invalid API key`.
    expect((await login('good', '10.1.0.1')).status).toBe(429);
    clock.now += 10;
    expect(await login(`bad-${limit}`, '10.1.0.1')).toEqual({
      status: 429,
      headers: [String(limit), '0', String(1_000_000 + window), String(window - 10)],
      body: { err: true, success: false, content: rateLimited(window - 10) },
    });
    expect((await login('good', '10.1.0.2')).status).toBe(200);
    clock.now = 1_000_000 + window;
    expect((await login('good', '10.1.0.1')).status).toBe(200);
  });

  it('counts only the refused keys', async () => {
    clock.now = 2_000_000;
    const { limit } = rule('/user/login', 'post', 'ip');
    for (let i = 0; i < limit + 5; i += 1) await login(`good`, '10.2.0.1');
    expect((await login('bad', '10.2.0.1')).status).toBe(300);
  });
});

describe('POST /user/login: every attempt per API key, read from the body', () => {
  it('refuses the key past its attempts, from any IP, while other keys log in', async () => {
    clock.now = 3_000_000;
    const { limit } = rule('/user/login', 'post', 'apiKey');
    for (let i = 0; i < limit; i += 1) expect((await login('good', `10.3.${i}.1`)).status).toBe(200);
    const over = await login('good', '10.3.99.1');
    expect([over.status, over.headers[0], over.headers[1]]).toEqual([429, String(limit), '0']);
    expect((await login('other', '10.3.99.1')).status).toBe(300);
  });
});

describe('GET /item/prices: its rule per API key, counted before the request is validated', () => {
  it('answers the second call in the window 429, an invalid one included, per caller', async () => {
    clock.now = 4_000_000;
    const { window } = rule('/item/prices', 'get', 'apiKey');
    expect((await call('/item/prices?game=abc', { user: 'u1' })).body.content).toBe('Invalid game parameter');
    expect(await call('/item/prices?game=440', { user: 'u1' })).toMatchObject({
      status: 429,
      headers: ['1', '0', String(4_000_000 + window), String(window)],
    });
    expect((await call('/item/prices?game=440', { user: 'u2' })).status).toBe(200);
  });
});

describe('update=1 on the price lists: the cached answer beyond the limit, never a 429', () => {
  it('serves the cached list to the second update=1 of an IP in the window only', async () => {
    clock.now = 5_000_000;
    const { window } = rule('/infos/prices/buyorderAndLowestSales', 'get', 'ip');
    const cached = async (query: string, ip = '10.5.0.1') => {
      const answer = await call(`/infos/prices/buyorderAndLowestSales${query}`, { ip });
      expect(answer.status).toBe(200);
      return answer.body.content.servesCached;
    };
    expect(await cached('?update=1')).toBe(false);
    expect(await cached('?update=1')).toBe(true);
    expect(await cached('')).toBe(false);
    expect(await cached('?update=1', '10.5.0.2')).toBe(false);
    clock.now += window;
    expect(await cached('?update=1')).toBe(false);
  });
});
