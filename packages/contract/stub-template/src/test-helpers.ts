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
import { type FixedWindowLimiter, helpersGate, sendError, sendOk } from '@marketplace/contract';
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { Clock } from './clock.ts';
import type { GeoIp } from './geoip.ts';
import type { Item, Store, User } from './store.ts';

// biome-ignore lint/suspicious/noExplicitAny: a helper's body, validated against its schema by the gate
type Body = any;
type Answer = { ok: true; value: unknown } | { ok: false; error: string };

const bad = (error: string): Answer => ({ ok: false, error });
const digits = (n: number): string => Array.from({ length: n }, (_, i) => randomInt(i === 0 ? 1 : 0, 10)).join('');
/** The item's slug: lower case, every run of other characters one `-`, none at either end. */
export const slugOf = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export function testHelpers(store: Store, clock: Clock, limiter: FixedWindowLimiter, geoip: GeoIp): RequestHandler {
  /** `METHOD path` of the helpers written here: only they go through the helpers' gate. */
  const written = new Set<string>();
  const helpers = helpersGate(
    { unexpected: (err, req) => console.error(`${req.method} ${req.path} failed`, err), trustProxy: 'loopback' },
    (router) => mountHelpers(router, { store, clock, limiter, geoip }, written),
  );
  // Every other path is the API's: a helper not written yet answers 404 there, as an unknown route.
  return (req: Request, res: Response, next: NextFunction) =>
    written.has(`${req.method} ${req.path}`) ? helpers(req, res, next) : next();
}

interface World {
  store: Store;
  clock: Clock;
  limiter: FixedWindowLimiter;
  geoip: GeoIp;
}

function mountHelpers(router: Router, { store, clock, limiter, geoip }: World, written: Set<string>): void {
  const post = (path: string, helper: (body: Body) => Answer | Promise<Answer>) => {
    written.add(`POST /test_helpers${path}`);
    router.post(`/test_helpers${path}`, async (req: Request, res: Response) => {
      const answer = await helper(req.body ?? {});
      if (answer.ok) sendOk(res, 'A', answer.value);
      else sendError(res, 'A', answer.error, 300);
    });
  };

  post('/reset', async () => {
    store.clear();
    clock.reset();
    await limiter.clear();
    geoip.clear();
    return { ok: true, value: { ok: true } };
  });

  post('/users', (b: Body) => {
    const user: User = {
      platformId: b.platformId ?? digits(17),
      apiKey: `key-${digits(24)}`,
      balance: b.balance ?? 0,
      admin: b.admin === true,
      country: b.country ?? 'US',
      email: b.email,
      name: b.name,
      tradeUrl: b.tradeUrl,
      twoFactor: b.twoFactor === true,
      paymentMethods: b.paymentMethods ?? [],
      verified: b.verified ?? true,
    };
    store.addUser(user);
    return { ok: true, value: { platformId: user.platformId, apiKey: user.apiKey } };
  });

  post('/items', (b: Body) => {
    if (b.id !== undefined && store.item(b.id)) return bad('Item id already exists');
    const item = { ...emptyItem(), ...b, id: b.id ?? store.nextItemId(), url: b.url ?? slugOf(b.name) } as Item;
    return { ok: true, value: store.addItem(item) };
  });

  post('/assets', (b: Body) => {
    if (!store.userByPlatformId(String(b.owner))) return bad('Unknown user');
    const item = store.item(b.itemId);
    if (!item) return bad('Unknown item');
    const { owner, itemId, state, price, game, ...attributes } = b;
    const asset = store.addAsset({
      assetId: digits(11),
      owner: String(owner),
      itemId,
      state: state ?? 0,
      price: price ?? null,
      game: game ?? item.game,
      attributes,
    });
    // The documented answer (`id, assetId, item_id, user, state`, the price and game), not the stored record.
    return {
      ok: true,
      value: {
        id: asset.id,
        assetId: asset.assetId,
        item_id: asset.itemId,
        user: asset.owner,
        state: asset.state,
        price: asset.price,
        game: asset.game,
      },
    };
  });

  post('/geoip', (b: Body) => {
    geoip.set(b.ip, b.country);
    return { ok: true, value: { ip: b.ip, country: geoip.countryOf(b.ip) } };
  });

  post('/clock', (b: Body) => {
    // The schema admits exactly one of the two.
    if (b.advance !== undefined) clock.advance(b.advance);
    else clock.set(b.set);
    return { ok: true, value: { now: clock.now() } };
  });
  written.add('GET /test_helpers/clock');
  router.get('/test_helpers/clock', (_req: Request, res: Response) => sendOk(res, 'A', { now: clock.now() }));
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
