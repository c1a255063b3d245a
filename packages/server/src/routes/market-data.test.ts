// The market data routes in-process (seed: "Endpoints > Items", "Limits"), responses validated
// against the document; expected values are derived from the state each test sets up.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anonymize } from '../domain/public-sales.ts';
import type { Item } from '../domain/state.ts';
import { refusal, startTestServer, type TestServer } from './test-harness.fixture.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(() => t.reset());

const HEADER = 'itemId,name,game,buyPrice,sellPrice,platformPrice,listingCount,buyOrderCount';

/** The JSON answer of GET /public/price (its 200 is JSON or CSV; the JSON one is asked for). */
async function publicPrice(query: { game?: 440 | 730 | 570 | 252490; update?: '1' } = {}, ip?: string) {
  const { data, response } = await t.api.GET('/public/price', {
    params: { query },
    headers: ip ? { 'x-forwarded-for': ip } : {},
  });
  return { response, content: (data as Exclude<typeof data, string> | undefined)?.content };
}

/** Two games' worth of market: a listed and bid key, a bid-only hat, a listed knife, a card. */
async function market() {
  const seller = await t.user();
  const buyer = await t.user({ balance: 100_000 });
  const key = await t.item({ name: 'Key', deal: 214 });
  const hat = await t.item({ name: 'Hat, Team Captain', deal: 5000, craftable: 0, effect: 'Sunbeams' });
  const knife = await t.item({ name: 'Knife', game: 730, deal: 9000 });
  const card = await t.item({ name: 'Card', game: 753, deal: 9 });
  const list = async (item: Item, price: number) =>
    t.asset({ owner: seller.platformId, itemId: item.id, state: 1, price });
  await list(key, 220);
  await list(key, 215);
  await list(knife, 9100);
  await t.buyOrder({ owner: buyer.platformId, itemId: key.id, price: 200, amount: 3 });
  await t.buyOrder({ owner: buyer.platformId, itemId: hat.id, price: 4000, amount: 1 });
  return { seller, buyer, key, hat, knife, card, list };
}

describe('GET /item/prices', () => {
  it('Given a game, then its in-stock items; with outofstock=1 the others too; a second call is 429', async () => {
    const { key, hat } = await market();
    const jwt = await t.login((await t.user()).apiKey);
    const inStock = await t.api.GET('/item/prices', { params: { query: { game: 440 } }, ...t.auth(jwt) });
    expect(inStock.response.status).toBe(200);
    expect(inStock.data?.content).toEqual([
      { name: key.name, craftable: 1, effect: '', url: key.url, assetcount: 2, price: 215 },
    ]);
    const again = await t.api.GET('/item/prices', { params: { query: { game: 440, outofstock: 1 } }, ...t.auth(jwt) });
    expect(again.response.status).toBe(429);
    expect(Number(again.response.headers.get('retry-after'))).toBeGreaterThan(0);

    const other = await t.login((await t.user()).apiKey);
    const all = await t.api.GET('/item/prices', { params: { query: { game: 440, outofstock: 1 } }, ...t.auth(other) });
    expect(all.data?.content?.map((r) => [r.name, r.assetcount, r.price, r.craftable])).toEqual([
      [key.name, 2, 215, 1],
      [hat.name, 0, 0, 0],
    ]);
  });

  it('Given game 753, then its items are accepted (never in stock)', async () => {
    const { card } = await market();
    const jwt = await t.login((await t.user()).apiKey);
    const { data } = await t.api.GET('/item/prices', {
      params: { query: { game: 753, outofstock: 1 } },
      ...t.auth(jwt),
    });
    expect(data?.content?.map((r) => r.name)).toEqual([card.name]);
  });
});

