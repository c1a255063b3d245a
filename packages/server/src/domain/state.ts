// The state the engine works on: plain JSON records in collections keyed by ID, so the store can
// journal record-level changes and snapshot the whole thing. Field names follow the seed's
// resources ("Resources and their fields") wherever the seed names them; where the document has
// the resource, the record type is the document's schema (plus fields the API never shows).
import type { Schema } from '@marketplace/types';

/** A user account (seed: User). Money is integer cents; `reserved` is held by buy orders. */
export interface User {
  platformId: string;
  name: string;
  image: string;
  email: string;
  balance: number;
  reserved: number;
  admin: boolean;
  country: string;
  verified: boolean;
  twoFactor: boolean;
  tradeurl: string;
  walletmail: string;
  shorturl: string;
  since: number;
  lastactivity: number;
  banUntil: number | null;
}

/** A login session: one JWT (`jti`), bound to the IP used at login (seed: Session row). */
export interface Session {
  id: number;
  jti: string;
  user: string;
  ip: string;
  location: string;
  isp: string;
  userAgent: string;
  timestamp: number;
  expire: number;
  revoked: boolean;
}

/**
 * A catalogue item: the document's Item (seed: Item) plus `maxPrice`, a per-item price maximum
 * below 5,000,000 cents (seed: Limits, Set price) that the API never shows.
 */
export type Item = Schema<'Item'> & { maxPrice: number | null };

/**
 * A listing / backpack entry: the document's Listing (seed: Listing) with the owner (`user`) and
 * `ip` always present (the API hides them from non-admins), `lastupdate`, and `tradeHoldUntil`,
 * the end of a trade hold (seed: Limits, 7 days for game 730), which the API never shows.
 */
export type Asset = Omit<Schema<'Listing'>, 'user' | 'ip'> & {
  user: string;
  ip: string;
  lastupdate: number;
  tradeHoldUntil: number | null;
};

/** A buy order: the document's BuyOrder (seed: Buy order); price x amount is reserved from the owner's balance. */
export type BuyOrder = Schema<'BuyOrder'>;

/** A completed sale: the source of histories, sales graphs, pricing and /public/sales. */
export interface Sale {
  id: number;
  item_id: number;
  assetId: string;
  price: number;
  fee: number;
  seller: string;
  buyer: string;
  timestamp: number;
}

/** A balance transaction (seed: Balance transaction). `amount` is negative for debits. */
export interface LedgerEntry {
  id: number;
  user: string;
  type: 'deposit' | 'sale' | 'purchase' | 'payment' | 'cashout' | 'bonus' | 'refund' | 'fee';
  amount: number;
  balance: number;
  description: string;
  timestamp: string;
  relatedId: number;
}

export interface Collections {
  users: User;
  apiKeys: { hash: string; user: string };
  sessions: Session;
  /** Sessions by JWT ID: every authenticated request looks its session up by `jti`. */
  jtis: { jti: string; session: number };
  items: Item;
  assets: Asset;
  buyOrders: BuyOrder;
  sales: Sale;
  ledger: LedgerEntry;
  /** Further areas (cart, trades, cashouts, tickets, giveaways...) store records here too. */
  records: { id: string; kind: string; [key: string]: unknown };
}
export type CollectionName = keyof Collections;

export type State = { [C in CollectionName]: Record<string, Collections[C]> } & {
  /** Last journal sequence applied. */
  seq: number;
  /** Next numeric ID per collection. */
  counters: Record<string, number>;
  /** Money that left the users' balances as fees (cents): part of the money invariant. */
  feesCollected: number;
};

export const COLLECTIONS: CollectionName[] = [
  'users',
  'apiKeys',
  'sessions',
  'jtis',
  'items',
  'assets',
  'buyOrders',
  'sales',
  'ledger',
  'records',
];

/** Adds the collections a state saved by an older version lacks. */
export function withAllCollections(state: State): State {
  for (const c of COLLECTIONS) (state as Record<string, unknown>)[c] ??= {};
  return state;
}

/** An empty state. */
export function emptyState(): State {
  const state = { seq: 0, counters: {}, feesCollected: 0 } as unknown as State;
  for (const c of COLLECTIONS) (state as Record<string, unknown>)[c] = {};
  return state;
}
