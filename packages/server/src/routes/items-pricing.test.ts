// Pricing and the sales graph of the item routes in-process (seed: "Endpoints > Items",
// "Pricing", "Sales graph rows", "Limits"), with responses validated against the document.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatDateTime } from '../domain/dates.ts';
import { FORBIDDEN, ITEMS } from '../domain/messages.ts';
import { PRICING_TTL } from '../domain/pricing.ts';
import { refusal, startTestServer, type TestServer } from './test-harness.fixture.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(() => t.reset());

describe('GET /item/pricing/{item}', () => {
  it('Given no JWT, then 403', async () => {
    expect(refusal(await t.api.GET('/item/pricing/{item}', { params: { path: { item: 1 } } }))).toEqual([
      403,
      FORBIDDEN,
    ]);
  });

  it('Given a market, then computed, then cached for 20 minutes, then computed again', async () => {
    const buyer = await t.user({ balance: 10_000 });
    const jwt = await t.login(buyer.apiKey);
    const item = await t.item({ name: 'Key', deal: 214 });
    const { seller } = await t.listed(item, [220, 205]);
    await t.buyOrder({ owner: buyer.platformId, itemId: item.id, price: 190, amount: 2 });
    const now = await t.now();
    await t.sales([{ item_id: item.id, price: 201, seller, buyer: buyer.platformId, timestamp: now - 60 }]);
    const get = () => t.api.GET('/item/pricing/{item}', { params: { path: { item: item.id } }, ...t.auth(jwt) });

    const first = await get();
    expect(first.response.status).toBe(200);
    expect(first.data?.content).toEqual({
      item_id: item.id,
      cached: false,
      last_updated: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      pricing: {
        lowest_sale_price: 205,
        lowest_buy_order: 190,
        platform_price: 214,
        suggested_price: 204,
        last_sale: { price: 201, date: now - 60 },
      },
    });
    await t.listed(item, [150], seller);
    await t.clock({ advance: PRICING_TTL - 5 });
    const second = await get();
    expect([second.data?.content?.cached, second.data?.content?.pricing.lowest_sale_price]).toEqual([true, 205]);
    await t.clock({ advance: 10 });
    const before = await t.now();
    const third = await get();
    const after = await t.now();
    expect(third.data?.content).toMatchObject({
      cached: false,
      pricing: { lowest_sale_price: 150, suggested_price: 149 },
    });
    expect([formatDateTime(before), formatDateTime(after)]).toContain(third.data?.content?.last_updated);
  });

  it('Given an unknown item, then 300 Item not found', async () => {
    const jwt = await t.login((await t.user()).apiKey);
    expect(
      refusal(
        await t.api.GET('/item/pricing/{item}', {
          params: { path: { item: 9 } },
          ...t.auth(jwt),
        }),
      ),
    ).toEqual([300, ITEMS.itemNotFound]);
  });
});

describe('GET /item/pricing/bulk', () => {
  it('Given duplicates and an unknown ID, then every ID counts and duplicates reuse the fresh row', async () => {
    const jwt = await t.login((await t.user()).apiKey);
    const [a, b] = [await t.item({ name: 'A', deal: 100 }), await t.item({ name: 'B', deal: 200 })];
    await t.listed(a, [120]);
    const ids = [a.id, b.id, a.id, 999];
    const get = () => t.api.GET('/item/pricing/bulk', { params: { query: { items: ids.join(',') } }, ...t.auth(jwt) });
    const first = await get();
    expect(first.response.status).toBe(200);
    expect(first.data?.content).toMatchObject({ total_items: ids.length, cached_items: 1, refreshed_items: 2 });
    expect(first.data?.content?.items.map((i) => [i.item_id, i.from_cache, i.pricing.lowest_sale_price])).toEqual([
      [a.id, false, 120],
      [b.id, false, 0],
      [a.id, true, 120],
    ]);
    await t.clock({ advance: 5 * 60 });
    expect((await get()).data?.content).toMatchObject({ cached_items: 1, refreshed_items: 2 });
  });

  it('Given 101 IDs, then 300 Too many items (max 100)', async () => {
    const jwt = await t.login((await t.user()).apiKey);
    const items = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    expect(refusal(await t.api.GET('/item/pricing/bulk', { params: { query: { items } }, ...t.auth(jwt) }))).toEqual([
      300,
      ITEMS.tooManyItems,
    ]);
  });
});

describe('GET /item/salesGraph/{item}', () => {
  it('Given sales over two years, then daily rows inside 1M and ISO weekly rows for ALL', async () => {
    const jwt = await t.login((await t.user()).apiKey);
    const item = await t.item({ name: 'Key' });
    const now = Date.parse('2024-05-15T12:00:00Z') / 1000; // a Wednesday
    await t.clock({ set: now });
    const day = 86_400;
    const sales = [
      { ago: 0, price: 210 },
      { ago: 0, price: 200 },
      { ago: 2 * day, price: 190 }, // Monday 13 May, same ISO week
      { ago: 29 * day, price: 180 }, // 16 April, first day of 1M
      { ago: 30 * day, price: 170 }, // 15 April, outside 1M
      { ago: 500 * day, price: 100 },
    ];
    await t.sales(
      sales.map((s) => ({ item_id: item.id, price: s.price, seller: 'a', buyer: 'b', timestamp: now - s.ago })),
    );
    const graph = async (period: '1M' | 'ALL') =>
      (
        await t.api.GET('/item/salesGraph/{item}', {
          params: { path: { item: item.id }, query: { period } },
          ...t.auth(jwt),
        })
      ).data?.content?.values;
    expect(await graph('1M')).toEqual([
      { date: '2024-04-16 00:00:00', price: 180, nb: 1 },
      { date: '2024-05-13 00:00:00', price: 190, nb: 1 },
      { date: '2024-05-15 00:00:00', price: 410, nb: 2 },
    ]);
    expect(await graph('ALL')).toEqual([
      { first_date: '2022-12-26', week: '202252', total_price: 100, total_nb: 1 }, // 2 January 2023
      { first_date: '2024-04-15', week: '202416', total_price: 350, total_nb: 2 },
      { first_date: '2024-05-13', week: '202420', total_price: 600, total_nb: 3 },
    ]);
  });

  it('Given no period, then 300 Missing required parameter: period', async () => {
    const jwt = await t.login((await t.user()).apiKey);
    const res = await fetch(`${t.baseUrl}/item/salesGraph/1`, t.auth(jwt));
    expect([res.status, (await res.json()).content]).toEqual([300, 'Missing required parameter: period']);
  });
});
