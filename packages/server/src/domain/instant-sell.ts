// Instant sell (seed: "Deposit and instant sell"; the document's InstantSellInfo and
// POST /instantsell/trade): game 440 only. The user's platform assets whose item another user bids
// on, at the highest such bid; a trade asks the user for them, and once the platform accepts it
// each asset sells into the highest buy order of its item.
import type { components } from '@marketplace/types';
import type { PlatformAsset } from '../adapters/platform.ts';
import { depositable, depositKeys, type Offered, offeredAssets, openOfferedTrade, receiveAssets } from './deposits.ts';
import { bestOrder } from './matching.ts';
import { DEPOSIT } from './messages.ts';
import { TRADE_STATUS, type Trade } from './records.ts';
import { sell } from './sale.ts';
import { closeTrade } from './trades.ts';
import { fail, ok, type Tx } from './tx.ts';

export type InstantSellInfo = components['schemas']['InstantSellInfo'];

/** The seed: instant sell is for game 440 only. */
export const INSTANT_SELL_GAME = 440;

/**
 * The price an asset of the item sells at now, and the quantity wanted at it (tier 0), if any:
 * the best price among active buy orders of anyone but `seller`, walked from the order book's head.
 */
export function instantPrice(tx: Tx, itemId: number, seller: string): { price: number; count: number } | undefined {
  let best: { price: number; count: number } | undefined;
  for (const o of tx.ordered('orderBook', String(itemId))) {
    if (best && o.price < best.price) break;
    if (o.platformid === seller) continue;
    best ??= { price: o.price, count: 0 };
    best.count += o.amount;
  }
  return best;
}

/**
 * The user's platform assets that can be sold instantly (document: GET /instantsell/{game}), with
 * the price they would sell at and their deposit keys.
 */
export function instantSellInfo(
  tx: Tx,
  user: string,
  game: number,
  platform: readonly PlatformAsset[],
  secret: string,
) {
  if (game !== INSTANT_SELL_GAME) return fail(DEPOSIT.instantSellUnsupported);
  const rows = depositable(tx, platform).flatMap((a) => {
    const item = tx.get('items', a.itemId)!;
    const now = instantPrice(tx, item.id, user);
    if (!now) return [];
    return [
      {
        assetId: a.assetId,
        item_id: item.id,
        name: item.name,
        image: item.image,
        instantPrice: now.price,
        buyOrderCount: now.count,
      },
    ];
  });
  return ok({
    rows,
    depositkey: depositKeys(
      secret,
      user,
      rows.map((r) => r.assetId),
    ),
  });
}

/**
 * Creates an instant-sell trade (document: POST /instantsell/trade): the deposit's checks, and
 * every accepted price at or below the asset's current instant price.
 */
export function createInstantSell(tx: Tx, o: Offered & { method: string }) {
  if (o.game !== INSTANT_SELL_GAME) return fail(DEPOSIT.instantSellUnsupported);
  const assets = offeredAssets(tx, o);
  if (!assets.ok) return assets;
  for (const a of assets.value) {
    const now = instantPrice(tx, a.itemId, o.user);
    if (!now || now.price < o.prices[a.assetId]!) return fail(DEPOSIT.noBuyOrderForDepositAsset(a.assetId));
  }
  return ok(openOfferedTrade(tx, o, assets.value, 'instant_sell', o.method));
}

/**
 * Applies an accepted instant sell (test helpers, "The outside world"): each asset arrives in the
 * user's inventory and sells at once, through the sale primitive, into the best buy order of
 * another user that pays at least the accepted price (highest, then oldest), at that order's price:
 * the seller is credited floor(price x 95 / 100) (payout `balance`). An asset whose bids are gone
 * by then stays in the user's inventory (state 0). The trade completes and records the prices sold at.
 */
export function settleInstantSell(tx: Tx, trade: Readonly<Trade>, now: number): Trade {
  const sold: Record<string, number> = {};
  for (const asset of receiveAssets(tx, trade, now)) {
    const order = bestOrder(tx, asset.item_id, trade.user, trade.prices[asset.assetId]!);
    if (!order) continue;
    const sale = sell(tx, { asset, buyer: order.platformid, price: order.price, order, now });
    // An order's reservation always covers its own price: a refusal is a bug.
    if (!sale.ok) throw new Error(`buy order ${order.id} could not pay ${order.price}: ${JSON.stringify(sale.error)}`);
    sold[asset.assetId] = order.price;
  }
  return closeTrade(tx, { ...trade, prices: { ...trade.prices, ...sold } }, TRADE_STATUS.completed, now);
}
