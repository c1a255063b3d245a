import { describe, expect, it } from 'vitest';
import type { Cache } from './cache.ts';
import { DAY } from './dates.ts';
import {
  compactPriceList,
  csvField,
  itemPriceList,
  PRICE_LIST_TTL,
  priceListCsv,
  publicPriceList,
  publicPriceRows,
} from './price-lists.ts';
import { testState } from './test-state.fixture.ts';

function catalogue() {
  const s = testState();
  const [seller, buyer] = [s.user(), s.user()];
  const key = s.item({ name: 'Key', deal: 214 });
  const hat = s.item({ name: 'Hat, Team Captain', deal: 5000, craftable: 0, effect: 'Sunbeams' });
  const knife = s.item({ name: 'Knife', game: 730, deal: 9000 });
  const card = s.item({ name: 'Card', game: 753, deal: 9 });
  for (const price of [220, 215]) s.asset({ owner: seller.platformId, itemId: key.id, state: 1, price });
  s.asset({ owner: seller.platformId, itemId: knife.id, state: 1, price: 9100 });
  s.order(buyer.platformId, key.id, 200, 3);
  s.order(buyer.platformId, hat.id, 4000, 1);
  s.sale({ item_id: key.id, price: 210, timestamp: s.now - 60 });
  s.sale({ item_id: key.id, price: 205, timestamp: s.now - 2 * DAY });
  return { s, seller, key, hat, knife, card };
}

describe('itemPriceList', () => {
  it.each([
    ['in-stock items of the game only', 440, false, ['Key']],
    ['out-of-stock items too', 440, true, ['Key', 'Hat, Team Captain']],
    ['another game', 730, false, ['Knife']],
    ['game 753 items are out of stock', 753, true, ['Card']],
  ])('%s', (_name, game, outOfStock, names) => {
    const { s } = catalogue();
    expect(itemPriceList(s.tx, game, outOfStock).map((r) => r.name)).toEqual(names);
  });

  it('prices a row at its lowest listing and counts the listed assets', () => {
    const { s, key, hat } = catalogue();
    expect(itemPriceList(s.tx, 440, true)).toEqual([
      { name: 'Key', craftable: 1, effect: '', url: key.url, assetcount: 2, price: 215 },
      { name: hat.name, craftable: 0, effect: 'Sunbeams', url: hat.url, assetcount: 0, price: 0 },
    ]);
  });
});

describe('publicPriceRows', () => {
  it('lists every market-game item, 0 meaning none, and leaves game 753 out', () => {
    const { s, key, hat, knife } = catalogue();
    const rows = publicPriceRows(s.tx, s.now);
    expect(rows.map((r) => r.itemId)).toEqual([key.id, hat.id, knife.id]);
    expect(rows[0]).toEqual({
      itemId: key.id,
      name: 'Key',
      game: 440,
      buyPrice: 200,
      sellPrice: 215,
      platformPrice: 214,
      listingCount: 2,
      buyOrderCount: 1,
      last24hSales: 1,
      last24hVolume: 210,
    });
    expect(rows[1]).toMatchObject({ buyPrice: 4000, sellPrice: 0, listingCount: 0 });
  });
});

describe('the cached lists', () => {
  it.each([
    ['reused within 3 minutes', PRICE_LIST_TTL - 1, false, true],
    ['refreshed after 3 minutes', PRICE_LIST_TTL, false, false],
    ['refreshed when forced', 1, true, false],
  ])('%s', (_name, later, force, hit) => {
    const { s, seller, key } = catalogue();
    const cache: Cache = new Map();
    publicPriceList(s.tx, cache, { now: s.now, force: false });
    compactPriceList(s.tx, cache, { now: s.now, force: false });
    s.asset({ owner: seller.platformId, itemId: key.id, state: 1, price: 100 });
    const list = publicPriceList(s.tx, cache, { now: s.now + later, force });
    const compact = compactPriceList(s.tx, cache, { now: s.now + later, force });
    expect([list.hit, list.value[0]!.sellPrice]).toEqual([hit, hit ? 215 : 100]);
    expect([compact.hit, compact.value[0]!.lowest_sale_price]).toEqual([hit, hit ? 215 : 100]);
  });

  it('the compact list has the items with a listing or a buy order', () => {
    const { s, key, hat, knife } = catalogue();
    expect(compactPriceList(s.tx, new Map(), { now: s.now, force: false }).value).toEqual([
      { item_id: key.id, buyorder_price: 200, lowest_sale_price: 215 },
      { item_id: hat.id, buyorder_price: 4000, lowest_sale_price: 0 },
      { item_id: knife.id, buyorder_price: 0, lowest_sale_price: 9100 },
    ]);
  });
});

describe('CSV', () => {
  it.each([
    ['plain', 'Key', 'Key'],
    ['a comma', 'Hat, Team Captain', '"Hat, Team Captain"'],
    ['a quote', 'The "Hat"', '"The ""Hat"""'],
    ['a number', 214, '214'],
  ])('quotes %s', (_name, given, want) => {
    expect(csvField(given)).toBe(want);
  });

  it('starts with the exact header line, then one line per row', () => {
    const { s } = catalogue();
    const lines = priceListCsv(publicPriceRows(s.tx, s.now)).split('\n');
    expect(lines[0]).toBe('itemId,name,game,buyPrice,sellPrice,platformPrice,listingCount,buyOrderCount');
    expect(lines[2]).toBe('2,"Hat, Team Captain",440,4000,0,5000,0,1');
    expect(lines).toHaveLength(5); // header, three rows, the final newline
  });
});
