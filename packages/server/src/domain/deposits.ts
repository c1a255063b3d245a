// Deposits (seed: "Deposit and instant sell"; the document's DepositRow and DepositTradeStatus):
// the user's platform inventory with deposit keys and pricing hints, the deposit trade, its status,
// and what an accepted deposit does. A deposit moves assets, never money.
import { createHash } from 'node:crypto';
import type { components } from '@marketplace/types';
import type { PlatformAsset } from '../adapters/platform.ts';
import { putAsset } from './catalog.ts';
import { marketSummary } from './market.ts';
import { listOrSell } from './matching.ts';
import { DEPOSIT } from './messages.ts';
import { mailEvent } from './notify.ts';
import { suggestedPrice } from './pricing.ts';
import { TRADE_STATUS, type Trade, type TradeAssetRecord } from './records.ts';
import type { Asset } from './state.ts';
import { ASSET_ID, closeTrade, openTrade } from './trades.ts';
import { fail, ok, type Tx } from './tx.ts';

export type DepositRow = components['schemas']['DepositRow'];
export type DepositTradeStatus = components['schemas']['DepositTradeStatus'];
type Game = DepositRow['game'];

/** The seed: SHA-256 of the server-side secret, the asset ID and the user ID, concatenated (hex). */
export const depositKey = (secret: string, assetId: string, user: string): string =>
  createHash('sha256').update(`${secret}${assetId}${user}`).digest('hex');

/** Listings of an item from which the marketplace holds "many" (DepositRow `highStock`). */
export const HIGH_STOCK = 50;
/** Seed, Set price: 1 to 5,000,000 cents. */
export const MAX_PRICE = 5_000_000;

/** Asset IDs the user already offers in a pending deposit or instant sell. */
const offeredNow = (tx: Tx, user: string): Set<string> =>
  new Set(
    tx
      .find('tradesByUser', user)
      .filter((t) => t.kind !== 'withdraw' && t.status === TRADE_STATUS.pending)
      .flatMap((t) => t.assetIds),
  );

/** The deposit keys of the user's assets, by asset ID. */
export const depositKeys = (secret: string, user: string, assetIds: readonly string[]): Record<string, string> =>
  Object.fromEntries(assetIds.map((id) => [id, depositKey(secret, id, user)]));

/** Platform assets the service can take: a known item and an asset ID of the document's form. */
export const depositable = (tx: Tx, assets: readonly PlatformAsset[]): PlatformAsset[] =>
  assets.filter((a) => ASSET_ID.test(a.assetId) && tx.get('items', a.itemId));

/**
 * The user's platform assets of `game` that can be deposited (seed: GET /deposit/{game}), with the
 * market's pricing hints (null where there is none) and a deposit key per asset. An asset already
 * offered in a pending trade is `disabled`; `highStock` marks items listed many times already.
 */
export function depositList(
  tx: Tx,
  user: string,
  game: Game,
  platform: readonly PlatformAsset[],
  secret: string,
  now: number,
): { informations: DepositRow[]; depositkey: Record<string, string> } {
  const pending = offeredNow(tx, user);
  const assets = depositable(tx, platform);
  const informations = assets.map((a): DepositRow => {
    const item = tx.get('items', a.itemId)!;
    const summary = marketSummary(tx, item.id, now);
    const suggested = summary ? suggestedPrice(summary, item.deal) : item.deal;
    return {
      assetId: a.assetId,
      item_id: item.id,
      name: item.name,
      image: item.image,
      game,
      tradable: a.tradable !== false,
      suggested_price: suggested > 0 ? suggested : null,
      lowest_sale_price: summary?.lowestListing || null,
      lowest_buy_order: summary?.highestBuyOrder || null,
      disabled: pending.has(a.assetId) || a.tradable === false,
      highStock: (summary?.listingCount ?? 0) >= HIGH_STOCK,
    };
  });
  return {
    informations,
    depositkey: depositKeys(
      secret,
      user,
      assets.map((a) => a.assetId),
    ),
  };
}

