import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BUY_ORDERS } from '../domain/messages.ts';
import { startTestServer } from './test-harness.fixture.ts';

type Harness = Awaited<ReturnType<typeof startTestServer>>;
let t: Harness;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(() => t.reset());

/** A user with a balance, logged in. */
async function buyer(balance: number) {
  const user = await t.user({ balance });
  return { ...user, jwt: await t.login(user.apiKey) };
}

const balances = (platformId: string) => {
  const u = t.deps.store.state.users[platformId]!;
  return { balance: u.balance, reserved: u.reserved };
};

describe('POST /item/buyorder', () => {
  it('reserves value x amount from the balance', async () => {
    const item = await t.item({ name: 'Key' });
    const me = await buyer(1000);
    const { data, response } = await t.api.POST('/item/buyorder', {
      body: { itemid: item.id, value: 150, amount: 4 },
      ...t.auth(me.jwt),
    });
    expect(response.status).toBe(200);
    expect(data?.content).toEqual({ details: 'Inserted' });
    expect(balances(me.platformId)).toEqual({ balance: 400, reserved: 600 });
  });

  it.each([
    ['more than the balance', 1000, { value: 300, amount: 4 }, BUY_ORDERS.notEnoughBalance],
    ['an amount above the limit', 10_000_000, { value: 1, amount: 500_000 }, BUY_ORDERS.maxItems],
    ['a zero value', 1000, { value: 0, amount: 1 }, BUY_ORDERS.invalidNumber],
    ['a missing amount', 1000, { value: 1 }, BUY_ORDERS.invalidNumber],
  ])('refuses %s with the documented message, reserving nothing', async (_, balance, body, message) => {
    const item = await t.item({ name: 'Key' });
    const me = await buyer(balance);
    const res = await fetch(`${t.baseUrl}/item/buyorder`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${me.jwt}` },
      body: JSON.stringify({ itemid: item.id, ...body }),
    });
    expect(res.status).toBe(300);
    expect(await res.json()).toEqual({ err: true, success: false, content: message });
    expect(balances(me.platformId)).toEqual({ balance, reserved: 0 });
  });

  it('allows one order per user and item', async () => {
    const item = await t.item({ name: 'Key' });
    const me = await buyer(1000);
    await t.api.POST('/item/buyorder', { body: { itemid: item.id, value: 10, amount: 1 }, ...t.auth(me.jwt) });
    const { error, response } = await t.api.POST('/item/buyorder', {
      body: { itemid: item.id, value: 10, amount: 1 },
      ...t.auth(me.jwt),
    });
    expect(response.status).toBe(300);
    expect(error).toEqual({ err: true, success: false, content: BUY_ORDERS.alreadyExists });
  });
});

describe('POST /item/buyorder/update and /remove', () => {
  it('swaps the reservation for the new terms, and releases it on removal', async () => {
    const item = await t.item({ name: 'Key' });
    const me = await buyer(1000);
    await t.api.POST('/item/buyorder', { body: { itemid: item.id, value: 100, amount: 5 }, ...t.auth(me.jwt) });
    const updated = await t.api.POST('/item/buyorder/update', {
      body: { itemid: item.id, value: 300, amount: 3 },
      ...t.auth(me.jwt),
    });
    expect(updated.data?.content).toBe('Buy order updated');
    expect(balances(me.platformId)).toEqual({ balance: 100, reserved: 900 });
    const removed = await t.api.POST('/item/buyorder/remove', { body: { itemid: item.id }, ...t.auth(me.jwt) });
    expect(removed.data?.content).toEqual({ details: 'Removed' });
    expect(balances(me.platformId)).toEqual({ balance: 1000, reserved: 0 });
  });

  it('keeps the old order when the new terms exceed the balance', async () => {
    const item = await t.item({ name: 'Key' });
    const me = await buyer(1000);
    await t.api.POST('/item/buyorder', { body: { itemid: item.id, value: 100, amount: 5 }, ...t.auth(me.jwt) });
    const { error } = await t.api.POST('/item/buyorder/update', {
      body: { itemid: item.id, value: 600, amount: 2 },
      ...t.auth(me.jwt),
    });
    expect(error).toEqual({ err: true, success: false, content: BUY_ORDERS.notEnoughBalance });
    expect(balances(me.platformId)).toEqual({ balance: 500, reserved: 500 });
  });

  it('answers the seed messages when there is no order', async () => {
    const item = await t.item({ name: 'Key' });
    const me = await buyer(1000);
    const update = await t.api.POST('/item/buyorder/update', {
      body: { itemid: item.id, value: 1, amount: 1 },
      ...t.auth(me.jwt),
    });
    expect(update.error).toEqual({ err: true, success: false, content: 'You dont have buy order on this item !' });
    const remove = await t.api.POST('/item/buyorder/remove', { body: { itemid: item.id }, ...t.auth(me.jwt) });
    expect(remove.error).toEqual({ err: true, success: false, content: BUY_ORDERS.notFound });
  });
});

describe('GET /user/buyorder/{item} and /user/getBuyorder', () => {
  it("lists the caller's orders newest first with their items, filtered and paged", async () => {
    const key = await t.item({ name: 'Mann Co. Supply Crate Key' });
    const hat = await t.item({ name: 'Team Captain', effect: 'Burning Flames' });
    const cap = await t.item({ name: "Bill's Hat" });
    await t.listed(hat, [500]);
    const me = await buyer(10_000);
    const other = await buyer(10_000);
    for (const [item, value] of [
      [key, 100],
      [hat, 400],
      [cap, 50],
    ] as const) {
      await t.api.POST('/item/buyorder', { body: { itemid: item.id, value, amount: 1 }, ...t.auth(me.jwt) });
    }
    await t.api.POST('/item/buyorder', { body: { itemid: key.id, value: 999, amount: 1 }, ...t.auth(other.jwt) });

    const all = await t.api.GET('/user/getBuyorder', { ...t.auth(me.jwt) });
    const content = all.data?.content as {
      values: { itemid: number; name: string; price: number }[];
      count: { nb: number };
    };
    expect(content.values.map((r) => r.itemid)).toEqual([cap.id, hat.id, key.id]);
    expect(content.values[1]).toMatchObject({ name: 'Team Captain', price: 400 });
    expect(content.count.nb).toBe(3);

    const page = await t.api.GET('/user/getBuyorder', { params: { query: { count: 1, page: 1 } }, ...t.auth(me.jwt) });
    expect((page.data!.content as typeof content).values.map((r) => r.itemid)).toEqual([hat.id]);
    const search = await t.api.GET('/user/getBuyorder', { params: { query: { search: 'flames' } }, ...t.auth(me.jwt) });
    expect((search.data!.content as typeof content).values.map((r) => r.itemid)).toEqual([hat.id]);
    const undercut = await t.api.GET('/user/getBuyorder', {
      params: { query: { undercut: 'true' } },
      ...t.auth(me.jwt),
    });
    expect((undercut.data!.content as typeof content).values.map((r) => r.itemid)).toEqual([hat.id]);

    const one = await t.api.GET('/user/buyorder/{item}', { params: { path: { item: key.id } }, ...t.auth(me.jwt) });
    expect(one.data?.content).toMatchObject({
      informations: { itemid: key.id, price: 100, amount: 1, platformid: me.platformId },
    });
  });
});
