// The item routes in-process (seed: "Endpoints > Items"), with responses validated against the
// document: every expected value is derived from the state each test sets up.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ITEMS } from '../domain/messages.ts';
import { refusal, startTestServer, type TestServer } from './test-harness.fixture.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(() => t.reset());

describe('GET /item/details/{item}', () => {
  it('Given an item, when asked by ID or by slug, then both answer the item', async () => {
    const item = await t.item({ name: 'Mann Co. Supply Crate Key', deal: 214, maxPrice: 900 });
    const { maxPrice: _, ...shown } = item;
    for (const ref of [String(item.id), item.url]) {
      const { data, response } = await t.api.GET('/item/details/{item}', { params: { path: { item: ref } } });
      expect(response.status).toBe(200);
      expect(data?.content?.informations).toEqual(shown);
    }
  });

  it('Given no such item, then 300 Item not found', async () => {
    const { error, response } = await t.api.GET('/item/details/{item}', { params: { path: { item: 'nothing-here' } } });
    expect([response.status, error]).toEqual([300, { err: true, success: false, content: ITEMS.itemNotFound }]);
  });
});

describe('GET /item/listing/{item}', () => {
  it('Given listings, when paging, then pages are cut from the price-ascending order', async () => {
    const item = await t.item({ name: 'Earbuds' });
    const prices = [520, 505, 530, 505, 510];
    const { assets } = await t.listed(item, prices);
    await t.asset({ owner: assets[0]!.user, itemId: item.id, state: 0, price: 100 }); // not listed
    const sorted = [...assets].sort((a, b) => a.price! - b.price! || a.id - b.id);
    const { data, response } = await t.api.GET('/item/listing/{item}', {
      params: { path: { item: item.id }, query: { count: 2, page: 1 } },
    });
    expect(response.status).toBe(200);
    expect(data?.content?.map((l) => [l.id, l.price])).toEqual(sorted.slice(2, 4).map((a) => [a.id, a.price]));
    expect(data?.content?.every((l) => !('user' in l) && !('ip' in l))).toBe(true);
  });

  it('Given the default page size, then 10 listings', async () => {
    const item = await t.item({ name: 'Refined Metal' });
    await t.listed(
      item,
      Array.from({ length: 12 }, (_, i) => 10 + i),
    );
    const { data } = await t.api.GET('/item/listing/{item}', { params: { path: { item: item.id } } });
    expect(data?.content?.map((l) => l.price)).toEqual(Array.from({ length: 10 }, (_, i) => 10 + i));
  });

  it('Given an administrator, then each listing carries the seller and IP', async () => {
    const admin = await t.user({ admin: true });
    const item = await t.item({ name: 'Earbuds' });
    const { seller } = await t.listed(item, [500]);
    const jwt = await t.login(admin.apiKey);
    const { data } = await t.api.GET('/item/listing/{item}', { params: { path: { item: item.id } }, ...t.auth(jwt) });
    expect(data?.content?.[0]).toMatchObject({ user: seller, ip: '127.0.0.1', price: 500 });
  });

  it('Given two sellers, when filtered by one, then only theirs, and the counts agree', async () => {
    const item = await t.item({ name: 'Earbuds' });
    const mine = await t.listed(item, [500, 480]);
    await t.listed(item, [470]);
    const listing = await t.api.GET('/item/listing/{item}/{userid}', {
      params: { path: { item: item.id, userid: mine.seller } },
    });
    expect(listing.data?.content?.map((l) => l.price)).toEqual([480, 500]);
    const all = await t.api.GET('/item/listing/count/{item}', { params: { path: { item: item.id } } });
    const one = await t.api.GET('/item/listing/count/{item}/{userid}', {
      params: { path: { item: item.id, userid: mine.seller } },
    });
    expect([all.data?.content?.count, one.data?.content?.count]).toEqual([3, mine.assets.length]);
  });

  it('Given a count above 100, then 300 Invalid count parameter', async () => {
    expect(
      refusal(
        await t.api.GET('/item/listing/{item}', {
          params: { path: { item: 1 }, query: { count: 101 } },
        }),
      ),
    ).toEqual([300, 'Invalid count parameter']);
  });
});

