// Market-data reads (seed: "Items (public and market data)", "Pricing", "Limits"), checked against
// state this file sets up through the test helpers.
import { beforeAll, describe, it } from 'vitest';
import { needsHelpers, resetIfPossible } from '../src/behavior.ts';
import { helpers, session } from '../src/helpers.ts';
import { type Answer, assertConforms, assertThat, call } from '../src/http.ts';

beforeAll(resetIfPossible);

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
const content = (a: Answer): any =>
  (a.body as { content?: unknown; data?: unknown }).content ?? (a.body as { data?: unknown }).data;

async function get(path: string, query: Record<string, string | number> = {}, token?: string, ip?: string) {
  const answer = await call('GET', path, { query, token, ip });
  assertConforms(answer);
  assertThat(answer, answer.status === 200, `${path} must succeed`);
  return answer;
}

describe('listings', () => {
  it('GET /item/listing/{item} lists on-sale assets by price ascending, paged, with the seller only for admins', async (ctx) => {
    await needsHelpers(ctx);
    const item = await helpers.item({ name: 'Listing Key', game: 440 });
    const seller = await helpers.user();
    const other = await helpers.user();
    const prices = [300, 120, 250, 199, 410];
    for (const price of prices) await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 1, price });
    await helpers.asset({ owner: other.platformId, itemId: item.id, state: 1, price: 150 });
    await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 0 });
    const sorted = [...prices, 150].sort((a, b) => a - b);

    const first = await get(`/item/listing/${item.id}`, { count: 4 });
    assertThat(
      first,
      content(first)
        .map((l: { price: number }) => l.price)
        .join() === sorted.slice(0, 4).join(),
      'the four cheapest, ascending',
    );
    assertThat(
      first,
      content(first).every((l: object) => !('user' in l) && !('ip' in l)),
      'no user or ip for anonymous callers',
    );
    const second = await get(`/item/listing/${item.id}`, { count: 4, page: 1 });
    assertThat(
      second,
      content(second)
        .map((l: { price: number }) => l.price)
        .join() === sorted.slice(4).join(),
      'page 1 continues at offset 4',
    );
    const bySeller = await get(`/item/listing/${item.id}/${other.platformId}`);
    assertThat(
      bySeller,
      content(bySeller)
        .map((l: { price: number }) => l.price)
        .join() === '150',
      'the seller filter',
    );
    const count = await get(`/item/listing/count/${item.id}`);
    assertThat(count, content(count).count === 6, 'six listings on sale');
    const countBySeller = await get(`/item/listing/count/${item.id}/${seller.platformId}`);
    assertThat(countBySeller, content(countBySeller).count === 5, 'five by the seller');

    const admin = await session({ admin: true });
    const seen = await get(`/item/listing/${item.id}`, { count: 1 }, admin.token, admin.ip);
    assertThat(
      seen,
      content(seen)[0].user === seller.platformId && typeof content(seen)[0].ip === 'string',
      'admins see user and ip',
    );
  });
});

describe('buy order tiers', () => {
  it('GET /item/buyorderList/{item} groups orders by price: five tiers highest first, and the rest in more', async (ctx) => {
    await needsHelpers(ctx);
    const item = await helpers.item({ name: 'Tier Key', game: 440 });
    const orders = [
      [500, 1],
      [450, 2],
      [450, 3],
      [400, 1],
      [350, 4],
      [300, 1],
      [250, 2],
      [200, 5],
    ] as const;
    for (const [price, amount] of orders) {
      const buyer = await helpers.user({ balance: price * amount });
      await helpers.buyOrder({ owner: buyer.platformId, itemId: item.id, price, amount });
    }
    const answer = await get(`/item/buyorderList/${item.id}`);
    const tiers = content(answer).informations;
    const want = {
      0: { count: 1, price: 500 },
      1: { count: 5, price: 450 },
      2: { count: 1, price: 400 },
      3: { count: 4, price: 350 },
      4: { count: 1, price: 300 },
      more: { count: 7, price: 200 },
    };
    assertThat(answer, JSON.stringify(tiers) === JSON.stringify(want), `tiers ${JSON.stringify(want)}`);
  });
});

