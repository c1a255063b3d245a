import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer } from './test-harness.fixture.ts';

type Harness = Awaited<ReturnType<typeof startTestServer>>;
let t: Harness;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(() => t.reset());

/** A user with `n` sales of 100, 200, ... cents, logged in: `n` sale entries and the opening bonus. */
async function seller(n: number) {
  const item = await t.item({ name: 'Paged Hat' });
  const me = await t.user({ balance: 1 });
  const buyer = await t.user({ balance: 1_000_000 });
  await t.buyOrder({ owner: buyer.platformId, itemId: item.id, price: 100 * n, amount: n });
  const jwt = await t.login(me.apiKey);
  for (let i = 1; i <= n; i++) {
    const asset = await t.asset({ owner: me.platformId, itemId: item.id });
    const res = await fetch(`${t.baseUrl}/inventory/price`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
      body: JSON.stringify({ ids: asset.assetId, price: 100 * i }),
    });
    expect(res.status).toBe(200);
  }
  return jwt;
}

async function get(path: string, jwt: string) {
  const res = await fetch(`${t.baseUrl}${path}`, { headers: { authorization: `Bearer ${jwt}` } });
  expect(res.status).toBe(200);
  return (await res.json()).content;
}

describe('page sizes of the histories', () => {
  it('GET /user/getBalanceHistory takes the page size from count or limit, count winning, default 10', async () => {
    const jwt = await seller(12);
    expect((await get('/user/getBalanceHistory', jwt)).values).toHaveLength(10);
    expect((await get('/user/getBalanceHistory?limit=3', jwt)).values).toHaveLength(3);
    expect((await get('/user/getBalanceHistory?count=4&limit=3', jwt)).values).toHaveLength(4);
    const last = await get('/user/getBalanceHistory?limit=6&page=2', jwt);
    expect(last).toEqual({ values: [expect.objectContaining({ type: 'bonus', amount: 1 })], count: 13 });
  });

  it('GET /user/getSalesHistory pages by perPage and getTransactionHistory by limit', async () => {
    const jwt = await seller(3);
    const sales = await get('/user/getSalesHistory?perPage=2&page=1', jwt);
    expect(sales).toMatchObject({ total: 3, page: 1, perpage: 2, totalRevenue: 600 });
    expect(sales.sales.map((s: { price: number }) => s.price)).toEqual([100]);
    const history = await get('/user/getTransactionHistory?limit=2&search=sale%3A+paged', jwt);
    expect(history).toMatchObject({ total: 3, perpage: 2 });
  });

  it('GET /user/getSalesChartInfos leaves the statistics out with chart_only', async () => {
    const jwt = await seller(1);
    expect(Object.keys(await get('/user/getSalesChartInfos?chart_only=true', jwt))).toEqual(['values']);
    expect(Object.keys(await get('/user/getSalesChartInfos?chart_only=0', jwt))).toEqual(['values', 'statistics']);
  });
});
