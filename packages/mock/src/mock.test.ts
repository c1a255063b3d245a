// The mock against its running self, and beside the reference server: the refusals and the
// documented 300 messages must be the API's, byte for byte, because both apply the same request
// rules (@marketplace/contract); Prefer still picks examples, and an unknown name gets
// the operation's list of names.
import { connect } from 'node:net';
import { readDocument } from '@marketplace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/src/routes/test-harness.fixture.ts';
import { locateDocument } from './document.ts';
import { documentExamples } from './examples.ts';
import { type MockServer, startMock } from './mock.ts';

const document = readDocument(locateDocument());
/** The login example's JWT: what the mock's login answers. */
const EXAMPLE_JWT: string =
  document.paths['/user/login'].post.responses['200'].content['application/json'].examples.loggedIn.value.content.jwt;
const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwtWith = (claims: object) => `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;

interface Sent {
  method?: string;
  path: string;
  token?: string;
  json?: unknown;
  raw?: { type: string; body: string };
  prefer?: string;
}

async function send(base: string, r: Sent) {
  const headers: Record<string, string> = {};
  if (r.token) headers.authorization = `Bearer ${r.token}`;
  if (r.prefer) headers.prefer = r.prefer;
  let body: string | undefined;
  if (r.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(r.json);
  } else if (r.raw) {
    headers['content-type'] = r.raw.type;
    body = r.raw.body;
  }
  const res = await fetch(`${base}${r.path}`, { method: r.method ?? (body ? 'POST' : 'GET'), headers, body });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: JSON.parse(text) };
}

/** Announces a 100 MB login body over a raw connection, sends none of it, and returns the answer. */
function declareHugeBody(base: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((done, fail) => {
    let answer = '';
    const socket = connect(Number(port), hostname, () =>
      socket.write(
        'POST /user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n',
      ),
    );
    socket.setTimeout(30_000, () => fail(new Error(`no answer from ${base}: ${answer}`)));
    socket.on('data', (chunk) => {
      answer += chunk;
      if (answer.includes('Invalid request body')) {
        socket.destroy();
        done(answer);
      }
    });
    socket.on('error', fail);
  });
}

let mock: MockServer;
let server: TestServer;
let realJwt: string;

beforeAll(async () => {
  [mock, server] = await Promise.all([startMock(), startTestServer()]);
  realJwt = await server.login((await server.user({ balance: 0 })).apiKey);
}, 90_000);
afterAll(async () => {
  await Promise.all([mock?.stop(), server?.close()]);
});

describe('refusals, as the API sends them', () => {
  it.each([
    ['no bearer', undefined],
    ['a bearer that is not a JWT', 'not-a-jwt'],
    ['a JWT whose payload is not JSON', 'eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.c2ln'],
    ['an expired JWT', jwtWith({ sub: '76561198000000001', exp: Math.floor(Date.now() / 1000) - 60 })],
  ])('Given %s on a Connected route, then 403 forbidden in envelope A', async (_name, token) => {
    const answer = await send(mock.url, { path: '/user/getBuyorder', token });
    expect([answer.status, answer.body]).toEqual([403, { err: true, success: false, content: 'forbidden' }]);
    expect(answer.type).toContain('application/json');
  });

  it('Given a JWT that has not expired, or none on a public route, then the example is served', async () => {
    const future = jwtWith({ sub: '76561198000000001', exp: Math.floor(Date.now() / 1000) + 3600 });
    for (const token of [EXAMPLE_JWT, future])
      expect((await send(mock.url, { path: '/user/getBuyorder', token })).status).toBe(200);
    expect((await send(mock.url, { path: '/item/listing/1' })).status).toBe(200);
  });

  it('Given an unknown route, then the API 404 envelope', async () => {
    const [fromMock, fromServer] = await Promise.all([mock.url, server.baseUrl].map((b) => send(b, { path: '/nope' })));
    expect(fromMock).toEqual(fromServer);
  });
});

describe("CORS: the reference server's header set, for every origin", () => {
  const origin = 'http://127.0.0.1:5173';
  const preflight = (base: string) =>
    fetch(`${base}/item/buyorder`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,prefer',
      },
    });
  /** The CORS headers of an answer, the allowed origin aside (the mock allows all: `*`). */
  const corsOf = (res: Response) =>
    Object.fromEntries(
      [...res.headers].filter(([name]) => name.startsWith('access-control-') && name !== 'access-control-allow-origin'),
    );

  it('Given a preflight from a dev server, then the mock answers it as the server in test mode does', async () => {
    const [fromMock, fromServer] = await Promise.all([preflight(mock.url), preflight(server.baseUrl)]);
    expect([fromMock.status, fromServer.status]).toEqual([204, 204]);
    expect(corsOf(fromMock)).toEqual(corsOf(fromServer));
    expect(corsOf(fromMock)['access-control-allow-credentials']).toBeUndefined();
    expect([
      fromMock.headers.get('access-control-allow-origin'),
      fromServer.headers.get('access-control-allow-origin'),
    ]).toEqual(['*', origin]);
  });

  it("Given any origin, then an example and the front's own refusal are readable with the same exposed headers", async () => {
    for (const [path, status] of [
      ['/item/listing/1', 200],
      ['/user/getBuyorder', 403],
    ] as const) {
      const [fromMock, fromServer] = await Promise.all(
        [mock.url, server.baseUrl].map((base) => fetch(`${base}${path}`, { headers: { origin } })),
      );
      expect([fromMock!.status, fromMock!.headers.get('access-control-allow-origin')]).toEqual([status, '*']);
      expect(corsOf(fromMock!)).toEqual(corsOf(fromServer!));
    }
    const elsewhere = await fetch(`${mock.url}/item/listing/1`, { headers: { origin: 'https://app.example.com' } });
    expect(elsewhere.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('requests that break the document get the same answer as from the reference server', () => {
  const cases: [string, Sent][] = [
    ['a login without apiKey', { path: '/user/login', json: {} }],
    ['a body field of the wrong type', { path: '/item/buyorder', json: { itemid: 'a', value: 150, amount: 1 } }],
    ['a missing body field', { path: '/item/buyorder', json: { itemid: 1, value: 150 } }],
    [
      'a value above its documented maximum',
      { path: '/item/buyorder', json: { itemid: 1, value: 150, amount: 10 ** 6 } },
    ],
    [
      'a form body',
      { path: '/item/buyorder', raw: { type: 'application/x-www-form-urlencoded', body: 'itemid=1&value=x&amount=1' } },
    ],
    ['a POST without a body', { method: 'POST', path: '/item/buyorder' }],
    ['malformed JSON', { path: '/item/buyorder', raw: { type: 'application/json', body: '{"itemid":' } }],
    ['a body over its limit', { path: '/item/buyorder', raw: { type: 'application/json', body: ' '.repeat(100_000) } }],
    ['a body of an unsupported type', { path: '/item/buyorder', raw: { type: 'text/plain', body: 'itemid=1' } }],
    ['a missing query parameter', { path: '/item/prices' }],
    ['a query parameter outside its enum', { path: '/item/salesGraph/1?period=2Y' }],
    ['a path parameter of the wrong type', { path: '/item/salesGraph/abc?period=1M' }],
    // Conventions, Text: refused on every backend, so by the mock too.
    ['a body string holding NUL', { path: '/user/updateShortUrl', json: { shortUrl: 'ab\u0000c' } }],
    ['a body string holding an unpaired surrogate', { path: '/support/post', json: { ticket: 1, content: 'x\ud800' } }],
    ['a query parameter holding NUL', { path: '/user/getBuyorder?search=ab%00c' }],
  ];
  it.each(cases)('Given %s', async (_name, request) => {
    const [fromMock, fromServer] = await Promise.all([
      send(mock.url, { ...request, token: EXAMPLE_JWT }),
      send(server.baseUrl, { ...request, token: realJwt }),
    ]);
    expect(fromMock.status).toBe(300);
    expect(fromMock).toEqual(fromServer);
  });

  it('Given a declared length of 100 MB, then the answer comes before the body and the connection is closed', async () => {
    const answers = await Promise.all([mock.url, server.baseUrl].map((base) => declareHugeBody(base)));
    for (const answer of answers)
      expect(answer).toMatch(/^HTTP\/1\.1 300 .*\r\nConnection: close\r\n.*Invalid request body/s);
  });

  it("Given a login without apiKey, then the message is the document's own", async () => {
    const documented = document.paths['/user/login'].post['x-error-messages'].find(
      (m: { field?: string; reason?: string }) => m.field === 'apiKey' && m.reason === 'missing',
    ).message;
    expect((await send(mock.url, { path: '/user/login', json: {} })).body.content).toBe(documented);
  });
});

describe('examples picked with Prefer', () => {
  const buyorder = documentExamples(document).find((o) => o.operationId === 'postItemBuyorder')!;
  const valid = { path: '/item/buyorder', token: EXAMPLE_JWT, json: { itemid: 1, value: 150, amount: 1 } };

  it('Given a documented name, with or without its status, then that example is served', async () => {
    const expected = await send(mock.url, { ...valid, prefer: 'code=300, example=notEnoughBalance' });
    expect([expected.status, expected.body.content]).toEqual([300, 'Not enough balance']);
    expect(await send(mock.url, { ...valid, prefer: 'example=notEnoughBalance' })).toEqual(expected);
  });

  it('Given an unknown name, then 400 with every example name of the operation', async () => {
    const answer = await send(mock.url, { ...valid, prefer: 'code=300, example=noSuchExample' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ err: true, success: false });
    expect(answer.body.content).toContain('"noSuchExample"');
    for (const s of buyorder.statuses) for (const name of s.names) expect(answer.body.content).toContain(name);
    expect(answer.body.content).toContain('Prefer: code=<status>, example=<name>');
  });

  it('Given a status the operation does not document, then 400 with its statuses', async () => {
    const answer = await send(mock.url, { ...valid, prefer: 'code=418' });
    expect(answer.status).toBe(400);
    for (const s of buyorder.statuses) expect(answer.body.content).toContain(`${s.status}:`);
  });
});
