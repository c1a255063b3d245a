// The test-helper routes of shared/test-helpers.md (openapi/test-helpers.yaml), mounted only in
// test mode. They bypass permissions and rate limits, answer envelope A, and a bad request gets
// HTTP 300 with a message string.

import { sendError, sendOk } from '@marketplace/contract';
import express, { type Request, type Response } from 'express';
import { placeOrder } from '../domain/buy-orders.ts';
import { putAsset, putItem } from '../domain/catalog.ts';
import { NOT_FOUND } from '../domain/messages.ts';
import { POPULATION_LIMITS, populate } from '../domain/population.ts';
import { emptyState } from '../domain/state.ts';
import { totpAt } from '../domain/two-factor.ts';
import type { Result, Tx } from '../domain/tx.ts';
import { createUser, newPlatformId } from '../domain/users.ts';
import type { ServerDeps } from '../http/deps.ts';
import { execute } from '../http/execute.ts';
import { reportPayment, settleOffer } from './test-helpers-settle.ts';

// biome-ignore lint/suspicious/noExplicitAny: helper bodies are checked field by field here
type Body = any;
const isInt = (v: unknown) => Number.isSafeInteger(v);
/** A population's opening balance per user: 100,000 users of it stay within safe integer cents. */
const POPULATION_BALANCE_MAX = 10_000_000_000;