/** The messages for a body mapping (`value`, `prices`, `depositKeys`) that breaks its rules. */
/** The messages of one mapping field, each its own literal type (what the operation documents). */
export interface MappingMessages<J extends string = string, N extends string = string, I extends string = string> {
  invalidJson: J;
  notObject: N;
  invalid: I;
}

export const VALUE_MESSAGES = {
  invalidJson: DEPOSIT.invalidValueJson,
  notObject: DEPOSIT.valueNotObject,
  invalid: DEPOSIT.invalidValue,
} as const satisfies MappingMessages;
export const KEYS_MESSAGES = {
  invalidJson: DEPOSIT.invalidDepositKeysJson,
  notObject: DEPOSIT.invalidDepositKeys,
  invalid: DEPOSIT.invalidDepositKeys,
} as const satisfies MappingMessages;

/**
 * A body mapping keyed by asset ID, given as an object or as a string holding its JSON (the
 * document: the string form is for form bodies, so its JSON gets the object form's checks here).
 */
export function parseMapping<J extends string, N extends string, I extends string>(
  raw: unknown,
  messages: MappingMessages<J, N, I>,
) {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return fail(messages.invalidJson);
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return fail(messages.notObject);
  const keys = Object.keys(value);
  if (keys.length === 0 || !keys.every((k) => ASSET_ID.test(k))) return fail(messages.invalid);
  return ok(value as Record<string, unknown>);
}

/** Prices by asset ID: whole cents from 1 to 5,000,000. */
export function parsePrices<J extends string, N extends string, I extends string>(
  raw: unknown,
  messages: MappingMessages<J, N, I>,
) {
  const parsed = parseMapping(raw, messages);
  if (!parsed.ok) return parsed;
  const valid = Object.values(parsed.value).every(
    (p) => Number.isSafeInteger(p) && (p as number) >= 1 && (p as number) <= MAX_PRICE,
  );
  return valid ? ok(parsed.value as Record<string, number>) : fail(messages.invalid);
}

export interface Offered {
  user: string;
  game: Game;
  prices: Record<string, number>;
  keys: Record<string, unknown>;
  platform: readonly PlatformAsset[];
  secret: string;
  now: number;
}

/**
 * The platform assets a deposit or instant sell asks for, checked: every asset of `prices` has its
 * deposit key (`invalid deposit key for assetId: <asset_id>`), and is one the user holds on the
 * platform, of a known item, not already offered in a pending trade (else the prices cannot be
 * stored: `failed to save deposit price`).
 */
export function offeredAssets(tx: Tx, o: Offered) {
  const ids = Object.keys(o.prices);
  const wrongKey = ids.find((id) => o.keys[id] !== depositKey(o.secret, id, o.user));
  if (wrongKey !== undefined) return fail(DEPOSIT.invalidDepositKey(wrongKey));
  const held = new Map(depositable(tx, o.platform).map((a) => [a.assetId, a]));
  const pending = offeredNow(tx, o.user);
  const records: TradeAssetRecord[] = [];
  for (const id of ids) {
    const asset = held.get(id);
    if (!asset || asset.tradable === false || pending.has(id)) return fail(DEPOSIT.saveFailed);
    const { assetId, itemId, ...attributes } = asset;
    records.push({ assetId, itemId, attributes });
  }
  return ok(records);
}

/** Opens the pending trade of checked offered assets (a deposit or an instant sell) and sends its offer. */
export function openOfferedTrade(
  tx: Tx,
  o: Offered,
  assets: TradeAssetRecord[],
  kind: 'deposit' | 'instant_sell',
  payout: string | null,
): { id: number } {
  const trade = openTrade(tx, {
    kind,
    user: o.user,
    game: o.game,
    assetIds: assets.map((a) => a.assetId),
    assets,
    prices: o.prices,
    payout,
    now: o.now,
  });
  return { id: trade.id };
}

