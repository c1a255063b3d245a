// Filters (seed: GET /user/getBuyorder `undercut` and search term, GET /item/prices `game` and
// `outofstock`, GET /public/sales `game`, GET /deposit/{game}), each tested with data on both sides
// of the filter: an implementation that ignores the parameter answers rows the filter must drop.
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, call } from '../src/kit/http.ts';
import { getAs as get, postAs as post } from '../src/kit/user-calls.ts';
import type { Json } from '../src/oracle/document.ts';

beforeAll(resetIfPossible);

const names = (a: Answer) => (content(a).values as { name: string }[]).map((v) => v.name).sort();

describe('GET /user/getBuyorder filters', () => {
  it('Given orders below, at and above the lowest listing, one filled and one with an effect, undercut, the search term and amount 0 each drop the others [R-BUYORDER-LIST-FILTERS, R-LIMIT-BUYORDER-LISTING]', async (ctx) => {
    await needsHelpers(ctx);
    const seller = await helpers.user();
    const me = await session({ balance: 100_000 });
    const item = async (name: string, listing?: number, effect?: string) => {
      const it = await helpers.item({ name, game: 440, ...(effect ? { effect } : {}) });
      return { ...it, listing };
    };
    const below = await item('Undercut Below Crate', 300);
    const equal = await item('Undercut Equal Crate', 300);
    const above = await item('Undercut Above Crate', 300);
    const burning = await item('Effect Hat', 300, 'Burning Flames');
    const filled = await item('Filled Order Crate');
    for (const [it, value] of [
      [below, 250],
      [equal, 300],
      [above, 350],
      [burning, 100],
      [filled, 200],
    ] as const) {
      const placed = await post(me, '/item/buyorder', { itemid: it.id, value, amount: 1 });
      assertThat(placed, placed.status === 200, `the order on ${it.name} is placed`);
    }
    // Listed after the orders through the test helpers: no order is filled by them.
    for (const it of [below, equal, above, burning])
      await helpers.asset({ owner: seller.platformId, itemId: it.id, state: 1, price: it.listing! });
    // The filled order: another user's asset priced into it sells at once, leaving amount 0.
    const other = await session();
    const asset = await helpers.asset({ owner: other.platformId, itemId: filled.id, state: 0 });
    const sold = await post(other, '/inventory/price', { ids: asset.assetId, price: 200 });
    assertThat(sold, sold.status === 200, 'the asset sells into my order');

    const all = await get(me, '/user/getBuyorder', { count: 100 });
    assertThat(
      all,
      names(all).join() ===
        [below, equal, above, burning]
          .map((i) => i.name)
          .sort()
          .join() && content(all).count.nb === 4,
      'the filled order (amount 0) is not listed',
    );
    const undercut = await get(me, '/user/getBuyorder', { count: 100, undercut: 'true' });
    assertThat(
      undercut,
      names(undercut).join() === [below.name, burning.name].sort().join(),
      'undercut keeps the orders below the lowest listing (250 and 100 under 300), not 300 or 350',
    );
    // The document leaves how the term matches open (substring or prefix, case): terms in the case of
    // the names, at their start, match under every reading.
    const byEffect = await get(me, '/user/getBuyorder', { count: 100, search: 'Burning' });
    assertThat(byEffect, names(byEffect).join() === burning.name, 'the search term matches the effect');
    const byName = await get(me, '/user/getBuyorder', { count: 100, search: 'Undercut' });
    assertThat(
      byName,
      names(byName).join() ===
        [below, equal, above]
          .map((i) => i.name)
          .sort()
          .join(),
      'the search term matches the name',
    );
  });
});

