// Inventory (seed: "Endpoints > Inventory", "Inventory row", "States and transitions", "Limits"):
// the caller's grouped rows, and POST /inventory/price with every message of the document, each
// refusal leaving every asset as it was.
import type { Schema } from '@marketplace/types';
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { boundOf, operationOf, pastBoundMessage } from '../src/kit/bounds.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { assertThat, call, pinsMeaning } from '../src/kit/http.ts';
import { redeposited } from '../src/kit/redeposit.ts';
import { sides } from '../src/kit/rule.ts';
import { getAs, postAs } from '../src/kit/user-calls.ts';

beforeAll(resetIfPossible);

type Row = Schema<'InventoryRow'>;
/** Item fields a row repeats, each given a value of its own so that a field read from another differs. */
const CRATE = {
  name: 'Grouped Crate',
  game: 440,
  effect: 'Sunbeams',
  quality: 'Unusual',
  type: 'Cosmetic',
  craftable: 0,
  url: 'grouped-crate-given-slug',
  image: 'https://images.example.com/grouped-crate.png',
} as const;
const HAT = {
  name: 'Lonely Hat',
  game: 570,
  quality: 'Genuine',
  type: 'Wearable',
  image: 'https://images.example.com/lonely.png',
} as const;
/** The item fields of a row as the test set them up: `craftable` is 0/1 on game 440, '' elsewhere. */
const itemFields = (r: Row) => [r.name, r.effect, r.url, r.quality, r.image, r.type, r.craftable, r.game].join('|');
const expected = (i: typeof CRATE | typeof HAT, slug: string) =>
  [
    i.name,
    'effect' in i ? i.effect : '',
    slug,
    i.quality,
    i.image,
    i.type,
    i.game === 440 ? i.craftable : '',
    i.game,
  ].join('|');
const rows = async (me: Awaited<ReturnType<typeof session>>, which: 'onSale' | 'onInventory') => {
  const answer = await getAs(me, `/inventory/${which}`);
  assertThat(answer, answer.status === 200, `GET /inventory/${which} succeeds`);
  const c = content(answer) as { items: Row[]; count: number };
  assertThat(answer, c.count === c.items.length, 'content.count is the number of rows');
  return { answer, rows: c.items };
};

