// The demo data: deterministic, quick, believable, and every item and market route answers it
// with a response the document accepts (test mode validates responses; a mismatch is a 500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoData, DEMO_KEYS, DEMO_PLATFORM_INVENTORY, seededRandom } from './demo-data.ts';
import { auditMoney } from './domain/audit.ts';
import { DAY } from './domain/dates.ts';
import { emptyState, type State } from './domain/state.ts';
import { Tx } from './domain/tx.ts';
import { startTestServer, type TestServer } from './routes/test-harness.fixture.ts';

const NOW = 1_790_000_000;
function build(now = NOW): State {
  const state = emptyState();
  const tx = new Tx(state);
  let admins = 0;
  buildDemoData(tx, now, () => `demo-admin-key-${++admins}`);
  tx.commit();
  return state;
}

describe('buildDemoData', () => {
  // No time limit asserted here: a timed test fails on a busy machine (it took 487 ms once at a
  // load of 20); speed belongs to `npm run bench`.
  it('gives the same state for the same clock', () => {
    const first = build();
    expect(build()).toEqual(first);
  });

  it('fills four games, ten users, about 200 listings, buy orders and a year of sales', () => {
    const state = build();
    const items = Object.values(state.items);
    const listed = Object.values(state.assets).filter((a) => a.state === 1);
    const sales = Object.values(state.sales);
    expect(new Set(items.map((i) => i.game))).toEqual(new Set([440, 730, 570, 252490, 753]));
    expect(items.length).toBeGreaterThanOrEqual(40);
    expect(Object.keys(state.users)).toHaveLength(10);
    expect(listed.length).toBeGreaterThanOrEqual(180);
    expect(new Set(Object.values(state.buyOrders).map((o) => o.itemid)).size).toBeGreaterThanOrEqual(20);
    expect(Math.min(...sales.map((s) => s.timestamp))).toBeGreaterThanOrEqual(NOW - 365 * DAY);
    expect(Math.max(...sales.map((s) => s.timestamp))).toBeLessThanOrEqual(NOW);
    expect(sales.filter((s) => s.timestamp > NOW - DAY).length).toBeGreaterThan(0);
  });

  it('reserves every buy order from its owner, as POST /item/buyorder does', () => {
    const state = build();
    const held = new Map<string, number>();
    for (const o of Object.values(state.buyOrders))
      held.set(o.platformid, (held.get(o.platformid) ?? 0) + o.price * o.amount);
    for (const user of Object.values(state.users)) expect(user.reserved).toBe(held.get(user.platformId) ?? 0);
  });

  it('keeps the money invariant with its cashouts and every reservation', () => {
    expect(auditMoney(build()).problems).toEqual([]);
  });

  it('gives admins the keys it is handed and the traders their documented ones', () => {
    const tx = new Tx(emptyState());
    const admins = buildDemoData(tx, NOW, () => `random-${tx.all('users').length}`);
    expect(admins.map((a) => [a.name, a.apiKey])).toEqual([
      ['Admin', 'random-2'],
      ['Heidi', 'random-8'],
    ]);
    expect(admins.every((a) => tx.get('users', a.platformId)?.admin)).toBe(true);
  });

  it('uses a seeded PRNG', () => {
    const [a, b] = [seededRandom(1), seededRandom(1)];
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
});

describe('the routes over the demo data', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ demoData: true });
  });
  afterAll(() => t.close());

  it('answer every item and market route with a valid response', async () => {
    const state = t.deps.store.state;
    const jwt = await t.login(t.demoAdmins![0]!.apiKey);
    const item = (game: number) => Object.values(state.items).find((i) => i.game === game)!;
    const asset = (game: number) => Object.values(state.assets).find((a) => a.game === game && a.state === 1)!;
    const seller = asset(440).user;
    const paths = [
      ...[440, 730, 570, 252490].flatMap((game) => [
        `/item/details/${item(game).url}`,
        `/item/listing/${item(game).id}?count=100`,
        `/item/listing/${item(game).id}/${seller}`,
        `/item/listing/count/${item(game).id}/${seller}`,
        `/item/buyorderList/${item(game).id}`,
        `/item/details/fromid/${asset(game).assetId}`,
        `/item/cs/details/fromid/${asset(game).assetId}`,
        `/item/pricing/${item(game).id}`,
        ...['1M', '3M', '6M', '1Y', '5Y', 'ALL'].map((p) => `/item/salesGraph/${item(game).id}?period=${p}`),
        `/public/price?game=${game}`,
        `/public/sales?game=${game}&limit=1000`,
      ]),
      `/item/pricing/bulk?items=${encodeURIComponent(Object.keys(state.items).join(','))}`,
      '/item/prices?game=440&outofstock=1',
      '/public/price?format=csv',
      '/infos/prices/buyorderAndLowestSales',
      '/infos/admin',
      '/user/store/alice-store',
    ];
    const failures: string[] = [];
    for (const path of paths) {
      const res = await fetch(`${t.baseUrl}${path}`, t.auth(jwt));
      const body = await res.text();
      if (res.status !== 200) failures.push(`${path}: ${res.status} ${body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  it('show five key tiers and `more`', async () => {
    const { data } = await t.api.GET('/item/buyorderList/{item}', { params: { path: { item: 1 } } });
    expect(Object.keys(data?.content?.informations ?? {})).toEqual(['0', '1', '2', '3', '4', 'more']);
  });

  it('give every other area something to show to Alice, Bob and the admin', async () => {
    const as = async (key: string) => t.auth(await t.login(key));
    const alice = await as(DEMO_KEYS.alice);
    const admin = await as(t.demoAdmins![0]!.apiKey);
    const cart = await t.api.GET('/cart/get', alice);
    expect(cart.data?.content?.cart.length).toBeGreaterThan(0);
    const cashouts = await t.api.GET('/user/getCashoutHistory', alice);
    expect(cashouts.data?.content?.cashouts.map((c) => c.status)).toEqual(['pending', 'completed']);
    const tickets = await t.api.GET('/support/list', alice);
    expect(tickets.data?.data?.list.length).toBe(1);
    const trades = await t.api.GET('/trades/active', alice);
    expect(JSON.stringify(trades.data)).toContain('"kind":"withdraw"');
    const giveaways = await t.api.GET('/giveaways', alice);
    expect(JSON.stringify(giveaways.data)).toContain('Demo week giveaway');
    const staff = await t.api.GET('/admin/support/list', admin);
    expect(staff.response.status).toBe(200);
    expect(JSON.stringify(staff.data)).toContain('Withdrawal not received');
  });

  it("hold what every flow needs to succeed: Alice's platform assets, a deposit, a payment alert, a failed trade, a cashout past the cooldown", async () => {
    const alice = t.auth(await t.login(DEMO_KEYS.alice));
    const admin = t.auth(await t.login(t.demoAdmins![0]!.apiKey));
    const [platform440] = DEMO_PLATFORM_INVENTORY;
    const depositable = await t.api.GET('/deposit/{game}', { ...alice, params: { path: { game: 440 } } });
    expect(depositable.data?.content?.informations.map((r) => r.assetId)).toEqual(
      platform440!.assets.map((a) => a.assetId),
    );
    const instant = await t.api.GET('/instantsell/{game}', { ...alice, params: { path: { game: 440 } } });
    const keyRow = instant.data?.content?.informations.rows.find((r) => r.assetId === '11234567900');
    expect(keyRow?.instantPrice).toBeGreaterThan(0); // other traders bid on keys

    const deposits = await t.api.GET('/trades/all', alice);
    const deposit = deposits.data?.content?.trades.find((tr) => tr.kind === 'deposit');
    const status = await t.api.GET('/deposit/tradeStatus/{tradeid}', {
      ...alice,
      params: { path: { tradeid: deposit!.id } },
    });
    expect(status.data?.content?.statusText).toBe('completed');

    const notifications = await t.api.GET('/user/notifications', alice);
    const content = notifications.data?.content;
    const review = content && 'alerts' in content ? content.paymentReviews[0] : undefined;
    const closed = await t.api.POST('/user/closePaymentAlert', { ...alice, body: { id: Number(review?.id) } });
    expect(closed.response.status).toBe(200);

    const cancelled = await t.api.POST('/cashout/cancel', { ...alice, body: { cashoutId: 2 } });
    expect(cancelled.response.status).toBe(200);
    const cashout = await t.api.POST('/cashout/process', { ...alice, body: { amount: 10_000, method: 'provider_a' } });
    expect(cashout.response.status).toBe(200);

    const failed = Object.values(t.deps.store.state.trades).find((tr) => tr.status === -1)!;
    const reverted = await t.api.POST('/admin/revertTrade/{trade}', {
      ...admin,
      params: { path: { trade: failed.id } },
    });
    expect(reverted.data?.data).toMatchObject({ message: 'Trade reverted', restored: 1 });
  });
});
