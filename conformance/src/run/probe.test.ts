// The target check accepts a partial implementation: one of its two requests answered in an
// envelope of the API is enough (the other route may be missing, behind a framework's 404 page);
// a target answering neither in an envelope is refused, naming the first.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { probeTarget } from './probe.ts';

/** A server answering the listing count with a framework 404 page and the login as `login` says. */
async function withServer(login: { status: number; type: string; body: string }, use: (url: string) => Promise<void>) {
  const server = createServer((req, res) => {
    const answer = req.url === '/user/login' ? login : { status: 404, type: 'text/html', body: '<h1>Cannot GET</h1>' };
    res.writeHead(answer.status, { 'content-type': answer.type });
    res.end(answer.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((done) => server.close(done));
  }
}

describe('probeTarget', () => {
  it('Given the listing count missing (a framework 404 page) and the login in envelope A, then the target is this API', () =>
    withServer(
      {
        status: 300,
        type: 'application/json',
        body: '{"err":true,"success":false,"content":"Missing required parameter: apiKey"}',
      },
      async (url) => expect(await probeTarget(url)).toBeUndefined(),
    ));

  it('Given neither route in an envelope, then the first answer is named', () =>
    withServer({ status: 404, type: 'text/html', body: '<h1>Cannot POST</h1>' }, async (url) =>
      expect(await probeTarget(url)).toBe(
        `the target ${url} answered text/html 404 to GET /item/listing/count/1: is this the Item Marketplace API?`,
      ),
    ));
});
