// The stored records of the areas beyond market data and buy orders: cart, trades, cashouts,
// notifications, support, giveaways, bans, e-mailed codes and 2FA. Field names follow the seed
// where it names them ("Resources and their fields"); the rest is what the rules need. Times are
// Unix seconds as numbers; the API layer turns them into the strings the seed shows. Each record
// is a TypeBox schema and its type is the schema's `Static` (record-fields.ts says why).
import Type, { type Static } from 'typebox';
import { PayoutMethod } from './money.ts';
import { Bool, Int, Nullable, StoredRecord, Str, Time } from './record-fields.ts';

/**
 * A cart row (seed: Cart row): assets of one item at one price. The seed's `assetId`
 * (comma-separated) and `count` are derived from `assetIds`.
 */
export const CartRow = StoredRecord({
  cartId: Int,
  user: Str,
  item_id: Int,
  price: Int,
  /**
   * Platform asset IDs (`Asset.assetId`), the IDs the API shows, so a row still names an asset that
   * left the service (POST /cart/update reports it `not_found`).
   */
  assetIds: Type.Array(Str),
  timestamp: Time,
});
export type CartRow = Static<typeof CartRow>;

/** Trade statuses (seed: "Other state sets"); deposit trades use 0, 3 and -1 only. */
export const TRADE_STATUS = { pending: 0, completed: 3, failed: -1, hidden: -11, reverted: -12 } as const;
export const TradeStatus = Type.Enum([
  TRADE_STATUS.pending,
  TRADE_STATUS.completed,
  TRADE_STATUS.failed,
  TRADE_STATUS.hidden,
  TRADE_STATUS.reverted,
]);
export type TradeStatus = Static<typeof TradeStatus>;

/** One asset of a trade: its platform asset ID, its item and the attributes it arrived with. */
export const TradeAssetRecord = StoredRecord({
  assetId: Str,
  itemId: Int,
  attributes: Type.Record(Str, Type.Unknown()),
});
export type TradeAssetRecord = Static<typeof TradeAssetRecord>;

/**
 * A trade offer between a bot and a user: a deposit (its `id` is the `content.id` of
 * POST /deposit/trade), a withdrawal or an instant sell. One collection, because the seed's
 * trade list, resend and admin revert treat them alike.
 */
export const Trade = StoredRecord({
  id: Int,
  /** The platform's offer ID (test helpers settle offers by it). */
  tradeId: Str,
  kind: Type.Enum(['deposit', 'withdraw', 'instant_sell']),
  user: Str,
  game: Int,
  /** Platform asset IDs for deposits and instant sells; backpack entry IDs for withdrawals. */
  assetIds: Type.Array(Str),
  /** Deposit: the listing price per asset ID; instant sell: the accepted buy order price. */
  prices: Type.Record(Str, Int),
  /** Instant sell payout method (server-defined values, seed: Deposit and instant sell). */
  payout: Nullable(Str),
  status: TradeStatus,
  created: Time,
  completedAt: Nullable(Time),
  /**
   * What the trade moves, as it was offered: the platform asset ID, its item and its attributes
   * (wear, sheen, ...). Kept so a trade list still shows assets that left the service, and so an
   * accepted deposit stores the assets the user gave.
   */
  assets: Type.Optional(Type.Array(TradeAssetRecord)),
  /** Unix seconds of the last change (status, resend); `created` when absent. */
  updated: Type.Optional(Time),
});
export type Trade = Static<typeof Trade>;

/** Seed: Cashout statuses. */
export const CashoutStatus = Type.Enum(['pending', 'processing', 'completed', 'failed', 'cancelled']);
export type CashoutStatus = Static<typeof CashoutStatus>;

/**
 * A cashout request (seed: Cashout). The user's balance pays `amount + fee` with a `cashout`
 * ledger entry and the fee is collected; a failed or cancelled cashout refunds both (`refund`)
 * and gives the fee back. auditMoney relies on exactly this.
 */
export const Cashout = StoredRecord({
  id: Int,
  user: Str,
  amount: Int,
  fee: Int,
  method: PayoutMethod,
  /** Payment e-mail (body `email`, else the account's). */
  email: Str,
  status: CashoutStatus,
  transactionId: Str,
  requestedAt: Time,
  estimatedCompletionAt: Time,
  completedAt: Nullable(Time),
});
export type Cashout = Static<typeof Cashout>;

