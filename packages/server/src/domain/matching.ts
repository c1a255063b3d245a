// Matching (seed: "States and transitions": "a buy order exists at or above price" → sold; the
// document, POST /inventory/price "Matching"): an asset offered at a price sells at once into the
// best buy order of its item that pays at least that price — highest price first, then oldest —
// never into the seller's own order. The buyer pays the asset's price, not the order's.
import { fillOrder } from './indexes.ts';
import { sell } from './sale.ts';
import type { Asset, BuyOrder, Sale } from './state.ts';
import type { Tx } from './tx.ts';

export { fillOrder };

/**
 * The buy order an asset of `itemId` offered by `seller` at `price` sells into, if any: the item's
 * order book is kept in filling order, so this walks its head until the prices fall below `price`.
 */
export function bestOrder(tx: Tx, itemId: number, seller: string, price: number): Readonly<BuyOrder> | undefined {
  for (const o of tx.ordered('orderBook', String(itemId))) {
    if (o.price < price) return undefined;
    if (o.platformid !== seller) return o;
  }
  return undefined;
}

/**
 * Offers an asset at `price`: sold into the best matching buy order, else listed (state 1) at the
 * price. Returns the sale, if it sold.
 */
export function listOrSell(tx: Tx, asset: Readonly<Asset>, price: number, now: number): Sale | undefined {
  const order = bestOrder(tx, asset.item_id, asset.user, price);
  if (order) {
    const sold = sell(tx, { asset, buyer: order.platformid, price, order, now });
    // An order's reservation always covers a price at or below its own: a refusal is a bug.
    if (!sold.ok) throw new Error(`buy order ${order.id} could not pay ${price}: ${JSON.stringify(sold.error)}`);
    return sold.value;
  }
  tx.put('assets', asset.id, { ...asset, state: 1, price, lastupdate: now });
  return undefined;
}
