// Answers before the pipeline (issue 24, point 4): every request Node or Express would answer
// bare (or not at all) gets the document's answer (`x-protocol-errors`) in envelope A, sent here
// over a raw socket as a broken client or a scanner would send it.
import type { Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import { LOGIN, NOT_FOUND, PROTOCOL } from '../domain/messages.ts';
import { composeServer, listen } from '../server.ts';
import { MAX_HEADER_BYTES, MAX_HEADER_FIELDS } from './protocol-errors.ts';

let server: Server;
let port: number;
beforeAll(async () => {
  const config = parseConfig({ MARKETPLACE_DB: ':memory:', MARKETPLACE_TEST_MODE: '1' });
  const { app } = await composeServer({ config, logger: pino({ level: 'silent' }) });
  server = await listen(app, { port: 0, host: '127.0.0.1', requestTimeout: 3000, headersTimeout: 1500 });
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

/** Sends `raw` (then `more` once the server has answered anything) and resolves with all it answered, once it closes. */
function send(raw: string, more?: string): Promise<string> {
  return new Promise((done, fail) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    socket.setTimeout(20_000, () => {
      socket.destroy();
      fail(new Error(`no close; answer so far: ${answer.slice(0, 200)}`));
    });
    socket.on('data', (chunk) => {
      if (!answer && more) socket.write(more);
      answer += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => done(answer));
  });
}

/** Status, `Connection` header and JSON body of the last answer in `text` (after a `100 Continue`). */
function last(text: string) {
  const answers = text.split(/(?=HTTP\/1\.1 )/);
  const [head = '', body = ''] = answers.at(-1)!.split('\r\n\r\n');
  return {
    status: Number(head.split(' ')[1]),
    connection: /^connection: (.*)$/im.exec(head)?.[1]?.toLowerCase(),
    body: JSON.parse(body),
  };
}

const envelope = (status: number, content: string) => ({
  status,
  connection: 'close',
  body: { err: true, success: false, content },
});

const request = (line: string, headers: string[] = ['Host: x']) =>
  `${line}\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`;

describe('a request Node would answer bare', () => {
  it.each([
    [
      `headers over ${MAX_HEADER_BYTES} bytes`,
      request('GET /item/listing/1 HTTP/1.1', ['Host: x', `X-Big: ${'a'.repeat(MAX_HEADER_BYTES)}`]),
      431,
      PROTOCOL.headersTooLarge,
    ],
    [
      `more than ${MAX_HEADER_FIELDS} header fields`,
      request('GET /item/listing/1 HTTP/1.1', [
        'Host: x',
        ...Array.from({ length: MAX_HEADER_FIELDS }, (_, i) => `h${i}: 1`),
      ]),
      431,
      PROTOCOL.headersTooLarge,
    ],
    ['a malformed request line', 'GARBAGE\r\n\r\n', 400, PROTOCOL.badRequest],
    ['a method HTTP does not define', request('FOO /user/balance HTTP/1.1'), 400, PROTOCOL.badRequest],
    ['HTTP/3.0', request('GET /item/listing/1 HTTP/3.0'), 400, PROTOCOL.badRequest],
    ['the HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 400, PROTOCOL.badRequest],
    [
      'an HTTP/1.1 request without Host',
      request('GET /item/listing/1 HTTP/1.1', ['Connection: keep-alive']),
      400,
      PROTOCOL.badRequest,
    ],
    [
      'both Content-Length and Transfer-Encoding',
      request('POST /user/login HTTP/1.1', ['Host: x', 'Content-Length: 2', 'Transfer-Encoding: chunked']) +
        '0\r\n\r\n',
      400,
      PROTOCOL.badRequest,
    ],
    [
      'a malformed chunked body',
      `${request('POST /user/login HTTP/1.1', ['Host: x', 'Content-Type: application/json', 'Transfer-Encoding: chunked'])}ZZ\r\nabc\r\n`,
      400,
      PROTOCOL.badRequest,
    ],
    [
      'an Expect other than 100-continue',
      request('POST /user/login HTTP/1.1', ['Host: x', 'Expect: teapot', 'Content-Length: 0']),
      417,
      PROTOCOL.expectationFailed,
    ],
    ['CONNECT', request('CONNECT example.com:443 HTTP/1.1', ['Host: example.com:443']), 404, NOT_FOUND],
    ['a headers timeout', 'GET /item/listing/1 HTTP/1.1\r\nHost: x\r\n', 408, PROTOCOL.timeout],
  ])('%s: the documented answer in envelope A, the connection closed', async (_name, raw, status, content) => {
    expect(last(await send(raw))).toEqual(envelope(status, content));
  });
});

describe('requests Express would have answered its own way', () => {
  it.each([
    [
      'PUT on a path the document has only for GET',
      request('PUT /user/balance HTTP/1.1', ['Host: x', 'Connection: close']),
      404,
      NOT_FOUND,
    ],
    ['TRACE', request('TRACE / HTTP/1.1', ['Host: x', 'Connection: close']), 404, NOT_FOUND],
    [
      'a path parameter with invalid percent-encoding',
      request('GET /item/listing/%E0%A4%A HTTP/1.1', ['Host: x', 'Connection: close']),
      300,
      'Invalid item parameter',
    ],
  ])('%s: an answer in envelope A', async (_name, raw, status, content) => {
    expect(last(await send(raw))).toEqual(envelope(status, content));
  });

  it('HTTP/1.0 without Host is answered, and its connection closed', async () => {
    expect(last(await send('GET /item/listing/1 HTTP/1.0\r\n\r\n'))).toEqual({
      status: 200,
      connection: 'close',
      body: { err: false, success: true, content: [] },
    });
  });
});

describe('Expect: 100-continue', () => {
  const login = (length: number) =>
    request('POST /user/login HTTP/1.1', [
      'Host: x',
      'Content-Type: application/json',
      `Content-Length: ${length}`,
      'Expect: 100-continue',
      'Connection: close',
    ]);

  it('gets 100 Continue when the body is to be read, then the answer to the body', async () => {
    const body = '{"apiKey":"nobody"}';
    const answer = await send(login(body.length), body);
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    expect(last(answer)).toMatchObject({ status: 403, body: { content: LOGIN.invalidApiKey } });
  });

  it('a body declared over its limit: the refusal, and no 100 Continue', async () => {
    const answer = await send(login(1_000_000));
    expect(answer).not.toContain('100 Continue');
    expect(last(answer)).toEqual(envelope(300, 'Invalid request body'));
  });
});