describe('GET /inventory/onInventory and /inventory/onSale', () => {
  it('Given two identical assets and one other, inventory shows them grouped, and pricing moves them to on sale [R-INVENTORY-ROWS, R-INVENTORY-LISTS, R-TRANS-ITEM-LIST]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const item = await helpers.item(CRATE);
    const other = await helpers.item(HAT);
    const a = await helpers.asset({ owner: me.platformId, itemId: item.id });
    const b = await helpers.asset({ owner: me.platformId, itemId: item.id });
    // A price stored on an unlisted asset (state 0): an inventory row still shows none.
    const c = await helpers.asset({ owner: me.platformId, itemId: other.id, price: 999 });
    const before = await rows(me, 'onInventory');
    const grouped = before.rows.find((r) => r.item_id === item.id);
    assertThat(
      before.answer,
      before.rows.length === 2 && grouped?.count === 2 && grouped.ids === `${a.assetId},${b.assetId}`,
      'one row per item with both asset IDs in ids and count 2',
    );
    assertThat(
      before.answer,
      grouped?.name === 'Grouped Crate' && grouped.state === 0,
      'rows carry the item name and state 0',
    );
    const lonely = before.rows.find((r) => r.item_id === other.id);
    // The row's bot is the one holding its first asset, as the backpack entry shows it.
    const entry = content(await call('GET', `/item/details/fromid/${a.assetId}`))?.informations;
    assertThat(
      before.answer,
      grouped?.assetId === a.assetId &&
        grouped.bot === entry?.bot &&
        itemFields(grouped) === expected(CRATE, CRATE.url) &&
        lonely !== undefined &&
        lonely.ids === c.assetId &&
        lonely.count === 1 &&
        itemFields(lonely) === expected(HAT, 'lonely-hat') &&
        (lonely.price ?? null) === null,
      `each row: its first asset, its bot, its own item's fields, game 570 with craftable '' (got ${JSON.stringify(before.rows)})`,
    );
    // A third asset of the crate already listed at 1234: priced alike, it joins a's row on sale
    // (2 rows holding 3 assets: content.count counts rows).
    const d = await helpers.asset({ owner: me.platformId, itemId: item.id, state: 1, price: 1234 });
    const priced = await postAs(me, '/inventory/price', { ids: `${a.assetId},${c.assetId}`, price: 1234 });
    assertThat(priced, priced.status === 200 && content(priced)?.message === 'ok', 'content.message is ok');
    const onSale = await rows(me, 'onSale');
    const crates = onSale.rows.find((r) => r.item_id === item.id);
    const hats = onSale.rows.find((r) => r.item_id === other.id);
    assertThat(
      onSale.answer,
      onSale.rows.length === 2 &&
        onSale.rows.every((r) => r.price === 1234 && r.state === 1) &&
        crates?.count === 2 &&
        crates.ids === `${a.assetId},${d.assetId}` &&
        crates.assetId === a.assetId &&
        crates.bot === entry?.bot &&
        itemFields(crates) === expected(CRATE, CRATE.url) &&
        hats?.count === 1 &&
        hats.ids === c.assetId &&
        hats.assetId === c.assetId &&
        itemFields(hats) === expected(HAT, 'lonely-hat'),
      `on sale at 1234: the crates a and d in one row, the hat in another, each with its item's fields (got ${JSON.stringify(onSale.rows)})`,
    );
    pinsMeaning(
      'GET /inventory/onInventory items',
      'GET /inventory/onInventory items[].ids',
      'GET /inventory/onInventory items[].count',
      'GET /inventory/onInventory items[].item_id',
      'GET /inventory/onInventory items[].assetId',
      'GET /inventory/onInventory items[].bot',
      'GET /inventory/onInventory items[].game',
      'GET /inventory/onInventory items[].state',
      'GET /inventory/onInventory items[].price',
      'GET /inventory/onInventory items[].name',
      'GET /inventory/onInventory items[].effect',
      'GET /inventory/onInventory items[].url',
      'GET /inventory/onInventory items[].quality',
      'GET /inventory/onInventory items[].image',
      'GET /inventory/onInventory items[].type',
      'GET /inventory/onInventory items[].craftable',
      'GET /inventory/onInventory count',
      'GET /inventory/onSale items',
      'GET /inventory/onSale items[].ids',
      'GET /inventory/onSale items[].count',
      'GET /inventory/onSale items[].item_id',
      'GET /inventory/onSale items[].assetId',
      'GET /inventory/onSale items[].bot',
      'GET /inventory/onSale items[].game',
      'GET /inventory/onSale items[].state',
      'GET /inventory/onSale items[].price',
      'GET /inventory/onSale items[].name',
      'GET /inventory/onSale items[].effect',
      'GET /inventory/onSale items[].url',
      'GET /inventory/onSale items[].quality',
      'GET /inventory/onSale items[].image',
      'GET /inventory/onSale items[].type',
      'GET /inventory/onSale items[].craftable',
      'GET /inventory/onSale count',
      'POST /inventory/price message',
    );
    const left = await rows(me, 'onInventory');
    assertThat(
      left.answer,
      left.rows.length === 1 && left.rows[0]?.ids === b.assetId,
      'the unpriced asset stays in inventory',
    );
    const listing = await getAs(me, `/item/listing/${item.id}`);
    assertThat(
      listing,
      (content(listing) as { assetId: string }[]).some((l) => l.assetId === a.assetId),
      'the market lists it',
    );
  });
});