describe('GET /item/prices filters', () => {
  it('Given items of two games, in stock and out of stock, game and outofstock keep their rows only, and game 753 is accepted [R-ITEM-PRICES-FILTERS, R-GAMES]', async (ctx) => {
    await needsHelpers(ctx);
    const seller = await helpers.user();
    const inStock = await helpers.item({ name: 'Prices Stocked Rifle', game: 730 });
    const outOfStock = await helpers.item({ name: 'Prices Empty Rifle', game: 730 });
    const otherGame = await helpers.item({ name: 'Prices Other Game Axe', game: 570 });
    await helpers.asset({ owner: seller.platformId, itemId: inStock.id, state: 1, price: 400 });
    await helpers.asset({ owner: seller.platformId, itemId: otherGame.id, state: 1, price: 400 });
    // One call per API key every 5 minutes: each query has a caller of its own.
    const prices = async (query: Record<string, number>) => {
      const me = await session();
      const answer = await get(me, '/item/prices', query);
      assertThat(answer, answer.status === 200, 'the price list is served');
      return { answer, rows: (content(answer) as { name: string }[]).map((r) => r.name) };
    };
    const stocked = await prices({ game: 730, outofstock: 0 });
    assertThat(
      stocked.answer,
      stocked.rows.includes(inStock.name) && !stocked.rows.includes(outOfStock.name),
      'outofstock=0 keeps the item in stock and drops the one without listings',
    );
    assertThat(stocked.answer, !stocked.rows.includes(otherGame.name), 'game=730 drops the game 570 item');
    const everything = await prices({ game: 730, outofstock: 1 });
    assertThat(
      everything.answer,
      everything.rows.includes(inStock.name) &&
        everything.rows.includes(outOfStock.name) &&
        !everything.rows.includes(otherGame.name),
      'outofstock=1 adds the item without listings, still game 730 only',
    );
    const community = await prices({ game: 753, outofstock: 1 });
    assertThat(community.answer, !community.rows.includes(inStock.name), 'game 753 (community items) is accepted');
  });
});

describe('GET /public/sales game', () => {
  it('Given sales in two games, game keeps the sales of that game only [R-PUBLIC-SALES-FILTERS]', async (ctx) => {
    await needsHelpers(ctx);
    const start = await helpers.now();
    const sell = async (game: 570 | 730, price: number) => {
      const item = await helpers.item({ name: `Feed Filter ${game}`, game });
      const buyer = await helpers.user({ balance: 10_000 });
      await helpers.buyOrder({ owner: buyer.platformId, itemId: item.id, price, amount: 1 });
      const seller = await session();
      const asset = await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 0 });
      const sold = await post(seller, '/inventory/price', { ids: asset.assetId, price });
      assertThat(sold, sold.status === 200, `the game ${game} asset sells`);
      return item.id;
    };
    const dota = await sell(570, 410);
    const cs = await sell(730, 420);
    for (const [game, id] of [
      [570, dota],
      [730, cs],
    ] as const) {
      const feed = await call('GET', '/public/sales', { query: { game, since: start - 1 } });
      assertConforms(feed);
      const sales = content(feed).sales as Json[];
      assertThat(
        feed,
        sales.length > 0 && sales.every((s) => s.game === game) && sales.some((s) => s.itemId === id),
        `game=${game} keeps only its own sales`,
      );
    }
  });
});

describe('GET /deposit/{game}', () => {
  it('Given platform assets in two games, each game lists only its own, and game 753 is refused [R-DEPOSIT-GAME, R-GAMES]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const tf = await helpers.item({ name: 'Deposit Filter Hat', game: 440 });
    const cs = await helpers.item({ name: 'Deposit Filter Rifle', game: 730 });
    const stamp = String(Date.now()).slice(-9);
    await helpers.platformInventory({
      platformId: me.platformId,
      game: 440,
      assets: [{ assetId: `4${stamp}`, itemId: tf.id }],
    });
    await helpers.platformInventory({
      platformId: me.platformId,
      game: 730,
      assets: [{ assetId: `7${stamp}`, itemId: cs.id }],
    });
    for (const [game, assetId] of [
      [440, `4${stamp}`],
      [730, `7${stamp}`],
    ] as const) {
      const list = await get(me, `/deposit/${game}`);
      const keys = Object.keys(content(list).depositkey as Record<string, string>);
      assertThat(list, keys.join() === assetId, `game ${game} offers its own asset only`);
    }
    const community = await call('GET', '/deposit/753', { token: me.token, ip: me.ip });
    assertConforms(community);
    assertThat(
      community,
      community.status === 300 && community.message === 'invalid game parameter',
      'game 753 is accepted by GET /item/prices only',
    );
  });
});
