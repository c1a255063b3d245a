// What the market says about an item right now (seed: "Pricing", "Endpoints > Items"): the
// lowest active listing, the highest active buy order, their counts, the last sale and the last
// 24 hours of sales. Every price list and pricing answer reads these summaries, so "active" means
// the same thing everywhere: a listing is an asset in state 1 with a price, a buy order is active
// while its remaining amount is above 0.
import { DAY } from './dates.ts';
import type { Asset, BuyOrder, Sale } from './state.ts';
import type { Tx } from './tx.ts';

export interface MarketSummary {
  itemId: number;
  /** Lowest active listing price in cents; 0 when nothing is listed. */
  lowestListing: number;
  listingCount: number;
  /** Highest active buy order price in cents; 0 when nobody bids. */
  highestBuyOrder: number;
  buyOrderCount: number;
  lastSale: { price: number; date: number } | null;
  /** Sales in the 24 hours before `now`, and their total in cents. */
  last24hSales: number;
  last24hVolume: number;
}

/** Whether an asset is an active listing (seed: States, state 1 "listed for sale"). */
export const isListed = (a: Pick<Asset, 'state' | 'price'>): boolean =>
  a.state === 1 && a.price !== null && a.price > 0;

/** Whether a buy order still wants items (seed: `amount` is the remaining quantity). */
export const isActiveOrder = (o: Pick<BuyOrder, 'amount'>): boolean => o.amount > 0;

const empty = (itemId: number): MarketSummary => ({
  itemId,
  lowestListing: 0,
  listingCount: 0,
  highestBuyOrder: 0,
  buyOrderCount: 0,
  lastSale: null,
  last24hSales: 0,
  last24hVolume: 0,
});

/** Summaries of every item that has a listing, a buy order or a sale, in one pass over each. */
export function summarize(
  assets: readonly Asset[],
  orders: readonly BuyOrder[],
  sales: readonly Sale[],
  now: number,
): Map<number, MarketSummary> {
  const out = new Map<number, MarketSummary>();
  const of = (itemId: number) => out.get(itemId) ?? out.set(itemId, empty(itemId)).get(itemId)!;
  for (const a of assets) {
    if (!isListed(a)) continue;
    const s = of(a.item_id);
    s.listingCount += 1;
    if (s.lowestListing === 0 || a.price! < s.lowestListing) s.lowestListing = a.price!;
  }
  for (const o of orders) {
    if (!isActiveOrder(o)) continue;
    const s = of(o.itemid);
    s.buyOrderCount += 1;
    s.highestBuyOrder = Math.max(s.highestBuyOrder, o.price);
  }
  const lastSaleId = new Map<number, number>();
  for (const sale of sales) {
    if (sale.timestamp > now) continue; // recorded after the clock's present (a test clock set back)
    const s = of(sale.item_id);
    const last = s.lastSale;
    // Latest first; among sales of the same second the later record wins.
    if (!last || sale.timestamp > last.date || (sale.timestamp === last.date && sale.id > lastSaleId.get(s.itemId)!)) {
      s.lastSale = { price: sale.price, date: sale.timestamp };
      lastSaleId.set(s.itemId, sale.id);
    }
    if (sale.timestamp > now - DAY) {
      s.last24hSales += 1;
      s.last24hVolume += sale.price;
    }
  }
  return out;
}

/** Summaries of every item, keyed by item ID (items without activity are absent). */
export const marketSummaries = (tx: Tx, now: number): Map<number, MarketSummary> =>
  summarize(tx.all('assets'), tx.all('buyOrders'), tx.all('sales'), now);

/** The summary of one item (all zeros when it has no activity). */
export function marketSummary(tx: Tx, itemId: number, now: number): MarketSummary {
  const mine = <T>(rows: readonly T[], key: (row: T) => number) => rows.filter((r) => key(r) === itemId);
  const summaries = summarize(
    mine(tx.all('assets'), (a) => a.item_id),
    mine(tx.all('buyOrders'), (o) => o.itemid),
    mine(tx.all('sales'), (s) => s.item_id),
    now,
  );
  return summaries.get(itemId) ?? empty(itemId);
}
