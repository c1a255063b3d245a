// The test helpers' flow (helpers-gate.ts) over HTTP with the bundled test-helpers document: a
// helper dispatched by operationId gets its body stripped to the declared fields and its path
// parameters typed, one not written answers as an unknown route, a bad body never reaches it; and
// the router form of projects generated before the dispatch still mounts its helpers by path.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request, Response } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { sendOk } from './envelope.ts';
import { helpersGate, type MountHelpers } from './helpers-gate.ts';
import { NOT_FOUND } from './messages.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

type Seen = { body: unknown; params: unknown };

/** Starts the helpers' flow on a free port; `post` answers `[status, body]`. */
async function start(helpers: Parameters<typeof helpersGate<Seen>>[1]) {
  const app = helpersGate<Seen>({ unexpected: () => {} }, helpers);
  const server: Server = await new Promise((done) => {
    const s = app.listen(0, '127.0.0.1', () => done(s));
  });
  servers.push(server);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (path: string, body: unknown) => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return [res.status, await res.json()] as const;
  };
}

const dispatch = {
  handlers: {
    postTestHelpersGeoip: (seen: Seen) => ({ ok: true, value: seen.body }),
    postTestHelpersPaymentsCashoutId: (seen: Seen) => ({ ok: false, error: `params ${JSON.stringify(seen.params)}` }),
  },
  context: (req: Request, _res: Response, _op: unknown, params: object): Seen => ({ body: req.body, params }),
};

describe('helpersGate: helpers dispatched by operationId', () => {
  it('hands a helper its body stripped to the fields its schema declares', async () => {
    const post = await start(dispatch);
    const [status, body] = await post('/test_helpers/geoip', { ip: '203.0.113.7', country: 'KP', extra: 1 });
    expect([status, body]).toEqual([200, { err: false, success: true, content: { ip: '203.0.113.7', country: 'KP' } }]);
  });

  it("types the path parameters as the document does, and answers a helper's failure with HTTP 300", async () => {
    const post = await start(dispatch);
    const [status, body] = await post('/test_helpers/payments/12', { outcome: 'completed' });
    expect([status, body]).toEqual([300, { err: true, success: false, content: 'params {"cashoutId":12}' }]);
  });

  it('answers a helper not written as an unknown route, and a bad body with its documented message', async () => {
    const post = await start(dispatch);
    expect(await post('/test_helpers/users', {})).toEqual([404, { err: true, success: false, content: NOT_FOUND }]);
    expect(await post('/test_helpers/geoip', { ip: '203.0.113.7', country: 'KPX' })).toEqual([
      300,
      { err: true, success: false, content: 'Invalid country parameter' },
    ]);
  });
});

describe('helpersGate: the router form of earlier generated projects', () => {
  it('mounts the helpers by path behind the same gate and stripping', async () => {
    const mount: MountHelpers = (router) =>
      router.post('/test_helpers/geoip', (req: Request, res: Response) => sendOk(res, 'A', req.body));
    const post = await start(mount);
    expect(await post('/test_helpers/geoip', { ip: '203.0.113.7', country: 'KP', extra: 1 })).toEqual([
      200,
      { err: false, success: true, content: { ip: '203.0.113.7', country: 'KP' } },
    ]);
    expect(await post('/test_helpers/geoip', { ip: '203.0.113.7' })).toEqual([
      300,
      { err: true, success: false, content: 'Invalid country parameter' },
    ]);
    expect(await post('/test_helpers/users', {})).toEqual([404, { err: true, success: false, content: NOT_FOUND }]);
  });
});
