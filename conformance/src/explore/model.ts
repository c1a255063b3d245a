// What the explorer believes the target holds, from the seed's rules (the model of fast-check's
// model-based testing), and the run's actors. Each run starts from a reset target with the same
// cast: three users with balances and payment methods, two items of game 440, two assets each.
import type { Client } from './client.ts';

/**
 * Where an asset is: the owner's inventory (state 0), on sale (1), in a withdrawal, off the service,
 * or in the pool of a giveaway its owner created (reserved, negative).
 */
export type Place = 'inventory' | 'sale' | 'withdrawing' | 'held' | 'gone' | 'giveaway';

export interface AssetModel {
  assetId: string;
  owner: number;
  itemId: number;
  place: Place;
  price?: number;
}

export interface OrderModel {
  owner: number;
  itemId: number;
  price: number;
  amount: number;
  /** Creation order: fills go to the highest price, then the oldest. */
  seq: number;
}

export type CashoutStatus = 'pending' | 'processing' | 'completed' | 'failed';

export interface CashoutModel {
  id: number;
  owner: number;
  amount: number;
  fee: number;
  status: CashoutStatus;
}

/** An asset on the external platform: held by the user there, or offered in a pending deposit trade. */
export interface PlatformAsset {
  assetId: string;
  owner: number;
  itemId: number;
  offered?: number;
}

/** A giveaway of the run: its creator's pooled asset and who joined it. */
export interface GiveawayModel {
  url: string;
  creator: number;
  assetId: string;
  entrants: number[];
}

export interface Model {
  items: number[];
  assets: AssetModel[];
  platform: PlatformAsset[];
  orders: OrderModel[];
  cashouts: CashoutModel[];
  /** Per user: the assets in the cart with the price stored when added. */
  carts: { assetId: string; price: number }[][];
  /** Cart rows their owner removed (removing one again must be refused). */
  removedRows: { owner: number; cartId: number }[];
  /** Deposit trades sent in the run, by the ID `POST /deposit/trade` answered. */
  deposits: { owner: number; id: number }[];
  giveaways: GiveawayModel[];
  /** Per user: when (the model's clock) they last created a giveaway (one per hour). */
  lastGiveaway: (number | undefined)[];
  /** Support tickets opened in the run (one per user at most). */
  tickets: { owner: number; id: number }[];
  /** Per user: balance plus reservations (what the user owns in money on the service). */
  wealth: number[];
  /** Money put in by the set-up (opening balances). */
  putIn: number;
  sales: number;
  /** Sale fees the seed's rules took (the price less the seller's share, summed). */
  fees: number;
  /** Seconds the test clock was moved since the set-up (the cashout cooldown reads it). */
  now: number;
  lastCashout: (number | undefined)[];
  loginAt: number[];
  seq: number;
  /** Operations and helpers the target answered 404 (not implemented): the session's `Real.missing`. */
  missing: Set<string>;
  /** Whether `GET /user/balance` is net of reservations (the seed leaves it open): fixed by the first order seen. */
  reading?: 'net' | 'gross';
}

export interface Actor {
  platformId: string;
  apiKey: string;
  ip: string;
  token: string;
}

export interface Real {
  api: Client;
  actors: Actor[];
  /** The steps run so far, in order (the sequence a failure is shrunk from and written as). */
  ran: { step: string; args: Record<string, number | string> }[];
  /**
   * What answered 404 so far in the session (the suite's rule for "not implemented"): shared by
   * its runs, so a step needing one of them is not generated again and a read is not sent.
   */
  missing: Set<string>;
}

export const USERS = 3;
export const OPENING_BALANCES = [20_000, 12_000, 6_000];
export const ITEM_NAMES = ['Explorer Hat', 'Explorer Scarf'];
/** The seed's sale fee: the seller receives 95 percent, rounded down (the document's floor). */
export const sellerShare = (price: number): number => Math.floor((price * 95) / 100);
/** Provider fee rates in tenths of a percent (seed "Cashout": 2 and 1.5 percent; the document rounds up). */
export const FEE_PER_MILLE = { provider_a: 20, provider_b: 15 } as const;
export const cashoutFee = (amount: number, method: keyof typeof FEE_PER_MILLE): number =>
  Math.ceil((amount * FEE_PER_MILLE[method]) / 1000);

