// The test-helper routes of shared/test-helpers.md (openapi/test-helpers.yaml), mounted only in
// test mode. They bypass permissions and rate limits, answer envelope A, and a bad request gets
// HTTP 300 with a message string. Bodies are read, validated and stripped to their declared fields
// by the helpers' gate (@marketplace/contract's helpers-gate.ts): what a handler checks here are the rules of the state.

import { helpersGate, sendError, sendOk } from '@marketplace/contract';
import express, { type Request, type Response } from 'express';
import { placeOrder } from '../domain/buy-orders.ts';
import { putAsset, putItem } from '../domain/catalog.ts';
import { populate } from '../domain/population.ts';
import { emptyState } from '../domain/state.ts';
import { totpAt } from '../domain/two-factor.ts';
import type { Result, Tx } from '../domain/tx.ts';
import { createUser, newPlatformId } from '../domain/users.ts';
import type { ServerDeps } from '../http/deps.ts';
import { execute } from '../http/execute.ts';
import { reportPayment, settleOffer } from './test-helpers-settle.ts';

// biome-ignore lint/suspicious/noExplicitAny: helper bodies were validated against their schemas by the gate
type Body = any;

/** The test-helpers router; every path is under /test_helpers. */
export function testHelpersRouter(deps: ServerDeps): express.Router {
  const router = express.Router();
  const helpers = helpersGate(
    {
      unexpected: (err, req) => deps.logger.error({ err, path: req.path, method: req.method }, 'test helper failed'),
      trustProxy: deps.config.trustProxy,
    },
    (app) => mountHelpers(app, deps),
  );
  // Every /test_helpers/ path is the helpers' (an unknown one answers 404 there); the rest is the API's.
  router.use((req, res, next) => (req.path.startsWith('/test_helpers/') ? helpers(req, res, next) : next()));
  return router;
}

function mountHelpers(router: express.Router, deps: ServerDeps): void {
  const reply = (res: Response, result: Result<unknown>) =>
    result.ok ? sendOk(res, 'A', result.value) : sendError(res, 'A', result.error, 300);
  const bad = (error: string): Result<never> => ({ ok: false, error });
  const run = <T>(command: (tx: Tx) => Result<T>): Promise<Result<T>> => execute(deps, command);
  // What a helper wrote to the shared world (clock, geo-IP, inventories, settlements) is visible
  // to every instance before it answers.
  const post = (path: string, handler: (body: Body, req: Request) => Promise<Result<unknown>> | Result<unknown>) =>
    router.post(`/test_helpers${path}`, async (req, res) => {
      const result = await handler(req.body ?? {}, req);
      await deps.world.flush();
      reply(res, result);
    });

  post('/reset', async () => {
    await deps.store.replace(emptyState());
    await deps.limiter.clear();
    // The outbox, geo-IP table, simulators and test clock of every instance.
    await deps.world.clear();
    deps.caches.clear();
    return { ok: true, value: { ok: true } };
  });

  post('/users', (b: Body) => {
    const platformId = b.platformId ?? newPlatformId(deps.random.digits);
    const apiKey = deps.random.hex(24);
    return run((tx) => {
      if (tx.get('users', platformId)) return bad('platformId already exists');
      createUser(tx, b, apiKey, platformId, deps.clock.now());
      return { ok: true, value: { platformId, apiKey } };
    });
  });

  post('/items', (b: Body) => {
    return run((tx) =>
      b.id && tx.get('items', b.id) ? bad('Item id already exists') : { ok: true, value: putItem(tx, b) },
    );
  });

  post('/assets', (b: Body) =>
    run((tx) => {
      if (!tx.get('users', b.owner)) return bad('Unknown user');
      if (!tx.get('items', b.itemId)) return bad('Unknown item');
      return { ok: true, value: putAsset(tx, b, deps.clock.now()) };
    }),
  );

  post('/buyorders', (b: Body) =>
    run((tx) => {
      if (!tx.get('users', b.owner)) return bad('Unknown user');
      return placeOrder(tx, {
        owner: b.owner,
        itemId: b.itemId,
        price: b.price,
        amount: b.amount,
        now: deps.clock.now(),
      });
    }),
  );

  post('/population', async (b: Body) => {
    const result = populate(deps.store.state, {
      users: b.users,
      items: b.items,
      assets: b.assets,
      listedShare: b.listedShare ?? 0.5,
      buyOrders: b.buyOrders ?? 0,
      balance: b.balance ?? 1_000_000,
      now: deps.clock.now(),
    });
    // One durable step: the whole state is written at once as a new snapshot file (a journal line
    // would be too large, and a snapshot merges only what the journal holds: ADR 10).
    if (result.ok) await deps.store.replace(deps.store.state);
    return result;
  });

  post('/clock', async (b: Body) => {
    const clock = deps.testClock;
    if (!clock) return bad('The clock is not controllable');
    // The schema admits exactly one of the two (oneOf).
    if (b.advance !== undefined) await clock.advance(b.advance);
    else clock.set(b.set);
    return { ok: true, value: { now: clock.now() } };
  });
  router.get('/test_helpers/clock', (_req, res) => sendOk(res, 'A', { now: deps.clock.now() }));

  router.get('/test_helpers/outbox', (req, res) => {
    const channel = req.query.channel as string | undefined;
    sendOk(res, 'A', {
      messages: deps.outbox.list({ channel: channel as 'email' | undefined, to: req.query.to as string | undefined }),
    });
  });

  post('/geoip', (b: Body) => {
    deps.geoip.set(b.ip, b.country);
    return { ok: true, value: { ip: b.ip, country: b.country.toUpperCase() } };
  });

  post('/platform/inventory', (b: Body) => {
    if (!deps.store.state.users[b.platformId]) return bad('Unknown user');
    if (!b.assets.every((a: Body) => deps.store.state.items[String(a.itemId)])) return bad('Unknown item');
    deps.platform.setInventory(b.platformId, b.game, b.assets);
    return { ok: true, value: { count: b.assets.length } };
  });
  router.get('/test_helpers/platform/offers', (req, res) =>
    sendOk(res, 'A', { offers: deps.platform.offers(req.query.platformId as string | undefined) }),
  );
  post('/platform/offers/:tradeId', (b: Body, req) => {
    return settleOffer(deps, String(req.params.tradeId), b.outcome);
  });
  post('/payments/:cashoutId', (b: Body, req) => {
    const id = Number(req.params.cashoutId);
    if (!Number.isSafeInteger(id)) return bad('Unknown cashout');
    return reportPayment(deps, id, b.outcome);
  });

  // Ours (not in shared/test-helpers.md): the authenticator app's code, so the 2FA workflow of
  // openapi/workflows/ can run end to end (Arazzo cannot compute an HMAC).
  post('/totp', (b: Body) => {
    const now = deps.clock.now();
    return { ok: true, value: { code: totpAt(b.secret, now), now } };
  });
}
