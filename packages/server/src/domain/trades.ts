// Trades between a user and the bots (seed: "Trading", "Other state sets", "Transitions shown";
// the document's Trade): deposits, withdrawals and instant sells. A trade starts pending (0) with a
// platform offer sent to the user; the platform settles it (3 completed, -1 failed); an admin
// reverts a failed one (-12). A withdrawal holds its assets in state 2 until the offer settles.
import type { components } from '@marketplace/types';
import type { OfferOutcome } from '../adapters/platform.ts';
import { ownAsset } from './inventory.ts';
import { ADMIN, INVENTORY, TRADES } from './messages.ts';
import { addNotification, mailEvent } from './notify.ts';
import { TRADE_STATUS, type Trade, type TradeAssetRecord, type TradeStatus } from './records.ts';
import type { Asset } from './state.ts';
import { fail, ok, type Tx } from './tx.ts';

export type TradeView = components['schemas']['Trade'];

const STATUS_TEXT: Record<TradeStatus, TradeView['statusText']> = {
  0: 'pending',
  3: 'completed',
  [-1]: 'failed',
  [-11]: 'hidden',
  [-12]: 'reverted',
};

/** An asset ID as the document writes it (1 to 20 digits). */
export const ASSET_ID = /^[0-9]{1,20}$/;

/** The platform offer ID of a trade's first offer; each resend takes the next number. */
export const firstOfferId = (tradeId: number): string => String(5_000_000_000 + tradeId * 100);

export interface NewTrade {
  kind: Trade['kind'];
  user: string;
  game: number;
  /** Platform asset IDs (deposit, instant sell) or backpack entry IDs (withdrawal). */
  assetIds: string[];
  assets: TradeAssetRecord[];
  prices: Record<string, number>;
  payout: string | null;
  now: number;
}

const OFFER_PURPOSE: Record<Trade['kind'], string> = {
  deposit: 'your deposit',
  withdraw: 'your withdrawal',
  instant_sell: 'your instant sell',
};

/**
 * Sends the trade's platform offer to its user (performed once the change is durable), and tells
 * them: an unread `offer` notification and the `offerReceived` e-mail (the document's
 * MailNotifications says which operations send which kind).
 */
function sendOffer(tx: Tx, trade: Trade): void {
  const assetIds = (trade.assets ?? []).map((a) => a.assetId);
  tx.emit({ kind: 'offer', tradeId: trade.tradeId, offer: trade.kind, platformId: trade.user, assetIds });
  const text = `Our bot sent you trade offer ${trade.tradeId} for ${OFFER_PURPOSE[trade.kind]} #${trade.id} (${assetIds.length} item(s)): accept it on the platform.`;
  const data = { trade: trade.id, tradeId: trade.tradeId, kind: trade.kind };
  addNotification(tx, trade.user, 'offer', text, data, trade.updated ?? trade.created);
  mailEvent(tx, trade.user, 'offerReceived', { subject: 'Trade offer received', body: text, data });
}

/** Stores a pending trade and sends its offer. */
export function openTrade(tx: Tx, t: NewTrade): Trade {
  const id = tx.nextId('trades');
  const trade: Trade = {
    id,
    tradeId: firstOfferId(id),
    kind: t.kind,
    user: t.user,
    game: t.game,
    assetIds: t.assetIds,
    prices: t.prices,
    payout: t.payout,
    status: TRADE_STATUS.pending,
    created: t.now,
    completedAt: null,
    assets: t.assets,
    updated: t.now,
  };
  tx.put('trades', id, trade);
  sendOffer(tx, trade);
  return trade;
}

/** A trade as the document shows it (Trade): its assets with their items' names and images. */
export function tradeView(tx: Tx, t: Readonly<Trade>): TradeView {
  const assets = (t.assets ?? []).map((a) => {
    const item = tx.get('items', a.itemId);
    return { assetId: a.assetId, item_id: a.itemId, name: item?.name ?? '', image: item?.image ?? '' };
  });
  return {
    id: t.id,
    tradeId: t.tradeId,
    kind: t.kind,
    status: t.status,
    statusText: STATUS_TEXT[t.status],
    assets,
    created: String(t.created),
    updated: String(t.updated ?? t.completedAt ?? t.created),
  };
}

/**
 * One page of the user's trades, newest first (document: GET /trades/active and /trades/all):
 * `active` keeps the pending ones, `all` every one except hidden trades (-11).
 */
export function listTrades(
  tx: Tx,
  user: string,
  which: 'active' | 'all',
  page: number,
  count: number,
): { trades: TradeView[]; count: number } {
  const rows = tx
    .find('tradesByUser', user)
    .filter((t) => (which === 'active' ? t.status === TRADE_STATUS.pending : t.status !== TRADE_STATUS.hidden))
    .sort((a, b) => b.id - a.id);
  return { trades: rows.slice(page * count, (page + 1) * count).map((t) => tradeView(tx, t)), count: rows.length };
}

