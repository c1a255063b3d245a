// The state the engine works on: plain JSON records in collections keyed by ID, so the store can
// journal record-level changes and snapshot the whole thing. Field names follow the seed's
// resources ("Resources and their fields") wherever the seed names them; where the document has
// the resource, the record type is the document's schema (plus fields the API never shows).
import type { Schema } from '@marketplace/types';
import type { PayoutMethod } from './money.ts';
import type {
  Ban,
  CartRow,
  Cashout,
  CodeRequest,
  Giveaway,
  GiveawayComment,
  Notification,
  Ticket,
  TicketMessage,
  Trade,
  TwoFactor,
} from './records.ts';
import { accountDefaults, type NotificationKind, type PrivacySetting } from './users.ts';

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
  /** Shown as the string `2fa` by GET /user/infos; the secret lives in `twoFactor`. */
  twoFactorEnabled: boolean;
  tradeurl: string;
  walletmail: string;
  shorturl: string;
  /** Seed Limits: a short URL is changeable once per month. */
  shorturlChangedAt: number | null;
  since: number;
  lastactivity: number;
  banUntil: number | null;
  /** Seed POST /admin/support/block. */
  supportBlocked: boolean;
  /** Payment methods linked for cashouts (seed: Cashout, "A payment method must be linked first"). */
  paymentMethods: PayoutMethod[];
  /**
   * The payment e-mail and link time of each method linked through POST /cashout/link (document
   * extension). A method in `paymentMethods` without an entry here (linked by the operator or a
   * test helper) pays to the account's e-mail and counts as linked since the account exists.
   */
  paymentLinks?: Partial<Record<PayoutMethod, { email: string; linkedAt: number }>>;
  /** The master switch (seed: POST /user/setMailNotificationStatus; `notification` of User). */
  emailNotifications: boolean;
  /** Seed Events: each e-mail kind is switchable. */
  notifications: Record<NotificationKind, boolean>;
  /** Seed POST /user/setPrivacySetting. */
  privacy: Record<PrivacySetting, boolean>;
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
  cartRows: CartRow;
  /** Every trade offer the bots send: deposits, withdrawals and instant sells. */
  trades: Trade;
  cashouts: Cashout;
  notifications: Notification;
  tickets: Ticket;
  ticketMessages: TicketMessage;
  giveaways: Giveaway;
  giveawayComments: GiveawayComment;
  bans: Ban;
  /** Codes sent by e-mail: e-mail change and 2FA reset. */
  codeRequests: CodeRequest;
  /** By platform ID. */
  twoFactor: TwoFactor;
  /** Free-form records (store tests; an area not modelled yet). */
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
  'cartRows',
  'trades',
  'cashouts',
  'notifications',
  'tickets',
  'ticketMessages',
  'giveaways',
  'giveawayComments',
  'bans',
  'codeRequests',
  'twoFactor',
  'records',
];

/**
 * Brings a state saved by an older version up to date: missing collections, and account fields
 * added since (`twoFactor` became `twoFactorEnabled`). Run after journal replay, since journaled
 * user rows are as old as the version that wrote them.
 */
export function upgradeState(state: State): State {
  for (const c of COLLECTIONS) (state as Record<string, unknown>)[c] ??= {};
  for (const [id, user] of Object.entries(state.users)) {
    const { twoFactor, ...rest } = user as User & { twoFactor?: boolean };
    state.users[id] = { ...accountDefaults(), ...rest, twoFactorEnabled: rest.twoFactorEnabled ?? twoFactor ?? false };
  }
  return state;
}

/** An empty state. */
export function emptyState(): State {
  const state = { seq: 0, counters: {}, feesCollected: 0 } as unknown as State;
  for (const c of COLLECTIONS) (state as Record<string, unknown>)[c] = {};
  return state;
}
