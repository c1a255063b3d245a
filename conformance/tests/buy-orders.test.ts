// Buy orders (seed: "Endpoints > Buy orders", "States and transitions"): one per user and item,
// value x amount reserved from the balance while the order stands, released on update and removal.
import { beforeAll, describe, it } from 'vitest';
import { needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { type Answer, assertAnswer, assertConforms, assertThat, call, pinsMeaning, setUpOk } from '../src/kit/http.ts';
import { assertBalance } from '../src/kit/money.ts';
import { postAs } from '../src/kit/user-calls.ts';

beforeAll(resetIfPossible);

const post = postAs;

describe('POST /item/buyorder, /update, /remove', () => {
  it('Given a balance of 1000, an order reserves value x amount: a second order is refused until the first is removed [R-BUYORDER-RESERVE, R-TRANS-BUYORDER-CREATE, R-TRANS-BUYORDER-REMOVE, R-MSG-BUYORDER-BALANCE]', async (ctx) => {
    await needsHelpers(ctx);
    const key = await helpers.item({ name: 'Reserve Key', game: 440 });
    const hat = await helpers.item({ name: 'Reserve Hat', game: 440 });
    const me = await session({ balance: 1000 });
    const first = await post(me, '/item/buyorder', { itemid: key.id, value: 300, amount: 2 });
    assertThat(
      first,
      first.status === 200 && JSON.stringify((first.body as { content: unknown }).content) === '{"details":"Inserted"}',
      'the order is inserted',
    );
    const second = await post(me, '/item/buyorder', { itemid: hat.id, value: 500, amount: 1 });
    assertThat(
      second,
      second.status === 300 && second.message === 'Not enough balance',
      '600 of 1000 is reserved: 500 more is refused',
    );
    // The document settles the balance as net of reservations (GET /user/balance).
    await assertBalance(me, 400, 'the balance is net of the 600 reserved', 1000);
    const removed = await post(me, '/item/buyorder/remove', { itemid: key.id });
    assertThat(removed, removed.status === 200, 'the first order is removed');
    await assertBalance(me, 1000, 'the removal gives the 600 back', 400);
    const again = await post(me, '/item/buyorder', { itemid: hat.id, value: 500, amount: 1 });
    assertThat(again, again.status === 200, 'the released reservation pays for the second order');
  });

  it('Given an order, updating it swaps the reservation, and the seed messages answer what does not exist [R-TRANS-BUYORDER-UPDATE, R-MSG-BUYORDER-UPDATE-NONE, R-MSG-BUYORDER-DUPLICATE, R-MSG-BUYORDER-NOT-FOUND, R-BUYORDER-UNIQUE]', async (ctx) => {
    await needsHelpers(ctx);
    const key = await helpers.item({ name: 'Update Key', game: 440 });
    const other = await helpers.item({ name: 'Update Other', game: 440 });
    const me = await session({ balance: 1000 });
    const none = await post(me, '/item/buyorder/update', { itemid: key.id, value: 100, amount: 1 });
    assertAnswer(
      none,
      { status: 300, message: 'You dont have buy order on this item !' },
      'the seed message, with its space',
    );
    setUpOk(await post(me, '/item/buyorder', { itemid: key.id, value: 100, amount: 5 }));
    const duplicate = await post(me, '/item/buyorder', { itemid: key.id, value: 100, amount: 1 });
    assertThat(
      duplicate,
      duplicate.message === 'You already have buy order on this item please remove them in your profile page!',
      'one order per item',
    );
    const up = await post(me, '/item/buyorder/update', { itemid: key.id, value: 450, amount: 2 });
    assertThat(
      up,
      up.status === 200 && (up.body as { content: unknown }).content === 'Buy order updated',
      'the order is updated',
    );
    await assertBalance(me, 100, 'the balance is net of the 900 now reserved', 500);
    const left = await post(me, '/item/buyorder', { itemid: other.id, value: 101, amount: 1 });
    assertThat(left, left.message === 'Not enough balance', '900 of 1000 is now reserved: 101 more is refused');
    const fits = await post(me, '/item/buyorder', { itemid: other.id, value: 100, amount: 1 });
    assertThat(fits, fits.status === 200, 'exactly the rest fits');
    setUpOk(await post(me, '/item/buyorder/remove', { itemid: key.id }));
    const gone = await post(me, '/item/buyorder/remove', { itemid: key.id });
    assertThat(gone, gone.status === 300 && gone.message === 'No buy order found', 'nothing left to remove');
  });
});

describe('GET /user/getBuyorder and /user/buyorder/{item}', () => {
  it('lists only my orders, newest first, with their items, and counts them in count.nb [R-BUYORDER-LIST-FILTERS, R-LIMIT-BUYORDER-LISTING]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session({ balance: 10_000 });
    const them = await session({ balance: 10_000 });
    const names = ['Alpha Crate', 'Beta Crate', 'Gamma Crate'];
    const items = [];
    for (const name of names) items.push(await helpers.item({ name, game: 440 }));
    for (const item of items) await post(me, '/item/buyorder', { itemid: item.id, value: 10, amount: 1 });
    setUpOk(await post(them, '/item/buyorder', { itemid: items[0]!.id, value: 99, amount: 1 }));
    type Listed = { content: { values: { name: string; platformid: string }[]; count: { nb: number } } };
    /** My orders listed with `query`, and the names of the listed items, in order. */
    const mine = (query?: Record<string, string | number>) =>
      call('GET', '/user/getBuyorder', { ...(query ? { query } : {}), token: me.token, ip: me.ip });
    const namesOf = (answer: Answer) => (answer.body as Listed).content.values.map((v) => v.name).join();
    const list = await mine();
    assertConforms(list);
    const content = (list.body as Listed).content;
    assertThat(list, namesOf(list) === [...names].reverse().join(), 'newest first');
    assertThat(
      list,
      content.count.nb === 3 && content.values.every((v) => v.platformid === me.platformId),
      'only mine',
    );
    // Seed: `page` (default 0) and `count`: page 1 of 2 holds the third newest order only.
    const second = await mine({ page: 1, count: 2 });
    assertConforms(second);
    assertThat(
      second,
      namesOf(second) === names[0] && (second.body as Listed).content.count.nb === 3,
      'page 1 of count 2 holds the oldest of the three orders, and count.nb counts all three',
    );
    // Nobody lists these items: whether an order counts as below a lowest sale price that does not
    // exist the seed leaves open, so any list of them is accepted, but not a failure.
    const unlisted = await mine({ undercut: 'true' });
    assertConforms(unlisted);
    assertThat(unlisted, unlisted.status === 200, 'undercut over items with no listing is answered');
    const search = await mine({ search: 'gam' });
    assertThat(search, namesOf(search) === 'Gamma Crate', 'search on the name');
    const spaced = await mine({ search: 'beta crate' });
    assertConforms(spaced);
    assertThat(spaced, namesOf(spaced) === 'Beta Crate', 'a term with a space (sent as + by form encoding) matches');
    const short = await mine({ search: 'ga' });
    assertConforms(short);
    assertThat(short, short.status === 300, 'a search term under 3 characters is refused');
    const one = await call('GET', `/user/buyorder/${items[0]!.id}`, { token: me.token, ip: me.ip });
    assertConforms(one);
    assertThat(
      one,
      (one.body as { content: { informations: { price: number } } }).content.informations.price === 10,
      'my order, not theirs',
    );
  });
});