describe('GET /item/buyorderList/{item}', () => {
  it('Given bids at seven prices, then five tiers highest first and `more` with the rest', async () => {
    const item = await t.item({ name: 'Key' });
    const bids = [195, 192, 190, 190, 188, 185, 180, 175].map((price, i) => ({ price, amount: i + 1 }));
    for (const bid of bids) {
      const { platformId } = await t.user({ balance: 100_000 });
      await t.buyOrder({ owner: platformId, itemId: item.id, ...bid });
    }
    const sum = (price: number) => bids.filter((b) => b.price === price).reduce((n, b) => n + b.amount, 0);
    const tiers = [195, 192, 190, 188, 185].map((price) => ({ count: sum(price), price }));
    const { data, response } = await t.api.GET('/item/buyorderList/{item}', { params: { path: { item: item.id } } });
    expect(response.status).toBe(200);
    expect(data?.content?.informations).toEqual({
      ...Object.fromEntries(tiers.map((tier, i) => [String(i), tier])),
      more: { count: sum(180) + sum(175), price: 175 },
    });
  });

  it('Given no bids, then an empty object', async () => {
    const { data } = await t.api.GET('/item/buyorderList/{item}', { params: { path: { item: 77 } } });
    expect(data?.content?.informations).toEqual({});
  });
});

describe('GET /item/details/fromid/{backpackid} and /item/cs/details/fromid/{backpackid}', () => {
  it('Given a game 440 entry with trailing separators, then the joined details, stripped', async () => {
    const item = await t.item({ name: 'Strange Scattergun;', quality: 'Strange', craftable: 0 });
    const { platformId } = await t.user();
    const asset = await t.asset({ owner: platformId, itemId: item.id, state: 1, price: 900, sheen: 'Hot Rod; ' });
    const { data, response } = await t.api.GET('/item/details/fromid/{backpackid}', {
      params: { path: { backpackid: asset.assetId } },
    });
    expect(response.status).toBe(200);
    expect(data?.content?.informations).toMatchObject({
      id: asset.id,
      assetId: asset.assetId,
      price: 900,
      sheen: 'Hot Rod',
      name: 'Strange Scattergun',
      quality: 'Strange',
      craftable: 0,
      url: item.url,
      lastupdate: asset.lastupdate,
    });
    expect(data?.content?.informations).not.toHaveProperty('user');
  });

  it('Given a game 730 entry, then craftable is empty and the wear is kept', async () => {
    const item = await t.item({ name: 'AK-47 | Redline (Field-Tested)', game: 730 });
    const { platformId } = await t.user();
    const asset = await t.asset({ owner: platformId, itemId: item.id, state: 1, price: 1850, wear: 0.25 });
    const { data } = await t.api.GET('/item/cs/details/fromid/{backpackid}', {
      params: { path: { backpackid: asset.assetId } },
    });
    expect(data?.content?.informations).toMatchObject({ craftable: '', wear: 0.25, game: 730 });
  });

  it('Given an unknown asset ID, then 300 Item not found', async () => {
    expect(
      refusal(
        await t.api.GET('/item/details/fromid/{backpackid}', {
          params: { path: { backpackid: '123456' } },
        }),
      ),
    ).toEqual([300, ITEMS.itemNotFound]);
  });
});

describe('GET /user/store/{identifier}', () => {
  it('Given a user with a short URL, then the store card; otherwise Store not found', async () => {
    const { platformId } = await t.user({ name: 'Alice' });
    await t.shortUrl(platformId, 'alice-store');
    const found = await t.api.GET('/user/store/{identifier}', { params: { path: { identifier: 'alice-store' } } });
    const user = t.deps.store.state.users[platformId]!;
    expect(found.data?.content).toEqual({ platformId, image: user.image, name: 'Alice' });
    const missing = await t.api.GET('/user/store/{identifier}', { params: { path: { identifier: 'bob-store' } } });
    expect(refusal(missing)).toEqual([300, ITEMS.storeNotFound]);
  });
});
