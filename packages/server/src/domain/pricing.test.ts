import { describe, expect, it } from 'vitest';
import type { Cache } from './cache.ts';
import { marketSummary } from './market.ts';
import { ITEMS } from './messages.ts';
import { BULK_REUSE, bulkPricing, itemPricing, PRICING_TTL, suggestedPrice } from './pricing.ts';
import { testState } from './test-state.fixture.ts';

const summary = (lowestListing: number, lastSale: number | null) => ({
  ...marketSummary(testState().tx, 1, 0),
  lowestListing,
  lastSale: lastSale === null ? null : { price: lastSale, date: 0 },
});

describe('suggestedPrice', () => {
  it.each([
    ['one cent under the lowest listing', summary(205, 150), 300, 204],
    ['never below 1 cent', summary(1, null), 300, 1],
    ['the last sale when nothing is listed', summary(0, 150), 300, 150],
    ['the external price when never listed nor sold', summary(0, null), 300, 300],
  ])('%s', (_name, given, deal, want) => {
    expect(suggestedPrice(given, deal)).toBe(want);
  });
});

function priced() {
  const s = testState(1_700_000_000); // 2023-11-14 22:13:20 UTC
  const [seller, buyer] = [s.user(), s.user()];
  const item = s.item({ deal: 198 });
  s.asset({ owner: seller.platformId, itemId: item.id, state: 1, price: 210 });
  s.asset({ owner: seller.platformId, itemId: item.id, state: 1, price: 205 });
  s.order(buyer.platformId, item.id, 190, 2);
  s.sale({ item_id: item.id, price: 201, timestamp: s.now - 100 });
  return { s, item, seller };
}

describe('itemPricing', () => {
  it('computes the row from the market', () => {
    const { s, item } = priced();
    expect(itemPricing(s.tx, new Map(), item.id, s.now)).toEqual({
      ok: true,
      value: {
        item_id: item.id,
        last_updated: '2023-11-14 22:13:20',
        cached: false,
        pricing: {
          lowest_sale_price: 205,
          lowest_buy_order: 190,
          platform_price: 198,
          suggested_price: 204,
          last_sale: { price: 201, date: s.now - 100 },
        },
      },
    });
  });

  it.each([
    ['served from cache within 20 minutes', PRICING_TTL - 1, true, 205],
    ['recomputed after 20 minutes', PRICING_TTL, false, 150],
  ])('%s', (_name, later, cached, lowest) => {
    const { s, item, seller } = priced();
    const cache: Cache = new Map();
    itemPricing(s.tx, cache, item.id, s.now);
    s.asset({ owner: seller.platformId, itemId: item.id, state: 1, price: 150 });
    const again = itemPricing(s.tx, cache, item.id, s.now + later);
    expect(again.ok && [again.value.cached, again.value.pricing.lowest_sale_price]).toEqual([cached, lowest]);
  });

  it('answers Item not found for an unknown item', () => {
    expect(itemPricing(testState().tx, new Map(), 42, 0)).toEqual({ ok: false, error: ITEMS.itemNotFound });
  });
});

describe('bulkPricing', () => {
  it('counts duplicates separately and reuses the row their first occurrence computed', () => {
    const { s, item } = priced();
    const other = s.item();
    const bulk = bulkPricing(s.tx, new Map(), [item.id, other.id, item.id], s.now);
    expect(bulk).toMatchObject({ total_items: 3, cached_items: 1, refreshed_items: 2 });
    expect(bulk.items.map((i) => [i.item_id, i.from_cache])).toEqual([
      [item.id, false],
      [other.id, false],
      [item.id, true],
    ]);
  });

  it.each([
    ['reuses rows computed within 5 minutes', BULK_REUSE - 1, 1],
    ['recomputes older rows', BULK_REUSE, 0],
  ])('%s', (_name, later, cachedItems) => {
    const { s, item } = priced();
    const cache: Cache = new Map();
    itemPricing(s.tx, cache, item.id, s.now);
    const bulk = bulkPricing(s.tx, cache, [item.id], s.now + later);
    expect([bulk.cached_items, bulk.refreshed_items]).toEqual([cachedItems, 1 - cachedItems]);
  });

  it('leaves unknown IDs out of the entries but counts them as requested', () => {
    const { s, item } = priced();
    expect(bulkPricing(s.tx, new Map(), [item.id, 999], s.now)).toMatchObject({
      total_items: 2,
      cached_items: 0,
      refreshed_items: 1,
    });
  });
});
