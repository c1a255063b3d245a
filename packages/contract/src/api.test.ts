// The request flow every host mounts (api.ts), over HTTP with the bundled document and a few
// handlers: the order (guard, before, gate, terminal, not implemented, refuse), the one answer of
// an unknown route and of an operation without a handler, the typed dispatch's answers, the
// limiter's seam at its four points, a forward terminal, and where failures go.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request, Response } from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ApiOptions, createApi, notImplemented } from './api.ts';
import { readDocument } from './document.ts';
import { FORBIDDEN, INTERNAL_ERROR, NOT_FOUND } from './messages.ts';
import { sendRateLimited } from './rate-limited.ts';

const document = readDocument();
type Caller = { user: { admin?: boolean } };
const NOT_FOUND_ANSWER = [404, { err: true, success: false, content: NOT_FOUND }];

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

/** Starts `createApi(options)` on a free port; `send` answers `[status, body, headers]`. */
async function start(options: Partial<ApiOptions<Caller, unknown>>) {
  const app = createApi<Caller, unknown>({
    document,
    identify: (req) => (req.get('authorization') === 'Bearer ok' ? { user: {} } : undefined),
    unexpected: () => {},
    ...options,
  } as ApiOptions<Caller, unknown>);
  const server: Server = await new Promise((done) => {
    const s = app.listen(0, '127.0.0.1', () => done(s));
  });
  servers.push(server);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (
    method: string,
    path: string,
    init: { body?: unknown; auth?: boolean; headers?: Record<string, string> } = {},
  ) => {
    const res = await fetch(base + path, {
      method,
      headers: {
        ...init.headers,
        ...(init.auth ? { authorization: 'Bearer ok' } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    return [res.status, text.startsWith('{') ? JSON.parse(text) : text, res.headers] as const;
  };
}

const context = (_req: Request, _res: Response, op: { operationId: string }, params: object) => ({ op, params });

describe('createApi: dispatch by operationId', () => {
  it('answers a success in the operation envelope, with path parameters typed as the document types them', async () => {
    const send = await start({
      dispatch: {
        handlers: { getItemListingItem: (ctx: { params: object }) => ({ ok: true, value: [ctx.params] }) },
        context,
      },
    });
    const [status, body] = await send('GET', '/item/listing/7');
    expect([status, body]).toEqual([200, { err: false, success: true, content: [{ item: 7 }] }]);
  });

  it.each([
    ['a documented error, HTTP 300 by default', { ok: false, error: 'Item not found' }, [300, 'Item not found']],
    ['an error with its own status', { ok: false, error: 'Nope', status: 503 }, [503, 'Nope']],
  ])('answers %s in the envelope', async (_name, answer, [status, content]) => {
    const send = await start({ dispatch: { handlers: { getItemListingItem: () => answer }, context } });
    const [got, body] = await send('GET', '/item/listing/7');
    expect([got, body]).toEqual([status, { err: true, success: false, content }]);
  });

  it('answers a raw reply with its media type', async () => {
    const raw = { ok: true, raw: { contentType: 'text/csv', body: 'a,b\n1,2\n' } };
    const send = await start({ dispatch: { handlers: { getPublicPrice: () => raw }, context } });
    const [status, body, headers] = await send('GET', '/public/price?game=730&format=csv');
    expect([status, body, headers.get('content-type')]).toEqual([200, 'a,b\n1,2\n', 'text/csv; charset=utf-8']);
  });

  it('answers without an ETag, so a conditional request gets the answer, never an undocumented 304', async () => {
    const send = await start({
      dispatch: { handlers: { getItemListingItem: () => ({ ok: true, value: [] }) }, context },
    });
    const [, , headers] = await send('GET', '/item/listing/1');
    expect(headers.get('etag')).toBeNull();
    const conditional = await send('GET', '/item/listing/1', { headers: { 'if-none-match': '*' } });
    expect(conditional.slice(0, 2)).toEqual([200, { err: false, success: true, content: [] }]);
  });

  it('refuses a request the document does not admit before any handler runs', async () => {
    const handler = vi.fn(() => ({ ok: true, value: [] }));
    const send = await start({ dispatch: { handlers: { getItemListingItem: handler }, context } });
    const [status, body] = await send('GET', '/item/listing/0');
    expect(status).toBe(300);
    expect(body.content).toMatch(/item/);
    expect(handler).not.toHaveBeenCalled();
  });
});

describe('createApi: one answer for "no such route" and "no handler"', () => {
  it.each([
    ['an unknown route', 'GET', '/nope', {}],
    ['an operation without a handler, before its permission is checked', 'GET', '/user/balance', {}],
    ['an operation whose handler is `notImplemented`', 'GET', '/user/balance', { getUserBalance: notImplemented }],
    [
      'a handler that answers `notImplemented` for a case',
      'GET',
      '/item/listing/3',
      { getItemListingItem: () => ({ notImplemented: true }) },
    ],
  ])('answers %s 404 Not found in envelope A', async (_name, method, path, handlers) => {
    const send = await start({ dispatch: { handlers, context }, validateResponses: true });
    const [status, body] = await send(method, path);
    expect([status, body]).toEqual(NOT_FOUND_ANSWER);
  });

  it('checks the permission of an implemented operation', async () => {
    const send = await start({ dispatch: { handlers: { getUserBalance: () => ({ ok: true, value: {} }) }, context } });
    expect((await send('GET', '/user/balance')).slice(0, 2)).toEqual([
      403,
      { err: true, success: false, content: FORBIDDEN },
    ]);
  });

  it('forwards every admitted request to a forward terminal; what it passes on is not found', async () => {
    const send = await start({
      forward: (req, res, next) => (req.path === '/user/balance' ? res.json({ forwarded: true }) : next()),
    });
    expect((await send('GET', '/user/balance', { auth: true })).slice(0, 2)).toEqual([200, { forwarded: true }]);
    expect((await send('GET', '/item/listing/3')).slice(0, 2)).toEqual(NOT_FOUND_ANSWER);
  });

  it('takes one terminal', () => {
    expect(() => createApi({ document, identify: () => undefined, unexpected: () => {} })).toThrow(/either/);
  });
});

describe('createApi: the order of a request', () => {
  it('runs the before handlers after the guard and before the gate, and sets the answer headers on every answer', async () => {
    const send = await start({
      answerHeaders: { 'x-host': 'test' },
      before: [(req, res, next) => (req.path === '/docs' ? res.type('text/plain').send('docs') : next())],
      dispatch: { handlers: {}, context },
    });
    const [status, body, headers] = await send('GET', '/docs');
    expect([status, body, headers.get('x-host')]).toEqual([200, 'docs', 'test']);
    expect((await send('GET', '/nope'))[2].get('x-host')).toBe('test');
  });

  it('counts limits before the host admits, and both before the body is read', async () => {
    const seen: string[] = [];
    const send = await start({
      limits: {
        admit: () => {
          seen.push('limits');
          return true;
        },
      },
      admit: (req, res) => {
        seen.push(`admit body=${JSON.stringify(req.body)}`);
        if (req.get('x-refuse') === undefined) return true;
        res.status(400).json({ refused: true });
        return false;
      },
      dispatch: { handlers: { postItemBuyorder: () => ({ ok: false, error: 'x' }) }, context },
    });
    await send('POST', '/item/buyorder', { auth: true, body: { itemid: 1, value: 5, amount: 1 } });
    expect(seen).toEqual(['limits', 'admit body=undefined']);
  });

  it('asks the limits once the body is read (a 429 with its headers when over), before the handler, and tells them its refusal', async () => {
    const answered = vi.fn();
    const handler = vi.fn((ctx: { servesCached: boolean }) =>
      ctx.servesCached ? { ok: true, value: { jwt: 'j' } } : { ok: false, error: 'Invalid API key' },
    );
    let over = false;
    let cached = false;
    const send = await start({
      limits: {
        admitBody: (req, res) => {
          if (!over || req.body.apiKey !== 'k') return true;
          sendRateLimited(res, { limit: 20, remaining: 0, reset: 1_000, retryAfter: 42 });
          return false;
        },
        servesCached: () => cached,
        answered: (_req, op, _caller, message) => answered(op.operationId, message),
      },
      dispatch: {
        handlers: { postUserLogin: handler },
        context: (_req: Request, _res: Response, _op: unknown, _params: unknown, _caller: unknown, servesCached) => ({
          servesCached,
        }),
      },
    });
    const [status, body] = await send('POST', '/user/login', { body: { apiKey: 'k' } });
    expect([status, body.content]).toEqual([300, 'Invalid API key']);
    expect(answered).toHaveBeenCalledWith('postUserLogin', 'Invalid API key');
    cached = true;
    expect((await send('POST', '/user/login', { body: { apiKey: 'k' } })).slice(0, 2)).toEqual([
      200,
      { err: false, success: true, content: { jwt: 'j' } },
    ]);
    expect(answered).toHaveBeenCalledTimes(1);
    over = true;
    const [refused, refusal, headers] = await send('POST', '/user/login', { body: { apiKey: 'k' } });
    expect([refused, refusal.content, headers.get('retry-after'), headers.get('x-ratelimit-limit')]).toEqual([
      429,
      'Rate limit exceeded. Retry after 42 seconds.',
      '42',
      '20',
    ]);
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it('gives a failure to the host failures in order, then reports it and answers 500', async () => {
    const unexpected = vi.fn();
    const failures = [
      (err: Error, _req: Request, res: Response, next: (e: unknown) => void) =>
        err.message === 'away' ? res.status(503).json({ away: true }) : next(err),
    ];
    const send = await start({
      failures,
      unexpected,
      dispatch: {
        handlers: {
          getItemListingItem: (ctx: { params: { item: number } }) => {
            throw new Error(ctx.params.item === 1 ? 'away' : 'bug');
          },
        },
        context,
      },
    });
    expect((await send('GET', '/item/listing/1')).slice(0, 2)).toEqual([503, { away: true }]);
    expect(unexpected).not.toHaveBeenCalled();
    expect((await send('GET', '/item/listing/2')).slice(0, 2)).toEqual([
      500,
      { err: true, success: false, content: INTERNAL_ERROR },
    ]);
    expect(unexpected).toHaveBeenCalledTimes(1);
  });

  it('reports a failure thrown, passed on or rejected by a step before or after the gate, and answers 500', async () => {
    const unexpected = vi.fn();
    const send = await start({
      unexpected,
      before: [
        (req, _res, next) => {
          if (req.path === '/item/listing/1') throw new Error('thrown before');
          if (req.path === '/item/listing/2') return next(new Error('passed on before'));
          next();
        },
        async (req, _res, next) => {
          if (req.path === '/item/listing/3') throw new Error('rejected before');
          next();
        },
      ],
      dispatch: {
        handlers: { getItemListingItem: async () => Promise.reject(new Error('rejected by the handler')) },
        context,
      },
    });
    for (const item of [1, 2, 3, 4])
      expect((await send('GET', `/item/listing/${item}`)).slice(0, 2)).toEqual([
        500,
        { err: true, success: false, content: INTERNAL_ERROR },
      ]);
    expect(unexpected.mock.calls.map(([err]) => (err as Error).message)).toEqual([
      'thrown before',
      'passed on before',
      'rejected before',
      'rejected by the handler',
    ]);
  });

  it('answers a refused request as documented without asking the host failures', async () => {
    const failure = vi.fn((err: unknown, _req: Request, _res: Response, next: (e: unknown) => void) => next(err));
    const send = await start({
      failures: [failure],
      dispatch: { handlers: { postItemBuyorder: () => ({ ok: true, value: {} }) }, context },
    });
    const [status] = await send('POST', '/item/buyorder', { auth: true, body: { itemid: 'one' } });
    expect(status).toBe(300);
    expect(failure).not.toHaveBeenCalled();
  });
});

describe('createApi: validation against the document (validators.ts)', () => {
  it('in test mode, serves an answer its schema allows and turns one it refuses into a reported 500', async () => {
    const unexpected = vi.fn();
    let balance: unknown = 125050;
    const send = await start({
      validateResponses: true,
      unexpected,
      dispatch: { handlers: { getUserBalance: () => ({ ok: true, value: { balance } }) }, context },
    });
    // The schema reaches EnvelopeASuccess through a `$ref` into components: it must still resolve.
    expect((await send('GET', '/user/balance', { auth: true })).slice(0, 2)).toEqual([
      200,
      { err: false, success: true, content: { balance: 125050 } },
    ]);
    balance = 'a lot';
    expect((await send('GET', '/user/balance', { auth: true })).slice(0, 2)).toEqual([
      500,
      { err: true, success: false, content: INTERNAL_ERROR },
    ]);
    expect(unexpected).toHaveBeenCalledTimes(1);
  });

  it('leaves the host its document as it was read: what the validator hides is in its own copy', async () => {
    const send = await start({
      validateResponses: true,
      dispatch: { handlers: { postItemBuyorder: () => ({ ok: true, value: {} }) }, context },
    });
    expect((await send('POST', '/item/buyorder', { auth: true, body: { itemid: 'one' } }))[0]).toBe(300);
    expect(JSON.stringify(document)).toBe(JSON.stringify(readDocument()));
  });
});
