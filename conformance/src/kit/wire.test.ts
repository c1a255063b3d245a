// The suite's wire gives a test what fetch gave it: redirects followed, compressed bodies decoded,
// `accept: */*` unless the test sends its own, repeated headers joined, the body sent as given.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from './wire.ts';

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
  res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
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

  it("keeps the test's own accept header", async () => {
    const a = await send('GET', new URL('/echo', base), { Accept: 'text/csv' }, undefined);
    expect(JSON.parse(a.text).headers.accept).toBe('text/csv');
  });

  it.each(['gzip', 'deflate', 'br'])('decodes a %s body', async (coding) => {
    const a = await send('GET', new URL(`/${coding}`, base), {}, undefined);
    expect(a.text).toBe(JSON_BODY);
  });

  it('follows a redirect, as fetch does', async () => {
    const a = await send('GET', new URL('/moved', base), {}, undefined);
    expect(a.status).toBe(200);
    expect(JSON.parse(a.text).url).toBe('/echo?from=moved');
  });
});