describe('GET /user/getBuyorder and /user/buyorder/{item}: what each field means', () => {
  it('Given an order of 3 at 250 filled once at 200 and another filled completely, both routes show the remaining 2 at 250, created when placed, with every item field as set up [R-BUYORDER-LIST-FILTERS]', async (ctx) => {
    await needsHelpers(ctx);
    // Every item field the helper takes a value of its own, so that a field read from another
    // one differs; its SKU (which the helper does not take) as the item's details show it.
    const given = {
      name: 'Meaning Unusual',
      game: 570,
      effect: 'Burning Flames',
      quality: 'Unusual',
      type: 'Cosmetic',
      image: 'https://images.example.com/meaning-unusual.png',
      craftable: 0,
      rarity: 'immortal',
      deal: 4321,
      color: '#8650AC',
      url: 'meaning-unusual-given',
    } as const;
    const item = await helpers.item(given);
    const gone = await helpers.item({ name: 'Meaning Filled Key', game: 440 });
    const me = await session({ balance: 10_000 });
    const them = await helpers.user({ balance: 10_000 });
    const seller = await session();
    const placed = await helpers.pinClock();
    const order = await helpers.buyOrder({ owner: me.platformId, itemId: item.id, price: 250, amount: 3 });
    await helpers.buyOrder({ owner: me.platformId, itemId: gone.id, price: 90, amount: 1 });
    await helpers.buyOrder({ owner: them.platformId, itemId: item.id, price: 240, amount: 5 });
    await helpers.advance(100);
    // One sale into each of my orders (the listing at or under the price sells at once, at its price).
    for (const [itemId, price] of [
      [item.id, 200],
      [gone.id, 80],
    ] as const) {
      const asset = await helpers.asset({ owner: seller.platformId, itemId, state: 0 });
      setUpOk(await post(seller, '/inventory/price', { ids: asset.assetId, price }));
    }
    const details = await call('GET', `/item/details/${item.id}`);
    setUpOk(details);
    const stored = (details.body as { content: { informations: Record<string, unknown> } }).content.informations;
    const list = await call('GET', '/user/getBuyorder', { token: me.token, ip: me.ip });
    assertConforms(list);
    const page = (list.body as { content: { values: Record<string, unknown>[]; count: { nb: number } } }).content;
    const row = page.values[0] ?? {};
    const orderFields = {
      id: order.id,
      platformid: me.platformId,
      itemid: item.id,
      price: 250,
      amount: 2,
      timestamp: String(placed),
    };
    const differing = Object.entries({ SKU: stored.SKU, ...given, ...orderFields }).filter(
      ([k, v]) => JSON.stringify(row[k]) !== JSON.stringify(v),
    );
    assertThat(
      list,
      page.count.nb === 1 && page.values.length === 1 && differing.length === 0,
      `one order left (the filled one is gone), 2 of 3 remaining at 250, placed at ${placed}, every item field as set up or stored (differing: ${JSON.stringify(differing.map(([k]) => [k, row[k]]))})`,
    );
    const one = await call('GET', `/user/buyorder/${item.id}`, { token: me.token, ip: me.ip });
    assertConforms(one);
    const informations = (one.body as { content: { informations: Record<string, unknown> } }).content.informations;
    const off = Object.entries(orderFields).filter(([k, v]) => informations[k] !== v);
    assertThat(
      one,
      off.length === 0,
      `my order on the item, not theirs: 2 remaining at 250, placed at ${placed} (differing: ${JSON.stringify(off.map(([k]) => [k, informations[k]]))})`,
    );
    pinsMeaning(
      'GET /user/getBuyorder count',
      'GET /user/getBuyorder count.nb',
      'GET /user/getBuyorder values',
      'GET /user/getBuyorder values[].id',
      'GET /user/getBuyorder values[].platformid',
      'GET /user/getBuyorder values[].itemid',
      'GET /user/getBuyorder values[].price',
      'GET /user/getBuyorder values[].amount',
      'GET /user/getBuyorder values[].timestamp',
      'GET /user/getBuyorder values[].name',
      'GET /user/getBuyorder values[].effect',
      'GET /user/getBuyorder values[].SKU',
      'GET /user/getBuyorder values[].quality',
      'GET /user/getBuyorder values[].type',
      'GET /user/getBuyorder values[].image',
      'GET /user/getBuyorder values[].craftable',
      'GET /user/getBuyorder values[].rarity',
      'GET /user/getBuyorder values[].deal',
      'GET /user/getBuyorder values[].color',
      'GET /user/getBuyorder values[].game',
      'GET /user/getBuyorder values[].url',
      'GET /user/buyorder/{item} informations',
      'GET /user/buyorder/{item} informations.id',
      'GET /user/buyorder/{item} informations.platformid',
      'GET /user/buyorder/{item} informations.itemid',
      'GET /user/buyorder/{item} informations.price',
      'GET /user/buyorder/{item} informations.amount',
      'GET /user/buyorder/{item} informations.timestamp',
    );
  });
});
