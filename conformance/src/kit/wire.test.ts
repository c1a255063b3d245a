// The suite's wire gives a test what fetch gave it: redirects followed, compressed bodies decoded,
// `accept: */*` unless the test sends its own, repeated headers joined, the body sent as given.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillHeaderFields, send } from './wire.ts';

const JSON_BODY = JSON.stringify({ err: false, success: true, content: { name: 'Mann Co. Key ✓' } });

/** What the test server answers on each path, and what it was sent. */
function answer(req: IncomingMessage, body: string, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://x');
  const encoded = (coding: string, data: Buffer) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
    res.end(data);
  };
  if (url.pathname === '/gzip') return encoded('gzip', gzipSync(JSON_BODY));
  if (url.pathname === '/deflate') return encoded('deflate', deflateSync(JSON_BODY));
  if (url.pathname === '/br') return encoded('br', brotliCompressSync(JSON_BODY));
  if (url.pathname === '/moved') {
    res.writeHead(302, { location: '/echo?from=moved' });
    return res.end();
  }
  res.writeHead(200, { 'content-type': 'application/json', 'x-twice': ['a', 'b'] });
  res.end(
    JSON.stringify({ method: req.method, url: req.url, headers: req.headers, fields: req.rawHeaders.length / 2, body }),
  );
}

let base: URL;
const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => answer(req, body, res));
});
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('send', () => {
  it('sends the method, headers and body as given, accept */* by default, and reads repeated headers joined', async () => {
    const a = await send('POST', new URL('/echo?q=1', base), { 'content-type': 'application/json' }, '{"a":"é"}');
    const echoed = JSON.parse(a.text);
    expect(a.status).toBe(200);
    expect(echoed).toMatchObject({ method: 'POST', url: '/echo?q=1', body: '{"a":"é"}' });
    expect(echoed.headers).toMatchObject({ accept: '*/*', 'content-type': 'application/json' });
    expect(a.headers['x-twice']).toBe('a, b');
    expect(a.headers['content-type']).toBe('application/json');
  });

  it('sends a body chunked when asked: Transfer-Encoding chunked, no Content-Length, the same bytes', async () => {
    const body = '{"apiKey":"é-key"}';
    const [plain, chunked] = await Promise.all(
      [false, true].map(async (c) =>
        JSON.parse((await send('POST', new URL('/echo', base), { 'content-type': 'application/json' }, body, c)).text),
      ),
    );
    expect(plain.headers).toMatchObject({ 'content-length': String(Buffer.byteLength(body)) });
    expect(plain.headers['transfer-encoding']).toBeUndefined();
    expect(chunked.headers).toMatchObject({ 'transfer-encoding': 'chunked', 'content-type': 'application/json' });
    expect(chunked.headers['content-length']).toBeUndefined();
    expect(chunked.body).toBe(body);
  });

  it("keeps the test's own accept header", async () => {
    const a = await send('GET', new URL('/echo', base), { Accept: 'text/csv' }, undefined);
    expect(JSON.parse(a.text).headers.accept).toBe('text/csv');
  });

  it.each(['gzip', 'deflate', 'br'])('decodes a %s body', async (coding) => {
    const a = await send('GET', new URL(`/${coding}`, base), {}, undefined);
    expect(a.text).toBe(JSON_BODY);
  });

  // A limit on header fields ("more than 100": 431) is shown at 100 and 101 fields as sent.
  it.each([
    ['GET', {}, undefined],
    ['POST', { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.1' }, '{"apiKey":"k"}'],
    ['POST', { Accept: 'text/csv' }, undefined],
    ['DELETE', { authorization: 'Bearer t' }, undefined],
    ['DELETE', {}, '{"id":1}'],
  ] as const)('fills a %s request with %o to exactly the header fields asked for', async (method, headers, body) => {
    for (const count of [100, 101]) {
      const a = await send(method, new URL('/echo', base), fillHeaderFields(count, method, headers, body), body);
      expect([count, JSON.parse(a.text).fields]).toEqual([count, count]);
    }
  });

  it('refuses to fill a request that has more header fields than asked for', () => {
    expect(() => fillHeaderFields(3, 'POST', { a: '1' }, 'x')).toThrow(
      'the request has 5 header fields on the wire, more than 3',
    );
  });

  it('follows a redirect, as fetch does', async () => {
    const a = await send('GET', new URL('/moved', base), {}, undefined);
    expect(a.status).toBe(200);
    expect(JSON.parse(a.text).url).toBe('/echo?from=moved');
  });
});

// A target may answer before it reads a request's body (431 for too many header fields, 300 for a
// body over its limit) and close the connection: the test must get that answer, not a network error.
/** A server that answers GET /first 200 (kept alive), any other request 431 at its head, then drops the connection unread. */
async function earlyAnswering(answer: string) {
  let connections = 0;
  const raw = createNetServer((socket: Socket) => {
    connections++;
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const line = head.slice(0, head.indexOf('\r\n'));
      head = head.slice(end + 4);
      if (line.startsWith('GET /first ')) return void socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
      socket.off('data', onData);
      socket.pause();
      socket.write(
        `HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/json\r\nContent-Length: ${answer.length}\r\nConnection: close\r\n\r\n${answer}`,
      );
      socket.destroy();
    };
    socket.on('data', onData);
    socket.on('error', () => {});
  });
  await new Promise<void>((done) => raw.listen(0, '127.0.0.1', done));
  return {
    url: new URL(`http://127.0.0.1:${(raw.address() as AddressInfo).port}`),
    connections: () => connections,
    close: () => new Promise<void>((done) => raw.close(() => done())),
  };
}

// A target may answer before it reads a request's body (431 for too many header fields, 300 for a
// body over its limit) and close the connection: the test gets that answer, not a network error.
describe('send, answered before the body is read', () => {
  const ANSWER = '{"err":true,"success":false,"content":"Request header fields too large"}';

  it.each([
    ['a small body', 1],
    ['a body larger than the socket buffers', 4_000_000],
  ])('%s, on a connection kept alive and on a fresh one: the answer, as sent', async (_name, size) => {
    // A server of its own: the suite's pool holds no connection to it yet.
    const early = await earlyAnswering(ANSWER);
    try {
      const body = JSON.stringify({ apiKey: 'k'.repeat(size) });
      const login = () => send('POST', new URL('/user/login', early.url), { 'content-type': 'application/json' }, body);
      expect(await send('GET', new URL('/first', early.url), {}, undefined)).toMatchObject({ status: 200 });
      // undici's pool takes a connection back a few event-loop turns after its answer.
      await new Promise((done) => setTimeout(done, 50));
      const kept = await login();
      expect(early.connections(), 'the login went on the connection kept alive').toBe(1);
      const fresh = await login();
      expect(early.connections(), 'the next login opened a connection').toBe(2);
      for (const a of [kept, fresh]) {
        expect(a).toMatchObject({ status: 431, text: ANSWER });
        expect(a.headers.connection).toBe('close');
      }
    } finally {
      await early.close();
    }
  });
});