describe('POST /inventory/price refusals', () => {
  const pricing = operationOf('POST', '/inventory/price');
  const highest = boundOf(pricing, 'price', 'maximum');
  const lowest = boundOf(pricing, 'price', 'minimum');
  it(
    `Given assets of mine and of another user, each rule refuses with its message and changes nothing; ${lowest} and ${highest} cents (and an item's own maximum) are accepted, one past each refused [R-PRICE-VALIDATION, R-MSG-PRICE-MISSING, R-MSG-PRICE-IDS, R-MSG-PRICE-RANGE, R-MSG-PRICE-NOT-OWNED, R-MSG-PRICE-LIMIT, R-MSG-PRICE-HOLD, R-LIMIT-SET-PRICE, R-LIMIT-TRADE-HOLD]`,
    sides(['at the limit', 'past the limit'], 'R-LIMIT-SET-PRICE'),
    async (ctx) => {
      await needsHelpers(ctx);
      const me = await session();
      const them = await session();
      const capped = await helpers.item({ name: 'Capped Unusual', game: 440, maxPrice: 250_000 });
      const cs = await helpers.item({ name: 'Held Rifle', game: 730 });
      const plain = await helpers.item({ name: 'Plain Key', game: 440 });
      const now = await helpers.now();
      const mine = await helpers.asset({ owner: me.platformId, itemId: plain.id });
      const theirs = await helpers.asset({ owner: them.platformId, itemId: plain.id });
      const dear = await helpers.asset({ owner: me.platformId, itemId: capped.id });
      const held = await helpers.asset({ owner: me.platformId, itemId: cs.id, tradeHoldUntil: now + 7 * 86_400 });
      const away = await helpers.asset({ owner: me.platformId, itemId: plain.id, state: 2 });
      const cases: [unknown, string, string][] = [
        [
          { ids: `${mine.assetId},${theirs.assetId}`, price: 100 },
          'Item not found or not owned',
          "another user's asset",
        ],
        [{ ids: '99999999999999', price: 100 }, 'Item not found or not owned', 'an unknown asset'],
        [
          { ids: dear.assetId, price: 250_001 },
          'Price limit exceeded (maximum 250000 cents)',
          'above the item maximum',
        ],
        [{ ids: held.assetId, price: 100 }, 'This item will be locked for 7 days', 'a game 730 asset on trade hold'],
        [{ ids: away.assetId, price: 100 }, 'Item not available', 'an asset pending withdrawal (state 2)'],
        [
          { ids: mine.assetId, price: highest + 1 },
          pastBoundMessage(pricing, 'price', 'maximum'),
          `above ${highest} cents`,
        ],
        [
          { ids: mine.assetId, price: lowest - 1 },
          pastBoundMessage(pricing, 'price', 'minimum'),
          `a price of ${lowest - 1}`,
        ],
        [{ ids: 'abc', price: 100 }, 'Invalid ids format', 'ids that are not asset IDs'],
        [{ price: 100 }, 'Missing required parameters', 'no ids'],
      ];
      for (const [body, message, what] of cases) {
        const answer = await postAs(me, '/inventory/price', body);
        assertThat(answer, answer.status === 300 && answer.message === message, `${what}: ${message}`);
      }
      const inventory = await rows(me, 'onInventory');
      assertThat(
        inventory.answer,
        inventory.rows.flatMap((r) => r.ids.split(',')).includes(mine.assetId),
        'my asset was not listed by the refused request that named it with another user asset',
      );
      const fits = await postAs(me, '/inventory/price', { ids: dear.assetId, price: 250_000 });
      assertThat(fits, fits.status === 200, "exactly the item's maximum is accepted");
      const cheap = await helpers.asset({ owner: me.platformId, itemId: plain.id });
      for (const [asset, price] of [
        [mine, highest],
        [cheap, lowest],
      ] as const) {
        const at = await postAs(me, '/inventory/price', { ids: asset.assetId, price });
        assertThat(at, at.status === 200, `${price} cents, the document's bound, is accepted`);
      }
      await helpers.advance(7 * 86_400);
      const released = await postAs(me, '/inventory/price', { ids: held.assetId, price: 100 });
      assertThat(released, released.status === 200, 'after the hold ends the asset can be listed');
    },
  );
});

describe('POST /inventory/price: an asset ID that names two records', () => {
  // An asset withdrawn, the withdrawal declined (the asset stays held, state 2), and the same asset
  // ID deposited again: the user holds two records of one asset ID. Pricing by that ID acts on the
  // one the user can price (the newer, listed one), not on the held one.
  it('Given an asset held by a declined withdrawal and the same asset ID deposited again, pricing it relists the deposited one [R-TRANS-ITEM-LIST]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const item = await helpers.item({ name: 'Twice Held Hat', game: 440 });
    const first = await redeposited(me, item.id);
    const priced = await postAs(me, '/inventory/price', { ids: first.assetId, price: 1200 });
    assertThat(priced, priced.status === 200, 'the deposited record is priced, not refused for the held one');
    const onSale = await rows(me, 'onSale');
    assertThat(
      onSale.answer,
      onSale.rows.some((r) => r.ids.split(',').includes(first.assetId) && r.price === 1200),
      'it is on sale at the new price',
    );
  });
});