/** The test-helpers router; every path is under /test_helpers. */
export function testHelpersRouter(deps: ServerDeps): express.Router {
  const router = express.Router();
  // The API reads bodies per operation (http/app.ts); the helpers read their own.
  router.use('/test_helpers', express.json({ limit: '10mb' }), express.urlencoded({ extended: true, limit: '10mb' }));
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
    if (b.balance !== undefined && (!isInt(b.balance) || b.balance < 0)) return bad('Invalid balance parameter');
    if (b.platformId !== undefined && !/^[0-9]{17}$/.test(String(b.platformId)))
      return bad('Invalid platformId parameter');
    if (
      b.paymentMethods !== undefined &&
      !(
        Array.isArray(b.paymentMethods) &&
        b.paymentMethods.every((m: unknown) => m === 'provider_a' || m === 'provider_b')
      )
    )
      return bad('Invalid paymentMethods parameter');
    const platformId = b.platformId ?? newPlatformId(deps.random.digits);
    const apiKey = deps.random.hex(24);
    return run((tx) => {
      if (tx.get('users', platformId)) return bad('platformId already exists');
      createUser(tx, b, apiKey, platformId, deps.clock.now());
      return { ok: true, value: { platformId, apiKey } };
    });
  });

  post('/items', (b: Body) => {
    if (typeof b.name !== 'string' || !b.name) return bad('Missing required parameter: name');
    if (![440, 730, 570, 252490, 753].includes(b.game)) return bad('Invalid game parameter');
    if (b.id !== undefined && (!isInt(b.id) || b.id < 1)) return bad('Invalid id parameter');
    return run((tx) =>
      b.id && tx.get('items', b.id) ? bad('Item id already exists') : { ok: true, value: putItem(tx, b) },
    );
  });

  post('/assets', (b: Body) =>
    run((tx) => {
      if (!tx.get('users', String(b.owner))) return bad('Unknown user');
      if (!isInt(b.itemId) || !tx.get('items', b.itemId)) return bad('Unknown item');
      if (b.price !== undefined && (!isInt(b.price) || b.price < 1)) return bad('Invalid price parameter');
      return { ok: true, value: putAsset(tx, { ...b, owner: String(b.owner) }, deps.clock.now()) };
    }),
  );

  post('/buyorders', (b: Body) =>
    run((tx) => {
      if (!tx.get('users', String(b.owner))) return bad('Unknown user');
      if (![b.itemId, b.price, b.amount].every((v) => isInt(v) && v > 0)) return bad('Invalid parameters');
      return placeOrder(tx, {
        owner: String(b.owner),
        itemId: b.itemId,
        price: b.price,
        amount: b.amount,
        now: deps.clock.now(),
      });
    }),
  );

  post('/population', async (b: Body) => {
    for (const field of ['users', 'items', 'assets'] as const) {
      const max = POPULATION_LIMITS[field];
      if (!isInt(b[field]) || b[field] < 0 || b[field] > max)
        return bad(`Invalid ${field} parameter: an integer from 0 to ${max}`);
    }
    const listedShare = b.listedShare ?? 0.5;
    if (typeof listedShare !== 'number' || !(listedShare >= 0 && listedShare <= 1))
      return bad('Invalid listedShare parameter: a number from 0 to 1');
    const buyOrders = b.buyOrders ?? 0;
    if (!isInt(buyOrders) || buyOrders < 0) return bad('Invalid buyOrders parameter: an integer from 0');
    const balance = b.balance ?? 1_000_000;
    if (!isInt(balance) || balance < 0 || balance > POPULATION_BALANCE_MAX)
      return bad(`Invalid balance parameter: an integer from 0 to ${POPULATION_BALANCE_MAX}`);
    const result = populate(deps.store.state, {
      users: b.users,
      items: b.items,
      assets: b.assets,
      listedShare,
      buyOrders,
      balance,
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
    if (isInt(b.advance)) await clock.advance(b.advance);
    else if (isInt(b.set) && b.set >= 0) clock.set(b.set);
    else return bad('Send advance or set');
    return { ok: true, value: { now: clock.now() } };
  });
  router.get('/test_helpers/clock', (_req, res) => sendOk(res, 'A', { now: deps.clock.now() }));

  router.get('/test_helpers/outbox', (req, res) => {
    const channel = req.query.channel as string | undefined;
    if (channel !== undefined && !['email', 'moderation', 'affiliate'].includes(channel))
      return sendError(res, 'A', 'Invalid channel parameter', 300);
    sendOk(res, 'A', {
      messages: deps.outbox.list({ channel: channel as 'email' | undefined, to: req.query.to as string | undefined }),
    });
  });

  post('/geoip', (b: Body) => {
    if (typeof b.ip !== 'string' || !b.ip) return bad('Invalid ip parameter');
    if (typeof b.country !== 'string' || !/^[A-Za-z]{2}$/.test(b.country)) return bad('Invalid country parameter');
    deps.geoip.set(b.ip, b.country);
    return { ok: true, value: { ip: b.ip, country: b.country.toUpperCase() } };
  });

  post('/platform/inventory', (b: Body) => {
    if (!deps.store.state.users[String(b.platformId)]) return bad('Unknown user');
    if (![440, 730, 570, 252490].includes(b.game)) return bad('Invalid game parameter');
    if (!Array.isArray(b.assets) || !b.assets.every((a: Body) => typeof a?.assetId === 'string' && isInt(a?.itemId)))
      return bad('Invalid assets parameter');
    if (!b.assets.every((a: Body) => deps.store.state.items[String(a.itemId)])) return bad('Unknown item');
    deps.platform.setInventory(String(b.platformId), b.game, b.assets);
    return { ok: true, value: { count: b.assets.length } };
  });
  router.get('/test_helpers/platform/offers', (req, res) =>
    sendOk(res, 'A', { offers: deps.platform.offers(req.query.platformId as string | undefined) }),
  );
  post('/platform/offers/:tradeId', (b: Body, req) => {
    if (!['accept', 'decline', 'fail'].includes(b.outcome)) return bad('Invalid outcome');
    return settleOffer(deps, String(req.params.tradeId), b.outcome);
  });
  post('/payments/:cashoutId', (b: Body, req) => {
    if (!['processing', 'completed', 'failed'].includes(b.outcome)) return bad('Invalid outcome');
    const id = Number(req.params.cashoutId);
    if (!Number.isSafeInteger(id)) return bad('Unknown cashout');
    return reportPayment(deps, id, b.outcome);
  });

  // Ours (not in shared/test-helpers.md): the authenticator app's code, so the 2FA workflow of
  // openapi/workflows/ can run end to end (Arazzo cannot compute an HMAC).
  post('/totp', (b: Body) => {
    if (typeof b.secret !== 'string' || !/^[A-Z2-7]{1,256}$/.test(b.secret)) return bad('Invalid secret parameter');
    const now = deps.clock.now();
    return { ok: true, value: { code: totpAt(b.secret, now), now } };
  });

  router.all('/test_helpers/*rest', (_req, res) => sendError(res, 'A', NOT_FOUND, 404));
  return router;
}