/** What GET /user/notifications reads: alerts, payment reviews, messages, offers, trades. */
export const Notification = StoredRecord({
  id: Int,
  user: Str,
  kind: Type.Enum(['alert', 'paymentReview', 'message', 'offer', 'trade']),
  text: Str,
  data: Type.Record(Str, Type.Unknown()),
  read: Bool,
  timestamp: Time,
});
export type Notification = Static<typeof Notification>;

/**
 * A support ticket (seed: Support ticket). `id` is its key; `ticket` is the number the API shows,
 * counted per user (the document: "Ticket numbers count per user").
 */
export const Ticket = StoredRecord({
  id: Int,
  ticket: Int,
  user: Str,
  subject: Str,
  topic: Str,
  concern: Str,
  /** 0 open, 1 answered, 2 closed (the document's design; the seed shows no meaning of the codes). */
  status: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)]),
  /** Platform ID of the assigned administrator (the API shows their name), or null. */
  assigned: Nullable(Str),
  created: Time,
  last_message: Time,
});
export type Ticket = Static<typeof Ticket>;

/** A message of a ticket (seed: Support ticket, Message). */
export const TicketMessage = StoredRecord({
  id: Int,
  /** The ticket's `id` (its key), not its per-user number. */
  ticket: Int,
  user: Str,
  content: Str,
  /** Null, or the name of the admin who wrote it. */
  admin: Nullable(Str),
  timestamp: Time,
  attachments: Str,
});
export type TicketMessage = Static<typeof TicketMessage>;

/** A participant of a giveaway and when they joined (the draw orders participants by it). */
export const GiveawayEntry = StoredRecord({ user: Str, joined: Time });
export type GiveawayEntry = Static<typeof GiveawayEntry>;

/**
 * A giveaway (seed: Giveaways; the record's fields are not shown, these are the create inputs and
 * what the draw of the document's GiveawayFairness needs).
 */
export const Giveaway = StoredRecord({
  id: Int,
  url: Str,
  owner: Str,
  name: Str,
  maxEntries: Int,
  /** 0 public, 1 private. */
  type: Type.Enum([0, 1]),
  descriptionBefore: Str,
  descriptionAfter: Str,
  requireChatVerification: Bool,
  /** Backpack entry IDs moved into the pool (their assets are in a negative state). */
  assetIds: Type.Array(Int),
  /** Oldest first. */
  participants: Type.Array(GiveawayEntry),
  created: Time,
  endsAt: Time,
  /** 64 lowercase hex characters; shown only once the giveaway has ended (its SHA-256 before). */
  serverSeed: Str,
  ended: Bool,
  winner: Nullable(Str),
  winnerIndex: Nullable(Int),
});
export type Giveaway = Static<typeof Giveaway>;

export const GiveawayComment = StoredRecord({ id: Int, giveaway: Int, user: Str, content: Str, timestamp: Time });
export type GiveawayComment = Static<typeof GiveawayComment>;

/** One POST /admin/ban (seed: `time` 0 unbans); GET /admin/banList reads the history. */
export const Ban = StoredRecord({ id: Int, user: Str, admin: Str, reason: Str, time: Time, timestamp: Time });
export type Ban = Static<typeof Ban>;

/**
 * A code sent by e-mail: e-mail change (valid 24 hours, seed Limits) or 2FA reset (second
 * variant, 24 hours). Both answer `Invalid or expired code`, `Request not found`, `Too many
 * attempts`. Only the code's SHA-256 is kept.
 */
export const CodeRequest = StoredRecord({
  id: Int,
  user: Str,
  purpose: Type.Enum(['emailChange', 'twoFactorReset']),
  /** The new address of an e-mail change; the backup address of a 2FA reset. */
  email: Str,
  codeHash: Str,
  attempts: Int,
  created: Time,
  expires: Time,
  used: Bool,
});
export type CodeRequest = Static<typeof CodeRequest>;

/** A user's TOTP setup (seed: Two-factor authentication), keyed by platform ID. */
export const TwoFactor = StoredRecord({
  user: Str,
  /** Base32 TOTP secret. */
  secret: Str,
  /** The `key` of GET /user/2FA/create, echoed as `secret` by validate. */
  key: Str,
  backupEmail: Str,
  activatedAt: Nullable(Time),
});
export type TwoFactor = Static<typeof TwoFactor>;