/** Reserved money of a user in the model. */
export const reservedOf = (m: Model, user: number): number =>
  m.orders.filter((o) => o.owner === user).reduce((n, o) => n + o.price * o.amount, 0);

/** Balance free to spend in the model. */
export const availableOf = (m: Model, user: number): number => m.wealth[user]! - reservedOf(m, user);

/**
 * A request answered 404, the suite's "not implemented" (not-implemented.ts): the step that sent
 * it changes nothing and is not generated again; in the set-up, the session cannot start.
 */
export class Missing extends Error {
  readonly operation: string;
  constructor(operation: string) {
    super(`${operation} answered 404`);
    this.operation = operation;
  }
}

/** POST a test helper; a refusal stops the run (the target breaks the helper contract), a 404 is Missing. */
export async function helper<T>(real: Real, phase: 'setup' | 'step', path: string, json: unknown = {}): Promise<T> {
  const x = await real.api.send(phase, 'POST', `/test_helpers${path}`, { json });
  if (x.status === 404) throw new Missing(x.operation);
  if (x.status !== 200) throw new Error(`test helper ${path} answered ${x.status}: ${JSON.stringify(x.body)}`);
  return x.body.content as T;
}

/** Logs `actor` in from its IP; a refusal is a failure of the run. */
export async function login(real: Real, phase: 'setup' | 'step', actor: Actor): Promise<void> {
  const x = await real.api.send(phase, 'POST', '/user/login', { json: { apiKey: actor.apiKey }, ip: actor.ip });
  if (x.status === 404) throw new Missing(x.operation);
  if (x.status !== 200) throw new Error(`login answered ${x.status}: ${JSON.stringify(x.body)}`);
  actor.token = x.body.content.jwt;
}

/** Resets the target and creates the cast; returns the model of that state. */
export async function setUp(real: Real): Promise<Model> {
  await helper(real, 'setup', '/reset');
  const items: number[] = [];
  for (const name of ITEM_NAMES)
    items.push((await helper<{ id: number }>(real, 'setup', '/items', { name, game: 440 })).id);
  const model: Model = {
    items,
    assets: [],
    platform: [],
    orders: [],
    cashouts: [],
    carts: OPENING_BALANCES.map(() => []),
    removedRows: [],
    deposits: [],
    giveaways: [],
    lastGiveaway: OPENING_BALANCES.map(() => undefined),
    tickets: [],
    wealth: [...OPENING_BALANCES],
    putIn: OPENING_BALANCES.reduce((a, b) => a + b, 0),
    sales: 0,
    fees: 0,
    now: 0,
    lastCashout: OPENING_BALANCES.map(() => undefined),
    loginAt: OPENING_BALANCES.map(() => 0),
    seq: 0,
    missing: real.missing,
  };
  for (const [i, balance] of OPENING_BALANCES.entries()) {
    const user = await helper<{ platformId: string; apiKey: string }>(real, 'setup', '/users', {
      balance,
      paymentMethods: ['provider_a', 'provider_b'],
      verified: true,
    });
    const actor: Actor = { ...user, ip: `198.51.100.${21 + i}`, token: '' };
    real.actors.push(actor);
    await login(real, 'setup', actor);
    for (const itemId of items) await giveAsset(real, model, 'setup', i, itemId);
  }
  return model;
}

/** A new asset in the user's inventory, through the test helpers (the deposit of the run). */
export async function giveAsset(real: Real, m: Model, phase: 'setup' | 'step', user: number, itemId: number) {
  const asset = await helper<{ assetId: string }>(real, phase, '/assets', {
    owner: real.actors[user]!.platformId,
    itemId,
  });
  m.assets.push({ assetId: String(asset.assetId), owner: user, itemId, place: 'inventory' });
}
