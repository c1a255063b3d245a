// The protocol layer's answers on a connection that has already carried an answered request (kept
// alive, as every pooled client keeps it): each documented answer still arrives. The last response
// on the socket is done, so a parser error of the next request is answered after it, not by closing
// the connection bare (which a client reports as "other side closed").
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closingEnvelope, lastAnswer, PROTOCOL_ERROR_CASES, rawRequest, sendRaw } from './protocol-errors.fixture.ts';
import { protocolServer, refuseMalformed } from './protocol-errors.ts';

/** An app behind the layer's guard that reads a request's whole body, then answers 200. */
function app(req: IncomingMessage, res: ServerResponse): void {
  if (refuseMalformed(req, res)) return;
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
}

let server: Server;
let port: number;
beforeAll(async () => {
  server = protocolServer(app, { requestTimeout: 3000, headersTimeout: 1500 });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

describe('a request Node would answer bare, after an answered request on the same connection', () => {
  it.each(PROTOCOL_ERROR_CASES)(
    '%s: the first answer, then the documented one, the connection closed',
    async (_name, raw, status, content) => {
      const answer = await sendRaw(port, rawRequest('GET /first HTTP/1.1'), raw);
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(answer).toMatch(/\r\nConnection: keep-alive\r\n/i);
      expect(lastAnswer(answer)).toEqual(closingEnvelope(status, content));
    },
    10_000,
  );
});
