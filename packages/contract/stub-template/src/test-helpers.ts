// The test helpers of the conformance suite (the test-helpers document of @marketplace/openapi),
// mounted in test mode only: known state (reset, users, items, assets; reset also forgets the
// rate-limit counts) and a clock the suite can move. Envelope A, HTTP 300 with a message for a bad
// request. A helper left out (buy orders, outbox, platform, payments, geo-IP) answers 404, and the
// suite skips the tests that need it, naming it. Add them as you implement the features they prepare.
import { randomInt } from 'node:crypto';
import { sendError, sendOk } from '@marketplace/contract';
import express, { type Request, type Response } from 'express';
import type { Clock } from './clock.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { Item, Store, User } from './store.ts';

// biome-ignore lint/suspicious/noExplicitAny: a helper's body is checked field by field below
type Body = any;
type Answer = { ok: true; value: unknown } | { ok: false; error: string };

const GAMES = [440, 730, 570, 252490, 753];
const isInt = (v: unknown): v is number => Number.isInteger(v);
const bad = (error: string): Answer => ({ ok: false, error });
const digits = (n: number): string => Array.from({ length: n }, (_, i) => randomInt(i === 0 ? 1 : 0, 10)).join('');
/** The item's slug: lower case, every run of other characters one `-`, none at either end. */
export const slugOf = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export function testHelpers(store: Store, clock: Clock, limiter: RateLimiter): express.Router {
  const router = express.Router();
  router.use('/test_helpers', express.json({ limit: '10mb' }));
  const post = (path: string, helper: (body: Body) => Answer) =>
    router.post(`/test_helpers${path}`, (req: Request, res: Response) => {
      const answer = helper(req.body ?? {});
      if (answer.ok) sendOk(res, 'A', answer.value);
      else sendError(res, 'A', answer.error, 300);
    });

  post('/reset', () => {
    store.clear();
    clock.reset();
    limiter.clear();
    return { ok: true, value: { ok: true } };
  });

  post('/users', (b: Body) => {
    if (b.balance !== undefined && (!isInt(b.balance) || b.balance < 0)) return bad('Invalid balance parameter');
    if (b.platformId !== undefined && !/^[0-9]{17}$/.test(String(b.platformId)))
      return bad('Invalid platformId parameter');
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
    if (typeof b.name !== 'string' || !b.name) return bad('Missing required parameter: name');
    if (!GAMES.includes(b.game)) return bad('Invalid game parameter');
    if (b.id !== undefined && (!isInt(b.id) || b.id < 1)) return bad('Invalid id parameter');
    if (b.id !== undefined && store.item(b.id)) return bad('Item id already exists');
    const item = { ...emptyItem(), ...b, id: b.id ?? store.nextItemId(), url: b.url ?? slugOf(b.name) } as Item;
    return { ok: true, value: store.addItem(item) };
  });

  post('/assets', (b: Body) => {
    if (!store.userByPlatformId(String(b.owner))) return bad('Unknown user');
    const item = isInt(b.itemId) ? store.item(b.itemId) : undefined;
    if (!item) return bad('Unknown item');
    if (b.price !== undefined && (!isInt(b.price) || b.price < 1)) return bad('Invalid price parameter');
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
    return { ok: true, value: asset };
  });

  post('/clock', (b: Body) => {
    if (isInt(b.advance)) clock.advance(b.advance);
    else if (isInt(b.set) && b.set >= 0) clock.set(b.set);
    else return bad('Send advance or set');
    return { ok: true, value: { now: clock.now() } };
  });
  router.get('/test_helpers/clock', (_req: Request, res: Response) => sendOk(res, 'A', { now: clock.now() }));
  return router;
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
