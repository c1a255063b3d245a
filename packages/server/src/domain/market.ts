// What the market says about an item right now (seed: "Pricing", "Endpoints > Items"): the
// lowest active listing, the highest active buy order, their counts, the last sale and the last
// 24 hours of sales. Every price list and pricing answer reads these summaries, so "active" means
// the same thing everywhere: a listing is an asset in state 1 with a price, a buy order is active
// while its remaining amount is above 0.
import { DAY } from './dates.ts';
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

// Defined beside the indexes that group records by them, so "active" is one rule everywhere.
export { isActiveOrder, isListed } from './indexes.ts';

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

/**
 * The summary of one item (all zeros when it has no activity), read from the indexes: the head of
 * its listings and of its order book, their counts, and its sales from `now` back over one day.
 * Sales recorded after the clock's present (a test clock set back) are skipped.
 */
export function marketSummary(tx: Tx, itemId: number, now: number): MarketSummary {
  const s = { ...empty(itemId), ...bookSummary(tx, itemId) };
  for (const sale of tx.ordered('salesByItem', String(itemId), { timestamp: now, id: Number.MAX_SAFE_INTEGER })) {
    s.lastSale ??= { price: sale.price, date: sale.timestamp };
    if (sale.timestamp <= now - DAY) break;
    s.last24hSales += 1;
    s.last24hVolume += sale.price;
  }
  return s;
}

export type BookSummary = Pick<
  MarketSummary,
  'itemId' | 'lowestListing' | 'listingCount' | 'highestBuyOrder' | 'buyOrderCount'
>;

/** The market of an item without its sales: the heads of its listings and its order book, their counts. */
export function bookSummary(tx: Tx, itemId: number): BookSummary {
  const group = String(itemId);
  const listingCount = tx.count('listingsByItem', group);
  const buyOrderCount = tx.count('orderBook', group);
  return {
    itemId,
    lowestListing: listingCount > 0 ? tx.ordered('listingsByItem', group).next().value!.price! : 0,
    listingCount,
    highestBuyOrder: buyOrderCount > 0 ? tx.ordered('orderBook', group).next().value!.price : 0,
    buyOrderCount,
  };
}

/**
 * The IDs of the items with a listing or an active buy order, in no particular order: the groups
 * of the two indexes, so the cost is those items, not the catalogue.
 */
export const itemsInMarket = (tx: Tx): number[] =>
  [...new Set([...tx.groups('listingsByItem'), ...tx.groups('orderBook')])].map(Number);
