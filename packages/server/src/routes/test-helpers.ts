// The test-helper routes of shared/test-helpers.md (openapi/test-helpers.yaml), mounted only in
// test mode. They bypass permissions and rate limits, answer envelope A, and a bad request gets
// HTTP 300 with a message string. Bodies are read, validated and stripped to their declared fields
// by the helpers' gate (@marketplace/contract's helpers-gate.ts): what a handler checks here are the rules of the state.
// They are keyed by operationId like the API's handlers and typed from the helpers' document by it
// (@marketplace/types): a helper reads only the fields its schema declares, and one answering a
// message its operation does not list fails `tsc`.

import { helpersGate } from '@marketplace/contract';
import type { HelperId, TestHelperRequest, TestHelpers } from '@marketplace/types';
import express from 'express';
import { placeOrder } from '../domain/buy-orders.ts';
import { putAsset, putItem } from '../domain/catalog.ts';
import { addNotification } from '../domain/notify.ts';
import { populate } from '../domain/population.ts';
import { emptyState } from '../domain/state.ts';
import { totpAt } from '../domain/two-factor.ts';
import { fail, ok, type Result, type Tx } from '../domain/tx.ts';
import { createUser, newPlatformId } from '../domain/users.ts';
import type { ServerDeps } from '../http/deps.ts';
import { execute } from '../http/execute.ts';
import { reportPayment, settleOffer } from './test-helpers-settle.ts';

/** The test-helpers router; every path is under /test_helpers. */
export function testHelpersRouter(deps: ServerDeps): express.Router {
  const router = express.Router();
  const helpers = helpersGate<TestHelperRequest<HelperId>>(
    {
      unexpected: (err, req) => deps.logger.error({ err, path: req.path, method: req.method }, 'test helper failed'),
      trustProxy: deps.config.trustProxy,
    },
    {
      handlers: helperRoutes(deps),
      // The gate checked the request against the helper's operation: its types are the handler's.
      context: (req, _res, _op, params) =>
        ({ body: req.body ?? {}, query: req.query, params }) as TestHelperRequest<HelperId>,
      // What a helper wrote to the shared world (clock, geo-IP, inventories, settlements) is
      // visible to every instance before it answers.
      answered: () => deps.world.flush(),
    },
  );
  // Every /test_helpers/ path is the helpers' (an unknown one answers 404 there); the rest is the API's.
  router.use((req, res, next) => (req.path.startsWith('/test_helpers/') ? helpers(req, res, next) : next()));
  return router;
}

function helperRoutes(deps: ServerDeps): TestHelpers {
  const run = <T, E extends string>(command: (tx: Tx) => Result<T, E>): Promise<Result<T, E>> => execute(deps, command);
  return {
    async postTestHelpersReset() {
      await deps.store.replace(emptyState());
      await deps.limiter.clear();
      // The outbox, geo-IP table, simulators and test clock of every instance.
      await deps.world.clear();
      deps.caches.clear();
      return ok({ ok: true as const });
    },

    postTestHelpersUsers({ body }) {
      const platformId = body.platformId ?? newPlatformId(deps.random.digits);
      const apiKey = deps.random.hex(24);
      return run((tx) => {
        if (tx.get('users', platformId)) return fail('platformId already exists');
        createUser(tx, body, apiKey, platformId, deps.clock.now());
        return ok({ platformId, apiKey });
      });
    },

    postTestHelpersItems({ body }) {
      return run((tx) =>
        body.id && tx.get('items', body.id) ? fail('Item id already exists') : ok(putItem(tx, body)),
      );
    },

    postTestHelpersAssets({ body }) {
      return run((tx) => {
        if (!tx.get('users', body.owner)) return fail('Unknown user');
        if (!tx.get('items', body.itemId)) return fail('Unknown item');
        return ok(putAsset(tx, body, deps.clock.now()));
      });
    },

    postTestHelpersBuyorders({ body }) {
      return run((tx) => {
        if (!tx.get('users', body.owner)) return fail('Unknown user');
        const { owner, itemId, price, amount } = body;
        return placeOrder(tx, { owner, itemId, price, amount, now: deps.clock.now() });
      });
    },

    async postTestHelpersPopulation({ body }) {
      const result = populate(deps.store.state, {
        users: body.users,
        items: body.items,
        assets: body.assets,
        listedShare: body.listedShare ?? 0.5,
        buyOrders: body.buyOrders ?? 0,
        balance: body.balance ?? 1_000_000,
        now: deps.clock.now(),
      });
      // One durable step: the whole state is written at once as a new snapshot file (a journal line
      // would be too large, and a snapshot merges only what the journal holds: ADR 10).
      if (result.ok) await deps.store.replace(deps.store.state);
      return result;
    },

    async postTestHelpersClock({ body }) {
      const clock = deps.testClock;
      if (!clock) return fail('The clock is not controllable');
      // The schema admits exactly one of the two (oneOf).
      if ('advance' in body) await clock.advance(body.advance);
      else clock.set(body.set);
      return ok({ now: clock.now() });
    },

    getTestHelpersClock: () => ok({ now: deps.clock.now() }),

    getTestHelpersOutbox: ({ query }) => ok({ messages: deps.outbox.list({ channel: query.channel, to: query.to }) }),

    postTestHelpersGeoip({ body }) {
      deps.geoip.set(body.ip, body.country);
      return ok({ ip: body.ip, country: body.country.toUpperCase() });
    },

    postTestHelpersPlatformInventory({ body }) {
      if (!deps.store.state.users[body.platformId]) return fail('Unknown user');
      if (!body.assets.every((a) => deps.store.state.items[String(a.itemId)])) return fail('Unknown item');
      deps.platform.setInventory(body.platformId, body.game, body.assets);
      return ok({ count: body.assets.length });
    },

    getTestHelpersPlatformOffers: ({ query }) => ok({ offers: deps.platform.offers(query.platformId) }),

    postTestHelpersPlatformOffersTradeId: ({ body, params }) => settleOffer(deps, params.tradeId, body.outcome),

    postTestHelpersPaymentsCashoutId: ({ body, params }) => reportPayment(deps, params.cashoutId, body.outcome),

    // Ours (not in shared/test-helpers.md): the authenticator app's code, so the 2FA workflow of
    // openapi/workflows/ can run end to end (Arazzo cannot compute an HMAC).
    postTestHelpersTotp({ body }) {
      const now = deps.clock.now();
      return ok({ code: totpAt(body.secret, now), now });
    },

    // Ours (not in shared/test-helpers.md): an unread alert or payment review, since no public
    // route makes a payment review on demand and the conformance suite pins what the counts and
    // the close routes mean.
    postTestHelpersNotifications({ body }) {
      return run((tx) => {
        if (!tx.get('users', body.platformId)) return fail('Unknown user');
        const text = body.message ?? (body.kind === 'alert' ? 'Alert' : 'Your payment is under review.');
        const n = addNotification(tx, body.platformId, body.kind, text, {}, deps.clock.now());
        return ok({ id: n.id, platformId: n.user, kind: body.kind });
      });
    },
  };
}
