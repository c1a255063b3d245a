// Item pricing (seed: "Resources and their fields > Pricing", "Limits"): one row per item computed
// from its market summary and cached. The single-item answer reuses a row computed within 20
// minutes (`cached`); the bulk answer reuses rows computed within 5 minutes (`from_cache`). Both
// read and refresh the same stored rows, so a bulk refresh also serves the single-item route.
import type { components } from '@marketplace/types';
import { type Cache, cached } from './cache.ts';
import { formatDateTime } from './dates.ts';
import { type MarketSummary, marketSummary } from './market.ts';
import { ITEMS } from './messages.ts';
import type { Item } from './state.ts';
import { fail, ok, type Tx } from './tx.ts';

/** A computed pricing row, before it is marked as cached or not. */
export type PricingRow = Omit<components['schemas']['Pricing'], 'cached' | 'from_cache'>;
// The generated types of the two answers are `Pricing & Record<string, never>` (an `allOf` whose
// second part only lists `required`), so they are restated from the row.
type ItemPricing = PricingRow & { cached: boolean };
type BulkPricing = Omit<components['schemas']['BulkPricing'], 'items'> & {
  items: (PricingRow & { from_cache: boolean })[];
};

/** Seed, Limits: "single-item pricing cached 20 minutes". */
export const PRICING_TTL = 20 * 60;
/** Seed, Limits: "bulk pricing reuses stored rows updated within 5 minutes". */
export const BULK_REUSE = 5 * 60;

/**
 * The suggested listing price: one cent under the lowest listing, so the item is the cheapest on
 * the market; without a listing, the last sale price; without either, the external market price.
 * The seed does not give the formula (a gap this project decided, ADR 0004).
 */
export function suggestedPrice(summary: MarketSummary, deal: number): number {
  if (summary.lowestListing > 0) return Math.max(1, summary.lowestListing - 1);
  return summary.lastSale?.price ?? deal;
}

/** The pricing row of an item at `now`; prices are 0 where nothing is listed or bid. */
export function computePricing(item: Pick<Item, 'id' | 'deal'>, summary: MarketSummary, now: number): PricingRow {
  return {
    item_id: item.id,
    last_updated: formatDateTime(now),
    pricing: {
      lowest_sale_price: summary.lowestListing,
      lowest_buy_order: summary.highestBuyOrder,
      platform_price: item.deal,
      suggested_price: suggestedPrice(summary, item.deal),
      last_sale: summary.lastSale,
    },
  };
}

function storedRow(tx: Tx, cache: Cache, item: Item, now: number, ttl: number) {
  return cached(cache, `pricing:${item.id}`, { now, ttl }, () =>
    computePricing(item, marketSummary(tx, item.id, now), now),
  );
}

/** Pricing of one item, from a row at most 20 minutes old (seed: GET /item/pricing/{item}). */
export function itemPricing(tx: Tx, cache: Cache, itemId: number, now: number) {
  const item = tx.get('items', itemId);
  if (!item) return fail(ITEMS.itemNotFound);
  const row = storedRow(tx, cache, item, now, PRICING_TTL);
  return ok<ItemPricing>({ ...row.value, cached: row.hit });
}

/**
 * Pricing of many items (seed: GET /item/pricing/bulk). Every requested ID counts in
 * `total_items`, duplicates included; IDs are priced in order, so a duplicate reuses the row its
 * first occurrence just computed. Unknown item IDs have no entry (the seed does not say).
 */
export function bulkPricing(tx: Tx, cache: Cache, itemIds: readonly number[], now: number): BulkPricing {
  const items: BulkPricing['items'] = [];
  let cachedItems = 0;
  for (const id of itemIds) {
    const item = tx.get('items', id);
    if (!item) continue;
    const row = storedRow(tx, cache, item, now, BULK_REUSE);
    if (row.hit) cachedItems += 1;
    items.push({ ...row.value, from_cache: row.hit });
  }
  return {
    total_items: itemIds.length,
    cached_items: cachedItems,
    refreshed_items: items.length - cachedItems,
    items,
  };
}