describe('item details', () => {
  it('GET /item/details/{item} answers by ID and by URL slug', async (ctx) => {
    await needsHelpers(ctx);
    const item = await helpers.item({ name: 'Strange Slug Rifle', game: 730 });
    const byId = await get(`/item/details/${item.id}`);
    const bySlug = await get(`/item/details/${item.url}`);
    assertThat(
      bySlug,
      content(bySlug).informations.id === item.id && content(byId).informations.name === 'Strange Slug Rifle',
      'the same item both ways',
    );
  });

  it('GET /item/details/fromid/{backpackid} strips trailing spaces and semicolons, and empties craftable outside game 440', async (ctx) => {
    await needsHelpers(ctx);
    const owner = await helpers.user();
    for (const [game, route, craftable] of [
      [440, '/item/details/fromid/', 1],
      [730, '/item/cs/details/fromid/', ''],
    ] as const) {
      const item = await helpers.item({ name: `Painted Item ${game}; `, game, craftable: 1 });
      const asset = await helpers.asset({
        owner: owner.platformId,
        itemId: item.id,
        state: 1,
        price: 100,
        sheen: 'Team Shine;  ',
      });
      const answer = await get(`${route}${asset.assetId}`);
      const d = content(answer).informations;
      assertThat(
        answer,
        d.name === `Painted Item ${game}` && d.sheen === 'Team Shine',
        'trailing spaces and semicolons removed',
      );
      assertThat(answer, d.craftable === craftable, `craftable ${JSON.stringify(craftable)} for game ${game}`);
    }
  });
});

describe('pricing', () => {
  it('GET /item/pricing/{item} is computed, then cached for 20 minutes', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const item = await helpers.item({ name: 'Priced Key', game: 440 });
    const seller = await helpers.user();
    for (const price of [220, 205]) await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 1, price });
    const buyer = await helpers.user({ balance: 1000 });
    await helpers.buyOrder({ owner: buyer.platformId, itemId: item.id, price: 190, amount: 2 });
    const first = await get(`/item/pricing/${item.id}`, {}, me.token, me.ip);
    const p = content(first);
    assertThat(
      first,
      p.cached === false && p.pricing.lowest_sale_price === 205 && p.pricing.lowest_buy_order === 190,
      'computed from the listings and orders',
    );
    const again = await get(`/item/pricing/${item.id}`, {}, me.token, me.ip);
    assertThat(again, content(again).cached === true, 'served from the cache');
    await helpers.advance(21 * 60);
    const later = await get(`/item/pricing/${item.id}`, {}, me.token, me.ip);
    assertThat(later, content(later).cached === false, 'recomputed after 20 minutes');
  });

  it('GET /item/pricing/bulk counts duplicates separately and refuses more than 100 IDs', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const a = await helpers.item({ name: 'Bulk A', game: 440 });
    const b = await helpers.item({ name: 'Bulk B', game: 440 });
    const bulk = await get('/item/pricing/bulk', { items: `${a.id},${b.id},${a.id}` }, me.token, me.ip);
    assertThat(bulk, content(bulk).total_items === 3, 'three requested, duplicates included');
    const tooMany = await call('GET', '/item/pricing/bulk', {
      query: { items: Array.from({ length: 101 }, () => a.id).join(',') },
      token: me.token,
      ip: me.ip,
    });
    assertConforms(tooMany);
    assertThat(tooMany, tooMany.status === 300, 'more than 100 IDs is refused');
  });
});

describe('price lists and public data', () => {
  it('GET /public/price serves CSV with the exact header', async (ctx) => {
    await needsHelpers(ctx);
    await helpers.item({ name: 'Csv Item', game: 570 });
    const answer = await call('GET', '/public/price', { query: { format: 'csv', game: 570 } });
    assertConforms(answer);
    assertThat(
      answer,
      String(answer.body).split('\n')[0]?.trim() ===
        'itemId,name,game,buyPrice,sellPrice,platformPrice,listingCount,buyOrderCount',
      'the CSV header of the seed',
    );
  });

  it('GET /infos/prices/buyorderAndLowestSales answers envelope B and GET /infos/admin lists staff', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await helpers.user({ admin: true, name: 'Staff Member' });
    const infos = await get('/infos/prices/buyorderAndLowestSales');
    assertThat(infos, (infos.body as { status?: string }).status === 'success', 'envelope B');
    const staff = await get('/infos/admin');
    assertThat(staff, JSON.stringify(staff.body).includes(admin.platformId), 'the admin is listed');
  });
});