/**
 * Sends a pending trade's offer again under a new platform offer ID (seed: "Trading", resend;
 * the document: only pending trades, another user's trade is not found).
 */
export function resendTrade(tx: Tx, user: string, id: number, now: number) {
  const trade = tx.get('trades', id);
  if (trade?.user !== user) return fail(TRADES.tradeNotFound);
  if (trade.status !== TRADE_STATUS.pending) return fail(TRADES.cannotResend);
  const next = tx.put('trades', id, { ...trade, tradeId: String(Number(trade.tradeId) + 1), updated: now });
  sendOffer(tx, next);
  return ok({ message: TRADES.resent, trade: tradeView(tx, next) });
}

/** What a trade records of an asset of the service. */
const recordOf = (a: Readonly<Asset>): TradeAssetRecord => ({ assetId: a.assetId, itemId: a.item_id, attributes: {} });

/**
 * Withdraws the user's assets (seed: POST /inventory/withdraw, "Transitions shown"): `ids` are
 * comma-separated asset IDs; entries that are not asset IDs are ignored. Assets in state 0 or 1
 * move to 2 (pending withdrawal, `updated`); the others are locked in trades (`locked`). One trade
 * offer sends the withdrawn assets to the owner.
 */
export function withdraw(tx: Tx, user: string, ids: string, now: number) {
  const wanted = [
    ...new Set(
      ids
        .split(',')
        .map((s) => s.trim())
        .filter((s) => ASSET_ID.test(s)),
    ),
  ];
  if (wanted.length === 0) return fail(INVENTORY.noValidIds);
  const assets = wanted.map((id) => ownAsset(tx, user, id));
  if (assets.some((a) => !a)) return fail(INVENTORY.itemsNotFound);
  const free = (assets as Readonly<Asset>[]).filter((a) => a.state === 0 || a.state === 1);
  if (free.length === 0) return fail(INVENTORY.notWithdrawable);
  for (const a of free) tx.put('assets', a.id, { ...a, state: 2, lastupdate: now });
  const trade = openTrade(tx, {
    kind: 'withdraw',
    user,
    game: free[0]!.game,
    assetIds: free.map((a) => String(a.id)),
    assets: free.map(recordOf),
    prices: {},
    payout: null,
    now,
  });
  return ok({
    message: TRADES.withdrawalInitiated,
    updated: free.length,
    locked: assets.length - free.length,
    trade: trade.id,
  });
}

/** The trade whose current platform offer has this ID. */
export const tradeByOffer = (tx: Tx, tradeId: string): Readonly<Trade> | undefined =>
  tx.findOne('tradesByOffer', tradeId);

/** The withdrawal's assets still held by it (state 2, the trade's user). */
const heldAssets = (tx: Tx, trade: Readonly<Trade>): Readonly<Asset>[] =>
  trade.assetIds.flatMap((id) => {
    const a = tx.get('assets', id);
    return a && a.state === 2 && a.user === trade.user ? [a] : [];
  });

/** Marks a trade completed or failed at `now`. */
export function closeTrade(tx: Tx, trade: Readonly<Trade>, status: TradeStatus, now: number): Trade {
  return tx.put('trades', trade.id, { ...trade, status, completedAt: now, updated: now });
}

/**
 * Applies a settled withdrawal: accepted, its assets leave the service; declined or failed, they
 * stay held (state 2) until an admin reverts the trade.
 */
export function settleWithdrawal(tx: Tx, trade: Readonly<Trade>, outcome: OfferOutcome, now: number): Trade {
  if (outcome !== 'accept') return closeTrade(tx, trade, TRADE_STATUS.failed, now);
  const held = heldAssets(tx, trade);
  for (const a of held) tx.delete('assets', a.id);
  mailEvent(tx, trade.user, 'tradeCompleted', {
    subject: 'Trade completed',
    body: `Your withdrawal #${trade.id} of ${held.length} item(s) is completed.`,
    data: { trade: trade.id },
  });
  return closeTrade(tx, trade, TRADE_STATUS.completed, now);
}

/**
 * Reverts a failed trade (seed: POST /admin/revertTrade/{trade}): the assets a withdrawal held go
 * back to the owner's inventory (state 0, not listed) and the trade becomes reverted (-12). A failed
 * deposit or instant sell left its assets on the platform: nothing to restore.
 */
export function revertTrade(tx: Tx, id: number, now: number) {
  const trade = tx.get('trades', id);
  if (!trade) return fail(ADMIN.tradeNotFound);
  if (trade.status !== TRADE_STATUS.failed) return fail(ADMIN.noFailedTrade);
  const held = trade.kind === 'withdraw' ? heldAssets(tx, trade) : [];
  for (const a of held) tx.put('assets', a.id, { ...a, state: 0, price: null, lastupdate: now });
  tx.put('trades', id, { ...trade, status: TRADE_STATUS.reverted, updated: now });
  return ok({ message: TRADES.reverted, trade: id, restored: held.length });
}
