// The state the engine works on: plain JSON records in collections keyed by ID, so the store can
// journal record-level changes and snapshot the whole thing. Field names follow the seed's
// resources ("Resources and their fields") wherever the seed names them; where the document has
// the resource, the record type is the document's schema (plus fields the API never shows);
// every other record is a TypeBox schema here or in records.ts, its type the schema's `Static`,
// and the store checks what it loads against the same schema (store/record-schemas.ts).
import type { Schema } from '@marketplace/types';
import Type, { type Static } from 'typebox';
import { PayoutMethod } from './money.ts';
import { Bool, Count, Int, Nullable, StoredRecord, Str, Time } from './record-fields.ts';
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

/** E-mail notification kinds (seed: Events). */
export const NOTIFICATION_KINDS = [
  'tradeCompleted',
  'offerReceived',
  'buyOrderFilled',
  'itemSold',
  'depositCompleted',
  'marketing',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/** Seed POST /user/setPrivacySetting. */
export const PRIVACY_SETTINGS = [
  'profilePublic',
  'inventoryPublic',
  'tradeHistoryPublic',
  'showOnLeaderboard',
] as const;
export type PrivacySetting = (typeof PRIVACY_SETTINGS)[number];

/** A user account (seed: User). Money is integer cents; `reserved` is held by buy orders. */
export const User = StoredRecord({
  platformId: Str,
  name: Str,
  image: Str,
  email: Str,
  balance: Int,
  reserved: Int,
  admin: Bool,
  country: Str,
  verified: Bool,
  /** Shown as the string `2fa` by GET /user/infos; the secret lives in `twoFactor`. */
  twoFactorEnabled: Bool,
  tradeurl: Str,
  walletmail: Str,
  shorturl: Str,
  /** Seed Limits: a short URL is changeable once per month. */
  shorturlChangedAt: Nullable(Time),
  since: Time,
  lastactivity: Time,
  banUntil: Nullable(Time),
  /** Seed POST /admin/support/block. */
  supportBlocked: Bool,
  /** Payment methods linked for cashouts (seed: Cashout, "A payment method must be linked first"). */
  paymentMethods: Type.Array(PayoutMethod),
  /**
   * The payment e-mail and link time of each method linked through POST /cashout/link (document
   * extension). A method in `paymentMethods` without an entry here (linked by the operator or a
   * test helper) pays to the account's e-mail and counts as linked since the account exists.
   */
  paymentLinks: Type.Optional(Type.Partial(Type.Record(PayoutMethod, Type.Object({ email: Str, linkedAt: Time })))),
  /** The master switch (seed: POST /user/setMailNotificationStatus; `notification` of User). */
  emailNotifications: Bool,
  /** Seed Events: each e-mail kind is switchable. */
  notifications: Type.Record(Type.Enum(NOTIFICATION_KINDS), Bool),
  /** Seed POST /user/setPrivacySetting. */
  privacy: Type.Record(Type.Enum(PRIVACY_SETTINGS), Bool),
});
export type User = Static<typeof User>;

/**
 * A user as a store may hold it, which is what a load checks: the account fields added over time
 * are optional, because `upgradeState` fills them in after loading (from `accountDefaults`), and
 * the settings maps hold any booleans. The engine only ever sees `User`.
 */
export const StoredUser = StoredRecord({
  ...User.properties,
  twoFactorEnabled: Type.Optional(Bool),
  shorturlChangedAt: Type.Optional(Nullable(Time)),
  supportBlocked: Type.Optional(Bool),
  paymentMethods: Type.Optional(Type.Array(PayoutMethod)),
  emailNotifications: Type.Optional(Bool),
  notifications: Type.Optional(Type.Record(Str, Bool)),
  privacy: Type.Optional(Type.Record(Str, Bool)),
});

/** An API key, by the SHA-256 of the key: only the hash is kept. */
export const ApiKey = StoredRecord({ hash: Str, user: Str });
export type ApiKey = Static<typeof ApiKey>;

/** A login session: one JWT (`jti`), bound to the IP used at login (seed: Session row). */
export const Session = StoredRecord({
  id: Int,
  jti: Str,
  user: Str,
  ip: Str,
  location: Str,
  isp: Str,
  userAgent: Str,
  timestamp: Time,
  expire: Time,
  revoked: Bool,
});
export type Session = Static<typeof Session>;

/** A session by its JWT ID: every authenticated request looks its session up by `jti`. */
export const Jti = StoredRecord({ jti: Str, session: Int });
export type Jti = Static<typeof Jti>;

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
export const Sale = StoredRecord({
  id: Int,
  item_id: Int,
  assetId: Str,
  price: Int,
  fee: Int,
  seller: Str,
  buyer: Str,
  timestamp: Time,
});
export type Sale = Static<typeof Sale>;

/** A balance transaction (seed: Balance transaction). `amount` is negative for debits. */
export const LedgerEntry = StoredRecord({
  id: Int,
  user: Str,
  type: Type.Enum(['deposit', 'sale', 'purchase', 'payment', 'cashout', 'bonus', 'refund', 'fee']),
  amount: Int,
  balance: Int,
  description: Str,
  timestamp: Str,
  relatedId: Int,
});
export type LedgerEntry = Static<typeof LedgerEntry>;

/** A free-form record (store tests; an area not modelled yet). */
export const FreeRecord = StoredRecord({ id: Str, kind: Str });
/** Its other fields are the point, so its type keeps them (the schema allows them too). */
export type FreeRecord = Static<typeof FreeRecord> & { [key: string]: unknown };

/** What the store keeps besides the collections. */
export const StateMeta = StoredRecord({
  /** Last journal sequence applied. */
  seq: Count,
  /** Next numeric ID per collection. */
  counters: Type.Record(Str, Count),
  /** Money that left the users' balances as fees (cents): part of the money invariant. */
  feesCollected: Int,
});
export type StateMeta = Static<typeof StateMeta>;

export interface Collections {
  users: User;
  apiKeys: ApiKey;
  sessions: Session;
  /** Sessions by JWT ID: every authenticated request looks its session up by `jti`. */
  jtis: Jti;
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
  records: FreeRecord;
}
export type CollectionName = keyof Collections;

export type State = { [C in CollectionName]: Record<string, Collections[C]> } & StateMeta;

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

type AccountSettings = 'twoFactorEnabled' | 'shorturlChangedAt' | 'supportBlocked' | 'paymentMethods';
type Preferences = 'emailNotifications' | 'notifications' | 'privacy';

/**
 * The settings of a new account (the seed shows no defaults): every e-mail kind on except
 * marketing, which a user opts into; a public profile; nothing linked; no 2FA.
 */
export function accountDefaults(): Pick<User, AccountSettings | Preferences> {
  return {
    twoFactorEnabled: false,
    shorturlChangedAt: null,
    supportBlocked: false,
    paymentMethods: [],
    emailNotifications: true,
    notifications: Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, k !== 'marketing'])) as User['notifications'],
    privacy: Object.fromEntries(PRIVACY_SETTINGS.map((k) => [k, true])) as User['privacy'],
  };
}

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
