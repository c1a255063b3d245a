// An over-limit body is cut, not drained (issue 24, point 1): the answer goes out the moment a
// body passes its limit or declares a length over it, with `Connection: close`, and the server
// stops reading the socket. Counted on the server's own sockets (`bytesRead`), over raw
// connections that keep sending after the answer as an attacker would.
import type { Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import { composeServer, listen } from '../server.ts';
import { ANONYMOUS_BODY_LIMIT, INVALID_BODY } from './app.ts';
import { bodyLimitOf } from './body-limit.ts';

/** What a server may read past a body's limit: one read of the socket (libuv reads 64 KiB at a time). */
const ONE_BUFFER = 64 * 1024;
/** Room for the request line and headers, read with the body. */
const HEAD_BYTES = 1024;

let server: Server;
let port: number;
let jwt: string;
/** The server's side of every connection, in order of arrival. */
const accepted: Socket[] = [];
let document: { paths: Record<string, Record<string, object>> };

beforeAll(async () => {
  const config = parseConfig({ MARKETPLACE_DB: ':memory:', MARKETPLACE_TEST_MODE: '1' });
  const composed = await composeServer({ config, logger: pino({ level: 'silent' }) });
  document = composed.deps.document;
  server = await listen(composed.app, { port: 0, host: '127.0.0.1' });
  server.on('connection', (socket) => accepted.push(socket));
  port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const user = await fetch(`${base}/test_helpers/users`, { method: 'POST', body: '{}', headers: json });
  const { apiKey } = (await user.json()).content;
  const login = await fetch(`${base}/user/login`, { method: 'POST', body: JSON.stringify({ apiKey }), headers: json });
  jwt = (await login.json()).content.jwt;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

const json = { 'content-type': 'application/json' };

interface Exchange {
  /** The server's whole answer, as text. */
  answer: string;
  /** Body bytes the client managed to hand to its socket before the server closed it. */
  sent: number;
  /** The server's side of the connection. */
  serverSide: Socket;
}

/**
 * Sends `head` over a raw connection, then body bytes in 16 KiB writes for as long as the socket
 * takes them (`endless`, chunked) or none at all; resolves once the server has closed the
 * connection, `lingerMs` after its answer arrived, or fails after `timeoutMs`.
 */
function exchange(head: string, { endless = false, timeoutMs = 30_000 } = {}): Promise<Exchange> {
  const before = accepted.length;
  return new Promise((done, fail) => {
    let answer = '';
    let sent = 0;
    let open = true;
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head);
      const chunk = Buffer.alloc(16 * 1024, 'k');
      const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
      const pump = () => {
        while (endless && open && socket.write(frame)) sent += chunk.length;
      };
      socket.on('drain', pump);
      pump();
    });
    const timer = setTimeout(() => {
      socket.destroy();
      fail(new Error(`no close within ${timeoutMs} ms; answer so far: ${answer.slice(0, 200)}`));
    }, timeoutMs);
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', () => {}); // the server closing while we still send: EPIPE / ECONNRESET
    socket.on('close', () => {
      open = false;
      clearTimeout(timer);
      done({ answer, sent, serverSide: accepted[before]! });
    });
  });
}

const head = (path: string, headers: Record<string, string | number>, method = 'POST') =>
  `${method} ${path} HTTP/1.1\r\nHost: x\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;

/** The answer's status line, `Connection` header and body. */
function parse(answer: string) {
  const [top = '', body = ''] = answer.split('\r\n\r\n');
  return {
    status: Number(top.split(' ')[1]),
    connection: /^connection: (.*)$/im.exec(top)?.[1],
    body: body && top.includes('json') ? JSON.parse(body) : undefined,
  };
}

const refused = { status: 300, connection: 'close', body: { err: true, success: false, content: INVALID_BODY } };

function limitOf(path: string): number {
  return bodyLimitOf(document, document.paths[path]!.post!)!;
}

describe('an endless chunked upload', () => {
  it('to POST /user/login without a JWT is cut at its limit: the server reads it plus one buffer at most', async () => {
    const limit = Math.min(limitOf('/user/login'), ANONYMOUS_BODY_LIMIT);
    const { answer, sent, serverSide } = await exchange(
      head('/user/login', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }),
      { endless: true },
    );
    expect(parse(answer)).toEqual(refused);
    expect(serverSide.bytesRead).toBeGreaterThan(limit);
    expect(serverSide.bytesRead).toBeLessThanOrEqual(limit + ONE_BUFFER + HEAD_BYTES);
    // The client's writes went on into kernel buffers while the server stopped reading.
    expect(sent).toBeGreaterThanOrEqual(serverSide.bytesRead - HEAD_BYTES);
  });

  it('to POST /item/buyorder with a JWT is cut at that operation limit alike', async () => {
    const limit = limitOf('/item/buyorder');
    const { answer, serverSide } = await exchange(
      head('/item/buyorder', {
        Authorization: `Bearer ${jwt}`,
        'Content-Type': 'application/json',
        'Transfer-Encoding': 'chunked',
      }),
      { endless: true },
    );
    expect(parse(answer)).toEqual(refused);
    expect(serverSide.bytesRead).toBeLessThanOrEqual(limit + ONE_BUFFER + HEAD_BYTES);
  });
});

describe('a declared length over the limit', () => {
  it('of 100 MB gets its answer before a byte of the body is sent, and the connection closed', async () => {
    const { answer, serverSide } = await exchange(
      head('/support/create', {
        Authorization: `Bearer ${jwt}`,
        'Content-Type': 'application/json',
        'Content-Length': 100_000_000,
      }),
    );
    expect(parse(answer)).toEqual({ ...refused, body: { status: 'error', message: INVALID_BODY } });
    expect(serverSide.bytesRead).toBeLessThan(HEAD_BYTES + jwt.length);
  });

  it('from a caller without a JWT is refused at its 16 KB, whatever the route admits', async () => {
    const { answer } = await exchange(
      head('/user/login', { 'Content-Type': 'application/json', 'Content-Length': ANONYMOUS_BODY_LIMIT + 1 }),
    );
    expect(parse(answer)).toEqual(refused);
  });
});

describe('a body the server does not read', () => {
  it.each([
    ['an unsupported content type', { 'Content-Type': 'text/plain' }],
    ['no content type', {}],
    ['an unknown content encoding', { 'Content-Type': 'application/json', 'Content-Encoding': 'compress' }],
  ])('with %s is refused unread, the connection closed', async (_name, headers) => {
    const { answer, serverSide } = await exchange(head('/user/login', { ...headers, 'Content-Length': 1_000_000 }));
    expect(parse(answer)).toEqual(refused);
    expect(serverSide.bytesRead).toBeLessThan(HEAD_BYTES);
  });
});

describe('a body nobody reads', () => {
  it.each([
    ['an unknown route', 'POST', '/no/such/route', 404],
    ['a route that takes no body', 'GET', '/user/balance', 200],
  ])('sent endlessly to %s is cut by the answer', async (_name, method, path, status) => {
    const headers = {
      Authorization: `Bearer ${jwt}`,
      'Content-Type': 'application/json',
      'Transfer-Encoding': 'chunked',
    };
    const { answer, serverSide } = await exchange(head(path, headers, method), { endless: true });
    expect(parse(answer)).toMatchObject({ status, connection: 'close' });
    expect(serverSide.bytesRead).toBeLessThanOrEqual(ONE_BUFFER + HEAD_BYTES + jwt.length);
  });
});
