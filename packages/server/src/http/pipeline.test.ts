// The request pipeline's own answers (http/app.ts): unusable bodies, parameters of the wrong type,
// unknown routes, operations without a handler yet, and the document at /openapi.json.
import type { Server } from 'node:http';
import { readDocument } from '@marketplace/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NOT_FOUND } from '../domain/messages.ts';
import { routes } from '../routes/index.ts';
import { refusal, startTestServer, type TestServer } from '../routes/test-harness.fixture.ts';
import { serverUrl } from '../server.ts';
import { createApp, INVALID_BODY } from './app.ts';
import type { Routes } from './context.ts';

let t: TestServer;
let jwt: string;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.reset();
  jwt = await t.login((await t.user({ balance: 10_000 })).apiKey);
});

const notFound = [404, { err: true, success: false, content: NOT_FOUND }];

async function send(
  method: string,
  path: string,
  init: { contentType?: string; body?: BodyInit; auth?: boolean } = {},
) {
  const headers: Record<string, string> = {};
  if (init.contentType) headers['content-type'] = init.contentType;
  if (init.auth) headers.authorization = `Bearer ${jwt}`;
  const res = await fetch(`${t.baseUrl}${path}`, { method, headers, body: init.body });
  return [res.status, await res.json()];
}

describe('bodies the pipeline cannot use', () => {
  it.each([
    ['malformed JSON', 'application/json', '{"apiKey": '],
    ['JSON that is not an object', 'application/json', '"apiKey"'],
    ['an unsupported content type', 'text/plain', 'apiKey=x'],
    // fetch labels a string text/plain: bytes go without a content type.
    ['a body without a content type', undefined, new Blob(['{"apiKey": "x"}'])],
  ])('answers %s with 300 Invalid request body', async (_, contentType, body) => {
    expect(await send('POST', '/user/login', { contentType, body })).toEqual([
      300,
      { err: true, success: false, content: INVALID_BODY },
    ]);
  });

  it('answers the same on a Connected route, after the permission check', async () => {
    const malformed = { contentType: 'application/json', body: '{"itemid": 1,' };
    expect(await send('POST', '/item/buyorder', { ...malformed, auth: true })).toEqual([
      300,
      { err: true, success: false, content: INVALID_BODY },
    ]);
    expect((await send('POST', '/item/buyorder', { contentType: 'text/plain', body: 'x', auth: true }))[1]).toEqual({
      err: true,
      success: false,
      content: INVALID_BODY,
    });
  });
});

describe('parameters of the wrong type', () => {
  it.each([
    ['/user/ipList?page=abc', 'Invalid page parameter'],
    ['/user/ipList?page=-1', 'Invalid page parameter'],
    ['/user/ipList?perPage=51', 'Invalid perPage parameter'],
    ['/user/ipList?perpage=1.5', 'Invalid perpage parameter'],
    ['/user/ipList?expire=yes', 'Invalid expire parameter'],
    ['/user/disconnectSession/abc', 'Invalid id parameter'],
  ])('GET %s answers 300 %s', async (path, message) => {
    expect(await send('GET', path, { auth: true })).toEqual([300, { err: true, success: false, content: message }]);
  });

  it('a body field of the wrong type gets Invalid <field> parameter too', async () => {
    const r = await t.api.POST('/user/login', {
      body: { apiKey: 42 as unknown as string },
    });
    expect(refusal(r)).toEqual([300, 'Invalid apiKey parameter']);
  });

  it('ignores query parameters the document does not name', async () => {
    expect((await send('GET', '/user/ipList?colour=blue', { auth: true }))[0]).toBe(200);
  });
});

describe('unknown routes', () => {
  it.each([
    ['GET', '/nope'],
    ['GET', '/user'],
    ['GET', '/user/login'],
    ['POST', '/user/ipList'],
    ['GET', '/user/ipList/extra'],
    ['GET', '/item/listing'],
  ])('%s %s answers 404 Not found in envelope A, with or without a token', async (method, path) => {
    expect(await send(method, path)).toEqual(notFound);
    expect(await send(method, path, { auth: true })).toEqual(notFound);
  });

  it('answers an operation without a handler (a table built in JavaScript) 404 like an unknown route, not 500', async () => {
    // `Routes` needs every operation, so only an untyped caller can leave one out.
    const { getUserBalance: _, ...partial } = routes;
    const app = createApp({ deps: t.deps, routes: partial as unknown as Routes });
    const server: Server = await new Promise((done) => {
      const s = app.listen(0, '127.0.0.1', () => done(s));
    });
    try {
      const res = await fetch(`${serverUrl(server)}/user/balance`, { headers: { authorization: `Bearer ${jwt}` } });
      expect([res.status, await res.json()]).toEqual(notFound);
      expect(await send('GET', '/user/balance', { auth: true })).toEqual([
        200,
        { err: false, success: true, content: { balance: 10_000 } },
      ]);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});

describe('GET /openapi.json', () => {
  it('serves the bundled document', async () => {
    const res = await fetch(`${t.baseUrl}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(readDocument());
  });

  it('serves it as Express matches paths, in any case and with a trailing slash', async () => {
    for (const path of ['/OpenAPI.json', '/openapi.json/', '/Bundled/OPENAPI.JSON']) {
      const res = await fetch(`${t.baseUrl}${path}`);
      expect([path, res.status, (await res.json()).info?.title]).toEqual([path, 200, readDocument().info.title]);
    }
  });
});

describe('the tool files of @marketplace/openapi', () => {
  it('serves llms.txt (/llms.txt leads there), its pages and the collections under /tools/', async () => {
    const index = await fetch(`${t.baseUrl}/llms.txt`);
    expect(index.url).toBe(`${t.baseUrl}/tools/llms.txt`);
    expect(await index.text()).toContain('(operations/postUserLogin.md)');
    const page = await fetch(`${t.baseUrl}/tools/operations/postUserLogin.md`);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/markdown; charset=utf-8']);
    const collection = await fetch(`${t.baseUrl}/tools/postman/item-marketplace.postman_collection.json`);
    expect((await collection.json()).info.name).toBe('Item Marketplace API');
  });

  it('answers 200 for every link of llms.txt and of its pages, resolved where it serves them', async () => {
    const links = (text: string, base: string) =>
      [...text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1]!)
        .filter((link) => !/^[a-z]+:/.test(link))
        .map((link) => new URL(link, base).href);
    const index = `${t.baseUrl}/tools/llms.txt`;
    const pages = links(await (await fetch(index)).text(), index);
    expect(pages).toContain(`${t.baseUrl}/bundled/openapi.json`);
    const all = new Set(pages);
    for (const page of pages.filter((url) => url.endsWith('.md')))
      for (const link of links(await (await fetch(page)).text(), page)) all.add(link);
    const answers = await Promise.all([...all].map(async (url) => [url, (await fetch(url)).status] as const));
    expect(answers.filter(([, status]) => status !== 200)).toEqual([]);
    expect(all.size).toBeGreaterThan(100);
  });

  it('answers a file it does not hold with the API 404', async () => {
    expect(await send('GET', '/tools/nope.md')).toEqual(notFound);
  });
});
