import { describe, expect, it } from 'vitest';
import { DAY } from './dates.ts';
import { itemsInMarket, marketSummary } from './market.ts';
import { testState } from './test-state.fixture.ts';

describe('marketSummary', () => {
  it('reads listings in state 1, active buy orders and the sales before now', () => {
    const s = testState();
    const [a, b] = [s.user(), s.user()];
    const item = s.item();
    s.asset({ owner: a.platformId, itemId: item.id, state: 1, price: 300 });
    s.asset({ owner: a.platformId, itemId: item.id, state: 1, price: 250 });
    s.asset({ owner: a.platformId, itemId: item.id, state: 0, price: 100 }); // not listed
    s.asset({ owner: a.platformId, itemId: item.id, state: 2, price: 90 }); // pending withdrawal
    s.order(a.platformId, item.id, 200, 1);
    s.order(b.platformId, item.id, 220, 2);
    s.sale({ item_id: item.id, price: 280, timestamp: s.now - 2 * DAY });
    s.sale({ item_id: item.id, price: 260, timestamp: s.now - 3600 });
    s.sale({ item_id: item.id, price: 270, timestamp: s.now - 3600 }); // same second, later record
    s.sale({ item_id: item.id, price: 999, timestamp: s.now + 10 }); // after now: ignored
    expect(marketSummary(s.tx, item.id, s.now)).toEqual({
      itemId: item.id,
      lowestListing: 250,
      listingCount: 2,
      highestBuyOrder: 220,
      buyOrderCount: 2,
      lastSale: { price: 270, date: s.now - 3600 },
      last24hSales: 2,
      last24hVolume: 530,
    });
  });

  it('is all zeros for an item without activity', () => {
    const s = testState();
    const item = s.item();
    expect(marketSummary(s.tx, item.id, s.now)).toMatchObject({ lowestListing: 0, highestBuyOrder: 0, lastSale: null });
    expect(itemsInMarket(s.tx)).not.toContain(item.id);
  });
});

describe('itemsInMarket', () => {
  it('is the items with a listing or an active buy order, not those with only sales or unlisted assets', () => {
    const s = testState();
    const a = s.user();
    const [listed, bid, both, sold, stored] = [s.item(), s.item(), s.item(), s.item(), s.item()];
    s.asset({ owner: a.platformId, itemId: listed.id, state: 1, price: 300 });
    s.order(a.platformId, bid.id, 200, 1);
    s.asset({ owner: a.platformId, itemId: both.id, state: 1, price: 300 });
    s.order(a.platformId, both.id, 200, 1);
    s.sale({ item_id: sold.id, price: 280, timestamp: s.now - 60 });
    s.asset({ owner: a.platformId, itemId: stored.id, state: 0, price: null });
    expect(itemsInMarket(s.tx).sort((x, y) => x - y)).toEqual([listed.id, bid.id, both.id]);
  });
});
