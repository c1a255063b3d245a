// The answer cache alone (keys, what is kept, the bound), then behind the front with a stand-in for
// Prism that numbers its answers: a repeated request is answered without reaching it, anything that
// changes Prism's choice reaches it again, and the front's checks still run on every request.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readDocument } from '@marketplace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerCache } from './answer-cache.ts';
import { locateDocument } from './document.ts';
import { createFront } from './front.ts';

const JSON_TYPE = { 'content-type': 'application/json' };

describe('AnswerCache.keyOf', () => {
  const cache = new AnswerCache();
  const base = cache.keyOf('GET', '/item/listing/{item}', {});

  it.each<[string, IncomingHttpHeaders]>([
    ['another example', { prefer: 'code=300, example=other' }],
    ['another media type', { accept: 'text/csv' }],
  ])('Given %s, then another key', (_name, headers) => {
    expect(cache.keyOf('GET', '/item/listing/{item}', headers)).not.toBe(base);
  });

  it('Given another operation, then another key', () => {
    expect(cache.keyOf('GET', '/item/details/{item}', {})).not.toBe(base);
  });

  it("Given headers Prism does not read (a bearer, a trace id, an origin: CORS is the front's), then the same key", () => {
    expect(
      cache.keyOf('GET', '/item/listing/{item}', {
        authorization: 'Bearer x',
        'x-trace': '1',
        origin: 'http://app.test',
      }),
    ).toBe(base);
  });

  it.each(['dynamic=true', 'code=200, dynamic=true', 'dynamic=1'])('Given Prefer %s, then no key', (prefer) => {
    expect(cache.keyOf('GET', '/item/listing/{item}', { prefer })).toBeUndefined();
  });

  it('Given Prefer dynamic=false, then a key', () => {
    expect(cache.keyOf('GET', '/item/listing/{item}', { prefer: 'dynamic=false' })).toBeDefined();
  });
});

describe('AnswerCache.keep', () => {
  it('Given an example answer, then it is kept without its date and with its length', () => {
    const cache = new AnswerCache();
    cache.keep('k', 200, { ...JSON_TYPE, date: 'then', 'transfer-encoding': 'chunked' }, Buffer.from('{"a":1}'));
    expect(cache.get('k')).toEqual({
      status: 200,
      headers: { ...JSON_TYPE, 'content-length': '7' },
      body: Buffer.from('{"a":1}'),
    });
  });

  it.each<[string, IncomingHttpHeaders]>([
    ["Prism's problem answer", { 'content-type': 'application/problem+json' }],
    ['an answer that breaks the document', { ...JSON_TYPE, 'sl-violations': '[]' }],
  ])('Given %s, then it is not kept', (_name, headers) => {
    const cache = new AnswerCache();
    cache.keep('k', 422, headers, Buffer.from('{}'));
    expect(cache.get('k')).toBeUndefined();
  });

  it('Given more answers than its bound, then the least recently used go', () => {
    const cache = new AnswerCache({ maxEntries: 2 });
    for (const key of ['a', 'b']) cache.keep(key, 200, JSON_TYPE, Buffer.from(key));
    cache.get('a');
    cache.keep('c', 200, JSON_TYPE, Buffer.from('c'));
    expect([cache.get('a')?.body.toString(), cache.get('b'), cache.get('c')?.body.toString()]).toEqual([
      'a',
      undefined,
      'c',
    ]);
    expect(cache.size).toBe(2);
  });

  it('Given bodies over its byte bound, then older ones go', () => {
    const cache = new AnswerCache({ maxBytes: 25 });
    for (const key of ['a', 'b', 'c']) cache.keep(key, 200, JSON_TYPE, Buffer.alloc(10));
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
  });
});

describe('the front with an answer cache', () => {
  let prism: Server;
  let front: Server;
  let base: string;
  const seen: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    // Numbers its answers, so a reused one is told from a new one.
    prism = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, JSON_TYPE); // Prism runs with --no-cors: the front writes the CORS headers
      res.end(JSON.stringify({ err: false, success: true, content: [], answer: seen.length }));
    });
    await new Promise<void>((r) => prism.listen(0, '127.0.0.1', r));
    const app = createFront({
      document: readDocument(locateDocument()),
      prism: `http://127.0.0.1:${(prism.address() as AddressInfo).port}`,
      log: () => {},
      cache: new AnswerCache(),
    });
    front = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    base = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    front?.closeAllConnections();
    await Promise.all([front, prism].map((s) => new Promise((r) => s?.close(r))));
  });

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { headers });
    return { status: res.status, origin: res.headers.get('access-control-allow-origin'), body: await res.json() };
  };

  it('Given the same request twice, then Prism answers once and the second gets the same answer', async () => {
    const before = seen.length;
    const first = await get('/item/listing/1');
    const second = await get('/item/listing/2');
    expect(second).toEqual(first);
    expect(seen.length).toBe(before + 1);
  });

  it('Given another Prefer example, then Prism answers again; another origin is served the same answer, readable', async () => {
    await get('/user/getBuyorder', { authorization: `Bearer ${jwt}` });
    const before = seen.length;
    const named = await get('/item/listing/1', { prefer: 'code=200, example=listings' });
    const plain = await get('/item/listing/1');
    const other = await get('/item/listing/1', { origin: 'http://app.test' });
    expect(seen.length).toBe(before + 1); // the plain listing was kept by the first test
    expect(named.body.answer).not.toBe(other.body.answer);
    expect(other).toEqual(plain);
    expect(other.origin).toBe('*');
  });

  it('Given Prefer dynamic=true, then every request reaches Prism', async () => {
    const before = seen.length;
    await get('/item/listing/1', { prefer: 'dynamic=true' });
    await get('/item/listing/1', { prefer: 'dynamic=true' });
    expect(seen.length).toBe(before + 2);
  });

  it('Given a cached operation, then a bad parameter or a missing bearer is still refused as the API does', async () => {
    await get('/item/listing/1');
    expect(await get('/item/listing/abc')).toMatchObject({
      status: 300,
      body: { err: true, content: 'Invalid item parameter' },
    });
    await get('/user/getBuyorder', { authorization: `Bearer ${jwt}` });
    expect(await get('/user/getBuyorder')).toMatchObject({ status: 403, body: { content: 'forbidden' } });
  });
});

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = `${part({ alg: 'HS256' })}.${part({ sub: '76561198000000001' })}.c2ln`;
