// The catalogue fields (seed: "Resources and their fields > Item", "Buy order": "each row also
// carries all item fields and `name`") wherever an answer shows them: two items that differ in
// every field, each value its own (no default, no other field's, not the other item's), so a field
// read from the other item, from another field or from a default reads differently. The items
// helper takes "any Item fields" (shared/test-helpers.md): one that drops a field fails the set-up
// naming it (`itemAsGiven`), not a later answer.
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { itemAsGiven, session } from '../src/kit/helpers.ts';
import { assertConforms, assertThat, pinsMeaning } from '../src/kit/http.ts';
import { assertBalance } from '../src/kit/money.ts';
import { getAs, postAs } from '../src/kit/user-calls.ts';
import type { Json } from '../src/oracle/document.ts';

beforeAll(resetIfPossible);

/** Two items apart in every Item field: 440 uncraftable and featured beside 730 craftable and not. */
const ALPHA = {
  name: 'Catalogue Alpha Hat',
  game: 440,
  effect: 'Alpha Flames',
  SKU: 'alpha-sku-11',
  quality: 'Alpha Quality',
  type: 'Alpha Type',
  type_platform: 'Alpha Platform Type',
  class: 'alpha-class',
  image: 'https://images.example.com/catalogue-alpha.png',
  imagePertinence: 17,
  craftable: 0,
  rarity: 'Alpha Rarity',
  featured: 1,
  deal: 1717,
  t: { alpha: 'a' },
  color: '#A1A1A1',
  slot: 'alpha-slot',
  hero: 'Alpha Hero',
  weapon: 'Alpha Weapon',
  exterior: 'Alpha Exterior',
  url: 'catalogue-alpha-given',
  description: 'The alpha description.',
  shopdata: ['alpha-shop'],
} as const;
const BETA = {
  name: 'Catalogue Beta Knife',
  game: 730,
  effect: 'Beta Glow',
  SKU: 'beta-sku-22',
  quality: 'Beta Quality',
  type: 'Beta Type',
  type_platform: 'Beta Platform Type',
  class: 'beta-class',
  image: 'https://images.example.com/catalogue-beta.png',
  imagePertinence: 29,
  craftable: 1,
  rarity: 'Beta Rarity',
  featured: 0,
  deal: 2929,
  t: 'beta-t',
  color: '#B2B2B2',
  slot: 'beta-slot',
  hero: 'Beta Hero',
  weapon: 'Beta Weapon',
  exterior: 'Beta Exterior',
  url: 'catalogue-beta-given',
  description: 'The beta description.',
  shopdata: { beta: 2 },
} as const;

/** The fields of `want` that `got` shows otherwise, as `[field, shown]`. */
const differing = (got: Json | undefined, want: Record<string, unknown>) =>
  Object.entries(want)
    .filter(([k, v]) => JSON.stringify(got?.[k]) !== JSON.stringify(v))
    .map(([k]) => [k, got?.[k]]);

/** The Item fields no earlier test pins: the ones only this data tells apart. */
const FIELDS = [
  'SKU',
  'class',
  'description',
  'exterior',
  'featured',
  'hero',
  'imagePertinence',
  'shopdata',
  'slot',
  't',
  'type_platform',
  'weapon',
];

describe('catalogue fields', () => {
  it('Given two items that differ in every Item field, item details and buy order rows show each item its own fields; placing and removing an order is what details confirms', async (ctx) => {
    await needsHelpers(ctx);
    const alpha = await itemAsGiven(ALPHA);
    const beta = await itemAsGiven(BETA);
    for (const [item, given] of [
      [alpha, ALPHA],
      [beta, BETA],
    ] as const) {
      const details = await getAs(await session(), `/item/details/${item.id}`);
      const off = differing(content(details)?.informations, { id: item.id, ...given });
      assertThat(
        details,
        details.status === 200 && off.length === 0,
        `item ${item.id} shows every field as given (differing: ${JSON.stringify(off)})`,
      );
    }
    pinsMeaning(
      'GET /item/details/{item} informations',
      ...FIELDS.map((f) => `GET /item/details/{item} informations.${f}`),
    );

    // Orders on both through the public route, one then removed: `details` says what happened.
    const me = await session({ balance: 10_000 });
    for (const [item, value, amount] of [
      [alpha, 250, 2],
      [beta, 400, 3],
    ] as const) {
      const placed = await postAs(me, '/item/buyorder', { itemid: item.id, value, amount });
      assertConforms(placed);
      assertThat(placed, content(placed)?.details === 'Inserted', `the order on item ${item.id} is inserted`);
    }
    const list = await getAs(me, '/user/getBuyorder');
    const rows = (content(list)?.values ?? []) as Json[];
    for (const [item, given, price, amount] of [
      [alpha, ALPHA, 250, 2],
      [beta, BETA, 400, 3],
    ] as const) {
      const { id: _itemId, ...itemFields } = { ...given, id: item.id };
      const row = rows.find((r) => r.itemid === item.id);
      const off = differing(row, { ...itemFields, price, amount, platformid: me.platformId });
      assertThat(
        list,
        row !== undefined && off.length === 0,
        `the order row of item ${item.id}: its own order and its own item's every field (differing: ${JSON.stringify(off)})`,
      );
    }
    assertThat(list, rows.length === 2, 'both orders listed');
    await assertBalance(me, 10_000 - 500 - 1_200, 'both inserted: 500 and 1200 reserved', 10_000);

    const removed = await postAs(me, '/item/buyorder/remove', { itemid: beta.id });
    assertConforms(removed);
    assertThat(removed, content(removed)?.details === 'Removed', 'the order on the beta item is removed');
    const after = await getAs(me, '/user/getBuyorder');
    const left = ((content(after)?.values ?? []) as Json[]).map((r) => r.itemid);
    assertThat(after, left.join() === String(alpha.id), `only the alpha order is left (got ${left.join()})`);
    await assertBalance(me, 10_000 - 500, "the beta order's 1200 released, the alpha's 500 still held", 8_300);
    pinsMeaning(
      ...FIELDS.filter((f) => f !== 'SKU').map((f) => `GET /user/getBuyorder values[].${f}`),
      'POST /item/buyorder details',
      'POST /item/buyorder/remove details',
    );
  });
});