/** Creates a deposit trade (seed: POST /deposit/trade): pending, with an offer sent to the user. */
export function createDeposit(tx: Tx, o: Offered) {
  const assets = offeredAssets(tx, o);
  if (!assets.ok) return assets;
  return ok(openOfferedTrade(tx, o, assets.value, 'deposit', null));
}

/** Deposit statuses (seed: 0 pending, 3 completed, -1 failed); a reverted deposit had failed. */
const depositStatus = (t: Readonly<Trade>): DepositTradeStatus['status'] =>
  t.status === TRADE_STATUS.pending ? 0 : t.status === TRADE_STATUS.completed ? 3 : -1;
const STATUS_TEXT = { 0: 'pending', 3: 'completed', [-1]: 'failed' } as const;

/**
 * The status of one of the user's deposit trades (seed: GET /deposit/tradeStatus/{tradeid}); the
 * errors carry the seed's response types `notFound` and `forbidden`.
 */
export function depositTradeStatus(tx: Tx, user: string, id: number) {
  const trade = tx.get('trades', id);
  if (trade?.kind !== 'deposit') return fail({ type: 'notFound', message: DEPOSIT.depositTradeNotFound });
  if (trade.user !== user) return fail({ type: 'forbidden', message: DEPOSIT.depositTradeForbidden });
  const status = depositStatus(trade);
  return ok({
    id: trade.id,
    status,
    statusText: STATUS_TEXT[status],
    trade: {
      tradeId: trade.tradeId,
      assets: (trade.assets ?? []).map((a) => ({
        assetId: a.assetId,
        item_id: a.itemId,
        price: trade.prices[a.assetId]!,
      })),
      created: String(trade.created),
      updated: String(trade.updated ?? trade.created),
    },
  });
}

/** Attributes of a platform asset that a backpack entry keeps. */
const KEPT = ['wear', 'sheen', 'killstreaker', 'spell', 'parts', 'paint', 'html', 'values', 'getImage'] as const;

/**
 * Stores the assets a user gave in an accepted trade as backpack entries of theirs, in their
 * inventory (state 0, not listed), with the attributes they had on the platform.
 */
export function receiveAssets(tx: Tx, trade: Readonly<Trade>, now: number): Asset[] {
  return (trade.assets ?? []).map((a) => {
    const kept = Object.fromEntries(KEPT.filter((k) => a.attributes[k] !== undefined).map((k) => [k, a.attributes[k]]));
    const game = trade.game as Asset['game'];
    return putAsset(tx, { ...kept, owner: trade.user, itemId: a.itemId, assetId: a.assetId, game, state: 0 }, now);
  });
}

/**
 * Applies a settled deposit (test helpers, "The outside world"): accepted, each asset enters the
 * user's inventory listed (state 1) at its deposit price, or sells at once into a buy order at or
 * above that price (matching, as `POST /inventory/price`), and the trade completes; declined or
 * failed, the trade fails and the assets stay on the platform. Returns the new backpack entries.
 */
export function settleDeposit(tx: Tx, trade: Readonly<Trade>, accepted: boolean, now: number): Asset[] {
  if (!accepted) {
    closeTrade(tx, trade, TRADE_STATUS.failed, now);
    return [];
  }
  const stored = receiveAssets(tx, trade, now).map((asset) => {
    listOrSell(tx, asset, trade.prices[asset.assetId]!, now);
    return tx.get('assets', asset.id) as Asset;
  });
  closeTrade(tx, trade, TRADE_STATUS.completed, now);
  mailEvent(tx, trade.user, 'depositCompleted', {
    subject: 'Deposit completed',
    body: `Your deposit #${trade.id} of ${stored.length} item(s) is completed and listed for sale.`,
    data: { trade: trade.id },
  });
  return stored;
}
