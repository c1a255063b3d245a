// Answers before the pipeline (issue 24, point 4): every request Node or Express would answer
// bare (or not at all) gets the document's answer (`x-protocol-errors`) in envelope A, sent here
// over a raw socket as a broken client or a scanner would send it.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closingEnvelope,
  lastAnswer,
  PROTOCOL_ERROR_CASES,
  rawRequest,
  sendRaw,
} from '../../../contract/src/protocol-errors.fixture.ts';
import { parseConfig } from '../config.ts';
import { LOGIN, NOT_FOUND } from '../domain/messages.ts';
import { composeServer, listen } from '../server.ts';

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

const send = (raw: string, more?: string) => sendRaw(port, raw, more);

describe('a request Node would answer bare', () => {
  it.each(PROTOCOL_ERROR_CASES)(
    '%s: the documented answer in envelope A, the connection closed',
    async (_name, raw, status, content) => {
      expect(lastAnswer(await send(raw))).toEqual(closingEnvelope(status, content));
    },
  );
});

describe('requests Express would have answered its own way', () => {
  it.each([
    [
      'PUT on a path the document has only for GET',
      rawRequest('PUT /user/balance HTTP/1.1', ['Host: x', 'Connection: close']),
      404,
      NOT_FOUND,
    ],
    ['TRACE', rawRequest('TRACE / HTTP/1.1', ['Host: x', 'Connection: close']), 404, NOT_FOUND],
    [
      'a path parameter with invalid percent-encoding',
      rawRequest('GET /item/listing/%E0%A4%A HTTP/1.1', ['Host: x', 'Connection: close']),
      300,
      'Invalid item parameter',
    ],
  ])('%s: an answer in envelope A', async (_name, raw, status, content) => {
    expect(lastAnswer(await send(raw))).toEqual(closingEnvelope(status, content));
  });

  it('HTTP/1.0 without Host is answered, and its connection closed', async () => {
    expect(lastAnswer(await send('GET /item/listing/1 HTTP/1.0\r\n\r\n'))).toEqual({
      status: 200,
      connection: 'close',
      body: { err: false, success: true, content: [] },
    });
  });
});

describe('Expect: 100-continue', () => {
  const login = (length: number) =>
    rawRequest('POST /user/login HTTP/1.1', [
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
    expect(lastAnswer(answer)).toMatchObject({ status: 403, body: { content: LOGIN.invalidApiKey } });
  });

  it('a body declared over its limit: the refusal, and no 100 Continue', async () => {
    const answer = await send(login(1_000_000));
    expect(answer).not.toContain('100 Continue');
    expect(lastAnswer(answer)).toEqual(closingEnvelope(300, 'Invalid request body'));
  });
});
