// The stored records of the areas beyond market data and buy orders: cart, trades, cashouts,
// notifications, support, giveaways, bans, e-mailed codes and 2FA. Field names follow the seed
// where it names them ("Resources and their fields"); the rest is what the rules need. Times are
// Unix seconds as numbers; the API layer turns them into the strings the seed shows.
import type { PayoutMethod } from './money.ts';

/**
 * A cart row (seed: Cart row): assets of one item at one price. The seed's `assetId`
 * (comma-separated) and `count` are derived from `assetIds`.
 */
export interface CartRow {
  cartId: number;
  user: string;
  item_id: number;
  price: number;
  /**
   * Platform asset IDs (`Asset.assetId`), the IDs the API shows, so a row still names an asset that
   * left the service (POST /cart/update reports it `not_found`).
   */
  assetIds: string[];
  timestamp: number;
}

/** Trade statuses (seed: "Other state sets"); deposit trades use 0, 3 and -1 only. */
export const TRADE_STATUS = { pending: 0, completed: 3, failed: -1, hidden: -11, reverted: -12 } as const;
export type TradeStatus = (typeof TRADE_STATUS)[keyof typeof TRADE_STATUS];

/**
 * A trade offer between a bot and a user: a deposit (its `id` is the `content.id` of
 * POST /deposit/trade), a withdrawal or an instant sell. One collection, because the seed's
 * trade list, resend and admin revert treat them alike.
 */
export interface Trade {
  id: number;
  /** The platform's offer ID (test helpers settle offers by it). */
  tradeId: string;
  kind: 'deposit' | 'withdraw' | 'instant_sell';
  user: string;
  game: number;
  /** Platform asset IDs for deposits and instant sells; backpack entry IDs for withdrawals. */
  assetIds: string[];
  /** Deposit: the listing price per asset ID; instant sell: the accepted buy order price. */
  prices: Record<string, number>;
  /** Instant sell payout method (server-defined values, seed: Deposit and instant sell). */
  payout: string | null;
  status: TradeStatus;
  created: number;
  completedAt: number | null;
  /**
   * What the trade moves, as it was offered: the platform asset ID, its item and its attributes
   * (wear, sheen, ...). Kept so a trade list still shows assets that left the service, and so an
   * accepted deposit stores the assets the user gave.
   */
  assets?: TradeAssetRecord[];
  /** Unix seconds of the last change (status, resend); `created` when absent. */
  updated?: number;
}

/** One asset of a trade: its platform asset ID, its item and the attributes it arrived with. */
export interface TradeAssetRecord {
  assetId: string;
  itemId: number;
  attributes: Record<string, unknown>;
}

/** Seed: Cashout statuses. */
export type CashoutStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';

/**
 * A cashout request (seed: Cashout). The user's balance pays `amount + fee` with a `cashout`
 * ledger entry and the fee is collected; a failed or cancelled cashout refunds both (`refund`)
 * and gives the fee back. auditMoney relies on exactly this.
 */
export interface Cashout {
  id: number;
  user: string;
  amount: number;
  fee: number;
  method: PayoutMethod;
  /** Payment e-mail (body `email`, else the account's). */
  email: string;
  status: CashoutStatus;
  transactionId: string;
  requestedAt: number;
  estimatedCompletionAt: number;
  completedAt: number | null;
}

/** What GET /user/notifications reads: alerts, payment reviews, messages, offers, trades. */
export interface Notification {
  id: number;
  user: string;
  kind: 'alert' | 'paymentReview' | 'message' | 'offer' | 'trade';
  text: string;
  data: Record<string, unknown>;
  read: boolean;
  timestamp: number;
}

/**
 * A support ticket (seed: Support ticket). `id` is its key; `ticket` is the number the API shows,
 * counted per user (the document: "Ticket numbers count per user").
 */
export interface Ticket {
  id: number;
  ticket: number;
  user: string;
  subject: string;
  topic: string;
  concern: string;
  /** 0 open, 1 answered, 2 closed (the document's design; the seed shows no meaning of the codes). */
  status: number;
  /** Platform ID of the assigned administrator (the API shows their name), or null. */
  assigned: string | null;
  created: number;
  last_message: number;
}

/** A message of a ticket (seed: Support ticket, Message). */
export interface TicketMessage {
  id: number;
  /** The ticket's `id` (its key), not its per-user number. */
  ticket: number;
  user: string;
  content: string;
  /** Null, or the name of the admin who wrote it. */
  admin: string | null;
  timestamp: number;
  attachments: string;
}

/** A participant of a giveaway and when they joined (the draw orders participants by it). */
export interface GiveawayEntry {
  user: string;
  joined: number;
}

/**
 * A giveaway (seed: Giveaways; the record's fields are not shown, these are the create inputs and
 * what the draw of the document's GiveawayFairness needs).
 */
export interface Giveaway {
  id: number;
  url: string;
  owner: string;
  name: string;
  maxEntries: number;
  /** 0 public, 1 private. */
  type: 0 | 1;
  descriptionBefore: string;
  descriptionAfter: string;
  requireChatVerification: boolean;
  /** Backpack entry IDs moved into the pool (their assets are in a negative state). */
  assetIds: number[];
  /** Oldest first. */
  participants: GiveawayEntry[];
  created: number;
  endsAt: number;
  /** 64 lowercase hex characters; shown only once the giveaway has ended (its SHA-256 before). */
  serverSeed: string;
  ended: boolean;
  winner: string | null;
  winnerIndex: number | null;
}

export interface GiveawayComment {
  id: number;
  giveaway: number;
  user: string;
  content: string;
  timestamp: number;
}

/** One POST /admin/ban (seed: `time` 0 unbans); GET /admin/banList reads the history. */
export interface Ban {
  id: number;
  user: string;
  admin: string;
  reason: string;
  time: number;
  timestamp: number;
}

/**
 * A code sent by e-mail: e-mail change (valid 24 hours, seed Limits) or 2FA reset (second
 * variant, 24 hours). Both answer `Invalid or expired code`, `Request not found`, `Too many
 * attempts`. Only the code's SHA-256 is kept.
 */
export interface CodeRequest {
  id: number;
  user: string;
  purpose: 'emailChange' | 'twoFactorReset';
  /** The new address of an e-mail change; the backup address of a 2FA reset. */
  email: string;
  codeHash: string;
  attempts: number;
  created: number;
  expires: number;
  used: boolean;
}

/** A user's TOTP setup (seed: Two-factor authentication), keyed by platform ID. */
export interface TwoFactor {
  user: string;
  /** Base32 TOTP secret. */
  secret: string;
  /** The `key` of GET /user/2FA/create, echoed as `secret` by validate. */
  key: string;
  backupEmail: string;
  activatedAt: number | null;
}
