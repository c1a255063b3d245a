// The test helpers of the conformance suite (the test-helpers document of @marketplace/openapi),
// mounted in test mode only: known state (reset, users, items, assets; reset also forgets the
// rate-limit counts and the GeoIP table), a clock the suite can move and the country of an IP.
// Envelope A, HTTP 300 with a message for a bad request; each answer is the one the helper's
// schema documents (the suite checks it). A helper left out (buy orders, outbox, platform,
// payments) answers 404, and the
// suite skips the tests that need it, naming it. Add them as you implement the features they prepare.
// The contract's helpers gate reads each body within its limit, validates it against the helper's
// schema (answering the documented 300) and drops the fields the schema does not declare: what a
// helper checks here are the rules of the state (an unknown user, an item ID taken).
import { randomInt } from 'node:crypto';
import { type FixedWindowLimiter, helpersGate } from '@marketplace/contract';
import type { HelperId, TestHelperRequest, TestHelpers } from '@marketplace/types';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Clock } from './clock.ts';
import type { GeoIp } from './geoip.ts';
import type { Item, Store, User } from './store.ts';

const ok = <T>(value: T) => ({ ok: true, value }) as const;
const fail = <const E extends string>(error: E) => ({ ok: false, error }) as const;
const digits = (n: number): string => Array.from({ length: n }, (_, i) => randomInt(i === 0 ? 1 : 0, 10)).join('');
/** The item's slug: lower case, every run of other characters one `-`, none at either end. */
export const slugOf = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export function testHelpers(store: Store, clock: Clock, limiter: FixedWindowLimiter, geoip: GeoIp): RequestHandler {
  const helpers = helpersGate<TestHelperRequest<HelperId>>(
    { unexpected: (err, req) => console.error(`${req.method} ${req.path} failed`, err), trustProxy: 'loopback' },
    {
      handlers: helpersOf({ store, clock, limiter, geoip }),
      // The gate checked the request against the helper's operation: its types are the helper's.
      context: (req, _res, _op, params) =>
        ({ body: req.body ?? {}, query: req.query, params }) as TestHelperRequest<HelperId>,
    },
  );
  // Every /test_helpers/ path is the helpers' (one not written here answers 404, as an unknown
  // route); the rest is the API's.
  return (req: Request, res: Response, next: NextFunction) =>
    req.path.startsWith('/test_helpers/') ? helpers(req, res, next) : next();
}

interface World {
  store: Store;
  clock: Clock;
  limiter: FixedWindowLimiter;
  geoip: GeoIp;
}

/**
 * The helpers written here, by operationId, each typed by its operation (@marketplace/types): it
 * reads only the fields its schema declares and answers only the messages its operation lists.
 * Add the others (`postTestHelpersBuyorders`, `getTestHelpersOutbox`, ...) as you implement what
 * they prepare.
 */
function helpersOf({ store, clock, limiter, geoip }: World): Partial<TestHelpers> {
  return {
    async postTestHelpersReset() {
      store.clear();
      clock.reset();
      await limiter.clear();
      geoip.clear();
      return ok({ ok: true as const });
    },

    postTestHelpersUsers({ body }) {
      const user: User = {
        platformId: body.platformId ?? digits(17),
        apiKey: `key-${digits(24)}`,
        balance: body.balance ?? 0,
        admin: body.admin === true,
        country: body.country ?? 'US',
        email: body.email,
        name: body.name,
        tradeUrl: body.tradeUrl,
        twoFactor: body.twoFactor === true,
        paymentMethods: body.paymentMethods ?? [],
        verified: body.verified ?? true,
      };
      store.addUser(user);
      return ok({ platformId: user.platformId, apiKey: user.apiKey });
    },

    postTestHelpersItems({ body }) {
      if (body.id !== undefined && store.item(body.id)) return fail('Item id already exists');
      const item = {
        ...emptyItem(),
        ...body,
        id: body.id ?? store.nextItemId(),
        url: body.url ?? slugOf(body.name),
      } as Item;
      return ok(store.addItem(item));
    },

    postTestHelpersAssets({ body }) {
      if (!store.userByPlatformId(body.owner)) return fail('Unknown user');
      const item = store.item(body.itemId);
      if (!item) return fail('Unknown item');
      const { owner, itemId, state, price, game, ...attributes } = body;
      const asset = store.addAsset({
        assetId: digits(11),
        owner,
        itemId,
        state: state ?? 0,
        price: price ?? null,
        game: game ?? item.game,
        attributes,
      });
      // The documented answer (`id, assetId, item_id, user, state`, the price and game), not the stored record.
      return ok({
        id: asset.id,
        assetId: asset.assetId,
        item_id: asset.itemId,
        user: asset.owner,
        state: asset.state,
        price: asset.price,
        game: asset.game,
      });
    },

    postTestHelpersGeoip({ body }) {
      geoip.set(body.ip, body.country);
      return ok({ ip: body.ip, country: geoip.countryOf(body.ip) });
    },

    postTestHelpersClock({ body }) {
      // The schema admits exactly one of the two.
      if ('advance' in body) clock.advance(body.advance);
      else clock.set(body.set);
      return ok({ now: clock.now() });
    },

    getTestHelpersClock: () => ok({ now: clock.now() }),
  };
}

/** The fields of an item the helper was not given: empty values of their types. */
function emptyItem(): Omit<Item, 'id' | 'name' | 'game' | 'url'> {
  return {
    effect: '',
    SKU: '',
    quality: '',
    type: '',
    type_platform: null,
    class: null,
    image: '',
    imagePertinence: 0,
    craftable: 1,
    rarity: '',
    featured: 0,
    deal: 0,
    t: null,
    color: '',
    slot: '',
    hero: null,
    weapon: '',
    exterior: '',
    description: null,
    shopdata: null,
  } as Omit<Item, 'id' | 'name' | 'game' | 'url'>;
}