describe('GET /public/price', () => {
  it('Given a market, then one row per market-game item, and a game filter', async () => {
    const { buyer, seller, key, hat, knife } = await market();
    const now = await t.now();
    await t.sales([
      { item_id: key.id, price: 210, seller: seller.platformId, buyer: buyer.platformId, timestamp: now - 3600 },
      { item_id: key.id, price: 205, seller: seller.platformId, buyer: buyer.platformId, timestamp: now - 90_000 },
    ]);
    const { content, response } = await publicPrice();
    expect(response.status).toBe(200);
    expect(content?.itemCount).toBe(3);
    expect(content?.prices.map((r) => r.itemId)).toEqual([key.id, hat.id, knife.id]);
    expect(content?.prices[0]).toEqual({
      itemId: key.id,
      name: key.name,
      game: 440,
      buyPrice: 200,
      sellPrice: 215,
      platformPrice: key.deal,
      listingCount: 2,
      buyOrderCount: 1,
      last24hSales: 1,
      last24hVolume: 210,
    });
    const cs = await publicPrice({ game: 730 });
    expect(cs.content?.prices.map((r) => [r.itemId, r.sellPrice])).toEqual([[knife.id, 9100]]);
  });

  it('Given format=csv, then text/csv starting with the exact header line', async () => {
    const { key, hat, knife } = await market();
    const { data, response } = await t.api.GET('/public/price', {
      params: { query: { format: 'csv' } },
      parseAs: 'text',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((data as unknown as string).split('\n')).toEqual([
      HEADER,
      `${key.id},Key,440,200,215,214,2,1`,
      `${hat.id},"Hat, Team Captain",440,4000,0,5000,0,1`,
      `${knife.id},Knife,730,0,9100,9000,1,0`,
      '',
    ]);
  });

  it('Given a cached list, then update=1 refreshes it once per minute per IP', async () => {
    const { key, list } = await market();
    const sellPrice = async (update: boolean, ip = '10.0.0.1') =>
      (await publicPrice(update ? { update: '1' } : {}, ip)).content?.prices.find((r) => r.itemId === key.id)
        ?.sellPrice;
    expect(await sellPrice(false)).toBe(215);
    await list(key, 150);
    expect(await sellPrice(false)).toBe(215); // cached
    expect(await sellPrice(true)).toBe(150); // forced
    await list(key, 140);
    expect(await sellPrice(true)).toBe(150); // second forced refresh in the minute: the cached list
    expect(await sellPrice(true, '10.0.0.2')).toBe(140); // another IP has its own minute
    await list(key, 130);
    await t.clock({ advance: 60 });
    expect(await sellPrice(true)).toBe(130);
    await list(key, 120);
    await t.clock({ advance: 3 * 60 });
    expect(await sellPrice(false)).toBe(120); // the 3-minute refresh
  });
});

describe('GET /public/sales', () => {
  it('Given sales, then newest first, anonymized, filtered by game, since and limit', async () => {
    const { buyer, seller, key, knife } = await market();
    const now = await t.now();
    const sale = (item: Item, price: number, ago: number) => ({
      item_id: item.id,
      price,
      seller: seller.platformId,
      buyer: buyer.platformId,
      timestamp: now - ago,
    });
    await t.sales([sale(key, 200, 300), sale(knife, 9000, 200), sale(key, 210, 100)]);
    const get = (query: { game?: 440 | 730; limit?: number; since?: number } = {}) =>
      t.api.GET('/public/sales', { params: { query } });
    const all = await get();
    expect(all.response.status).toBe(200);
    expect(all.data?.content?.sales).toEqual([
      {
        itemId: key.id,
        itemName: key.name,
        game: 440,
        price: 210,
        timestamp: now - 100,
        seller: anonymize(seller.platformId),
        buyer: anonymize(buyer.platformId),
      },
      expect.objectContaining({ itemId: knife.id, price: 9000 }),
      expect.objectContaining({ itemId: key.id, price: 200 }),
    ]);
    expect(all.data?.content?.count).toBe(3);
    expect((await get({ game: 730 })).data?.content?.sales.map((s) => s.price)).toEqual([9000]);
    expect((await get({ limit: 1 })).data?.content?.sales.map((s) => s.price)).toEqual([210]);
    expect((await get({ since: now - 200 })).data?.content?.sales.map((s) => s.price)).toEqual([210]);
  });

  it('Given a limit above 1000, then 300 Invalid limit parameter', async () => {
    expect(refusal(await t.api.GET('/public/sales', { params: { query: { limit: 1001 } } }))).toEqual([
      300,
      'Invalid limit parameter',
    ]);
  });
});

describe('GET /infos/prices/buyorderAndLowestSales', () => {
  it('Given a market, then envelope B rows for the items with a listing or a buy order', async () => {
    const { key, hat, knife } = await market();
    const res = await fetch(`${t.baseUrl}/infos/prices/buyorderAndLowestSales`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'success',
      data: {
        prices: [
          { item_id: key.id, buyorder_price: 200, lowest_sale_price: 215 },
          { item_id: hat.id, buyorder_price: 4000, lowest_sale_price: 0 },
          { item_id: knife.id, buyorder_price: 0, lowest_sale_price: 9100 },
        ],
      },
    });
  });

  it('Given update=2, then the envelope B error Invalid update parameter', async () => {
    const res = await fetch(`${t.baseUrl}/infos/prices/buyorderAndLowestSales?update=2`);
    expect([res.status, await res.json()]).toEqual([300, { status: 'error', message: 'Invalid update parameter' }]);
  });
});

describe('GET /infos/admin', () => {
  it('Given two administrators, then both, by name, in envelope B', async () => {
    const zed = await t.user({ name: 'Zed', admin: true });
    await t.user({ name: 'Bob' });
    const amy = await t.user({ name: 'Amy', admin: true });
    const res = await fetch(`${t.baseUrl}/infos/admin`);
    expect(await res.json()).toEqual({
      status: 'success',
      data: [
        { name: 'Amy', platformId: amy.platformId, role: 'admin' },
        { name: 'Zed', platformId: zed.platformId, role: 'admin' },
      ],
    });
  });
});
