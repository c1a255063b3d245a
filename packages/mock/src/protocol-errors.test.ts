// The mock answers a request it cannot read as HTTP as the reference server does (issue 23: one
// gate for both, ADR 0026): the same raw requests (the contract's protocol-errors.fixture.ts) get
// the document's answer (`x-protocol-errors`) in envelope A from each, where Node alone would
// answer a bare status line or nothing.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closingEnvelope,
  lastAnswer,
  PROTOCOL_ERROR_CASES,
  sendRaw,
} from '../../contract/src/protocol-errors.fixture.ts';
import { parseConfig } from '../../server/src/config.ts';
import { composeServer, listen } from '../../server/src/server.ts';
import { type MockServer, startMock } from './mock.ts';

const timeouts = { requestTimeout: 3000, headersTimeout: 1500 };
let mock: MockServer;
let mockPort: number;
let server: Server;
let serverPort: number;

beforeAll(async () => {
  const config = parseConfig({ MARKETPLACE_DB: ':memory:', MARKETPLACE_TEST_MODE: '1' });
  const { app } = await composeServer({ config, logger: pino({ level: 'silent' }) });
  [mock, server] = await Promise.all([
    startMock({ log: () => {}, ...timeouts }),
    listen(app, { port: 0, host: '127.0.0.1', ...timeouts }),
  ]);
  mockPort = Number(new URL(mock.url).port);
  serverPort = (server.address() as AddressInfo).port;
}, 90_000);
afterAll(async () => {
  server?.closeAllConnections();
  await Promise.all([mock?.stop(), server && new Promise((done) => server.close(done))]);
});

describe('a request Node would answer bare, sent to the mock and to the reference server', () => {
  it.each(PROTOCOL_ERROR_CASES)(
    '%s: the same documented answer in envelope A, the connection closed',
    async (_name, raw, status, content) => {
      const [fromMock, fromServer] = await Promise.all([sendRaw(mockPort, raw), sendRaw(serverPort, raw)]);
      expect(lastAnswer(fromMock)).toEqual(closingEnvelope(status, content));
      expect(lastAnswer(fromServer)).toEqual(lastAnswer(fromMock));
    },
  );
});
