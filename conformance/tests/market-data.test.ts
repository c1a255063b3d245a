// Market-data reads (seed: "Items (public and market data)", "Pricing", "Limits"), checked against
// state this file sets up through the test helpers.
import { isIP } from 'node:net';
import { beforeAll, describe, it } from 'vitest';
import { content, getOk as get, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, imagedItem, session } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, call, pinsMeaning, setUpOk } from '../src/kit/http.ts';
import { sides } from '../src/kit/rule.ts';
import { getAs, postAs } from '../src/kit/user-calls.ts';
import { compactPrices } from '../src/kit/variants.ts';
import type { Json } from '../src/oracle/document.ts';

beforeAll(resetIfPossible);

describe('listings', () => {
  it('GET /item/listing/{item} lists on-sale assets by price ascending, paged, with the seller only for admins [R-LISTINGS, R-LISTING-SELLER-HIDDEN]', async (ctx) => {
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
    const sellerPage = await get(`/item/listing/${item.id}/${seller.platformId}`, { count: 2, page: 1 });
    assertThat(
      sellerPage,
      content(sellerPage)
        .map((l: { price: number }) => l.price)
        .join() === '250,300',
      "the seller filter pages too: page 1 of 2 is the seller's third and fourth cheapest",
    );
    const count = await get(`/item/listing/count/${item.id}`);
    assertThat(count, content(count).count === 6, 'six listings on sale');
    const countBySeller = await get(`/item/listing/count/${item.id}/${seller.platformId}`);
    assertThat(countBySeller, content(countBySeller).count === 5, 'five by the seller');
    // Listings on sale only (the seller's unlisted asset is not counted), of the seller asked for.
    pinsMeaning('GET /item/listing/count/{item} count', 'GET /item/listing/count/{item}/{userid} count');

    const admin = await session({ admin: true });
    const seen = await get(`/item/listing/${item.id}`, { count: 1 }, admin.token, admin.ip);
    assertThat(
      seen,
      content(seen)[0].user === seller.platformId && typeof content(seen)[0].ip === 'string',
      'admins see user and ip',
    );
  });
});

/** One buy order per `[price, amount]`, each by a new user whose balance pays exactly for it. */
async function bidsOf(itemId: number, orders: readonly (readonly [price: number, amount: number])[]) {
  for (const [price, amount] of orders) {
    const buyer = await helpers.user({ balance: price * amount });
    await helpers.buyOrder({ owner: buyer.platformId, itemId, price, amount });
  }
}

describe('buy order tiers', () => {
  it(
    'GET /item/buyorderList/{item} groups orders by price: five tiers highest first, and the rest in more [R-BUYORDER-TIERS]',
    sides(['order'], 'R-BUYORDER-TIERS'),
    async (ctx) => {
      await needsHelpers(ctx);
      const item = await helpers.item({ name: 'Tier Key', game: 440 });
      // Created in another order than the tiers': a list in creation order would differ.
      const orders = [
        [300, 1],
        [450, 2],
        [200, 5],
        [500, 1],
        [350, 4],
        [450, 3],
        [250, 2],
        [400, 1],
      ] as const;
      await bidsOf(item.id, orders);
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
      // Units, not orders (450: 2 + 3), the five highest prices in order, the rest summed in more at its lowest price.
      pinsMeaning(
        'GET /item/buyorderList/{item} informations',
        ...['0', '1', '2', '3', '4', 'more'].flatMap((k) => [
          `GET /item/buyorderList/{item} informations.${k}`,
          `GET /item/buyorderList/{item} informations.${k}.count`,
          `GET /item/buyorderList/{item} informations.${k}.price`,
        ]),
      );
    },
  );

  it('Given exactly six prices, GET /item/buyorderList/{item} puts the sixth alone in more: its units summed over its two orders, at its price [R-BUYORDER-TIERS]', async (ctx) => {
    await needsHelpers(ctx);
    const item = await helpers.item({ name: 'Six Tier Key', game: 440 });
    // One remaining tier only (the test above has two): `more` is that tier, 2 + 3 units at 150,
    // not its first order's amount, not a count of orders, not missing.
    const orders = [
      [150, 2],
      [600, 1],
      [150, 3],
      [500, 2],
      [400, 1],
      [300, 4],
      [200, 1],
    ] as const;
    await bidsOf(item.id, orders);
    const answer = await get(`/item/buyorderList/${item.id}`);
    const want = {
      0: { count: 1, price: 600 },
      1: { count: 2, price: 500 },
      2: { count: 1, price: 400 },
      3: { count: 4, price: 300 },
      4: { count: 1, price: 200 },
      more: { count: 5, price: 150 },
    };
    const got = content(answer)?.informations;
    assertThat(
      answer,
      JSON.stringify(got) === JSON.stringify(want),
      `tiers ${JSON.stringify(want)} (got ${JSON.stringify(got)})`,
    );
  });

  it('Given two prices, GET /item/buyorderList/{item} has the keys 0 and 1 only; given six orders at one price above two more, that price is one tier of six units [R-BUYORDER-TIERS]', async (ctx) => {
    await needsHelpers(ctx);
    // Fewer than six prices: no remaining tier, so no `more` (the document: fewer tiers, fewer keys).
    // Six orders at the top price: a reading that counts orders as tiers would stop at the sixth.
    const cases: { name: string; orders: [price: number, amount: number][]; want: Json }[] = [
      {
        name: 'Two Tier Key',
        orders: [
          [120, 2],
          [300, 1],
          [120, 1],
        ],
        want: { 0: { count: 1, price: 300 }, 1: { count: 3, price: 120 } },
      },
      {
        name: 'Crowded Tier Key',
        orders: [
          [500, 1],
          [500, 1],
          [400, 1],
          [500, 1],
          [500, 1],
          [300, 2],
          [500, 1],
          [500, 1],
        ],
        want: { 0: { count: 6, price: 500 }, 1: { count: 1, price: 400 }, 2: { count: 2, price: 300 } },
      },
    ];
    for (const { name, orders, want } of cases) {
      const item = await helpers.item({ name, game: 440 });
      await bidsOf(item.id, orders);
      const answer = await get(`/item/buyorderList/${item.id}`);
      const got = content(answer)?.informations;
      assertThat(
        answer,
        JSON.stringify(got) === JSON.stringify(want),
        `${name}: tiers ${JSON.stringify(want)} (got ${JSON.stringify(got)})`,
      );
    }
  });
});

describe('item details', () => {
  it('GET /item/details/{item} answers by ID and by URL slug [R-ITEM-SLUG, R-AUTH-API-ONLY]', async (ctx) => {
    await needsHelpers(ctx);
    const item = await helpers.item({ name: 'Strange Slug Rifle', game: 730 });
    const byId = await get(`/item/details/${item.id}`);
    const bySlug = await get(`/item/details/${item.url}`);
    assertThat(
      bySlug,
      content(bySlug).informations.id === item.id && content(byId).informations.name === 'Strange Slug Rifle',
      'the same item both ways',
    );
    // Identifiers in paths are numeric item IDs and details "also" accept the slug: an item whose
    // slug is another item's ID leaves that ID naming the item that has it (slug first would not).
    pinsMeaning('GET /item/details/{item} informations.id', 'GET /item/details/{item} informations.name');
    const digits = await helpers.item({ name: String(item.id), game: 730 });
    const byNumber = await get(`/item/details/${item.id}`);
    assertThat(
      byNumber,
      digits.url === String(item.id) && content(byNumber).informations.id === item.id,
      `with item ${digits.id} slugged "${digits.url}", /item/details/${item.id} is still item ${item.id}, its ID`,
    );
  });

  it('GET /item/details/fromid/{backpackid} strips trailing spaces and semicolons, and empties craftable outside game 440 [R-BACKPACK-DETAILS]', async (ctx) => {
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

// Every field of a listing and of a backpack entry told apart from its near misses: two sellers'
// listings of one item, each asset with attributes of its own (not the item's, not the other
// asset's), the item with every field set (craftable 0 on game 440, where 1 is the default), an
// unlisted asset of the same item beside them (its state 0, not 1), and the seller shown to an admin.
describe('listing and backpack entry fields', () => {
  it('Given two sellers with listed assets of their own attributes, every listing and backpack entry shows its own asset, owner, state, price and item fields [R-LISTINGS, R-LISTING-SELLER-HIDDEN, R-BACKPACK-DETAILS]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true });
    const one = await helpers.user();
    const two = await helpers.user();
    const now = await helpers.now();
    for (const [game, details] of [
      [440, '/item/details/fromid/'],
      [730, '/item/cs/details/fromid/'],
    ] as const) {
      const body = {
        name: `Entry Field Item ${game}`,
        game,
        effect: `Effect ${game}`,
        quality: `Quality ${game}`,
        type: `Type ${game}`,
        craftable: 0 as const,
        url: `entry-field-given-${game}`,
        rarity: `Rarity ${game}`,
        color: `#${game}AA`,
      };
      const item = { ...body, ...(await imagedItem(body)) };
      const assetOf = (owner: string, n: number, extra: Partial<Parameters<typeof helpers.asset>[0]>) =>
        helpers.asset({
          owner,
          itemId: item.id,
          wear: n / 100,
          sheen: `Sheen ${game}-${n}`,
          killstreaker: `Killstreaker ${game}-${n}`,
          spell: `Spell ${game}-${n}`,
          parts: `Parts ${game}-${n}`,
          paint: `Paint ${game}-${n}`,
          lastupdate: now - 1000 * n,
          ...extra,
        });
      type Made = { id: number; assetId: string; owner: string; n: number; state: number; price: number | undefined };
      const made = async (owner: string, n: number, price?: number): Promise<Made> => {
        const listed = price === undefined ? {} : { state: 1 as const, price };
        const a = await assetOf(owner, n, listed);
        return { id: a.id, assetId: a.assetId, owner, n, state: price === undefined ? 0 : 1, price };
      };
      const heldBy = new Map<string, unknown>();
      const x = await made(one.platformId, 7, 777);
      const y = await made(two.platformId, 3, 333);
      const z = await made(one.platformId, 5); // unlisted: state 0
      const asListed = (a: Made) =>
        JSON.stringify([
          a.id,
          a.assetId,
          item.id,
          a.owner,
          a.state,
          a.price,
          game,
          a.n / 100,
          ...['Sheen', 'Killstreaker', 'Spell', 'Parts', 'Paint'].map((k) => `${k} ${game}-${a.n}`),
        ]);
      const seenListed = (l: Json) =>
        JSON.stringify([
          l.id,
          l.assetId,
          l.item_id,
          l.user,
          l.state,
          l.price,
          l.game,
          l.wear,
          l.sheen,
          l.killstreaker,
          l.spell,
          l.parts,
          l.paint,
        ]);
      const all = await get(`/item/listing/${item.id}`, {}, admin.token, admin.ip);
      assertThat(
        all,
        (content(all) as Json[]).map(seenListed).join() === [y, x].map(asListed).join(),
        `the listings of item ${item.id}, cheapest first, each with its own entry ID, asset, owner, state, price, game and attributes (got ${JSON.stringify(content(all))})`,
      );
      const ofOne = await get(`/item/listing/${item.id}/${one.platformId}`, {}, admin.token, admin.ip);
      assertThat(
        ofOne,
        (content(ofOne) as Json[]).map(seenListed).join() === asListed(x),
        `the listings of seller one: x only, with its own fields (got ${JSON.stringify(content(ofOne))})`,
      );
      for (const a of [x, y, z]) {
        const answer = await get(`${details}${a.assetId}`, {}, admin.token, admin.ip);
        const d = content(answer)?.informations ?? {};
        const want = JSON.stringify([
          JSON.parse(asListed(a)),
          a.state === 1 ? a.price : null,
          now - 1000 * a.n,
          [
            item.name,
            item.effect,
            item.quality,
            item.type,
            game === 440 ? 0 : '',
            item.image,
            item.rarity,
            item.url,
            item.color,
          ],
        ]);
        const got = JSON.stringify([
          JSON.parse(seenListed({ ...d, price: a.state === 1 ? d.price : undefined })),
          a.state === 1 ? d.price : null,
          d.lastupdate,
          [d.name, d.effect, d.quality, d.type, d.craftable, d.image, d.rarity, d.url, d.color],
        ]);
        assertThat(
          answer,
          got === want,
          `${details}${a.assetId}: the entry's own fields and its item's (want ${want}, got ${got})`,
        );
        heldBy.set(a.assetId, d.bot);
      }
      // The holding bot shows nowhere but in these entries: each listing names the bot its own
      // backpack entry names (not another asset's; a check, not a pin: meanings.ts OPEN_MEANINGS).
      // A listing may carry `lastupdate` (the document gives it to the details by backpack ID):
      // where it does, its own asset's, not another's.
      for (const [answer, want] of [
        [all, [y, x]],
        [ofOne, [x]],
      ] as const) {
        const off = (content(answer) as Json[]).flatMap((l, i) => {
          const a = want[i]!;
          const bot =
            l.bot === heldBy.get(a.assetId) ? [] : [`${a.assetId} bot ${l.bot}, not ${heldBy.get(a.assetId)}`];
          const stamp =
            !('lastupdate' in l) || l.lastupdate === now - 1000 * a.n
              ? []
              : [`${a.assetId} lastupdate ${l.lastupdate}`];
          return [...bot, ...stamp];
        });
        assertThat(
          answer,
          off.length === 0,
          `each listing's bot is its backpack entry's, its lastupdate (where carried) its asset's (${off.join('; ')})`,
        );
      }
    }
    const fields = [
      'id',
      'assetId',
      'item_id',
      'user',
      'state',
      'price',
      'game',
      'wear',
      'sheen',
      'killstreaker',
      'spell',
      'parts',
      'paint',
    ];
    const entry = [
      ...fields,
      'lastupdate',
      'name',
      'effect',
      'quality',
      'type',
      'craftable',
      'image',
      'rarity',
      'url',
      'color',
    ];
    pinsMeaning(
      ...['GET /item/listing/{item}', 'GET /item/listing/{item}/{userid}'].flatMap((op) =>
        [...fields, 'lastupdate'].map((f) => `${op} content[].${f}`),
      ),
      ...['GET /item/details/fromid/{backpackid}', 'GET /item/cs/details/fromid/{backpackid}'].flatMap((op) => [
        `${op} informations`,
        ...entry.map((f) => `${op} informations.${f}`),
      ]),
    );
  });
});

// The document's `ip` of an entry: "IP address recorded with the entry". Whose address, and whether
// a bought asset keeps one, is not said (the buyer's, the seller's, none: an empty string); that it
// is an IP address when there is one is.
describe('the IP recorded with a backpack entry', () => {
  it('Given an asset sold into a buy order, the entry an admin reads records an IP address or none, never other text [R-LISTING-SELLER-HIDDEN]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true });
    const buyer = await session({ balance: 1000 });
    const seller = await session();
    const item = await helpers.item({ name: 'Recorded IP Hat', game: 440 });
    const asset = await helpers.asset({ owner: seller.platformId, itemId: item.id });
    setUpOk(await postAs(buyer, '/item/buyorder', { itemid: item.id, value: 500, amount: 1 }));
    setUpOk(await postAs(seller, '/inventory/price', { ids: asset.assetId, price: 400 }));
    const answer = await get(`/item/details/fromid/${asset.assetId}`, {}, admin.token, admin.ip);
    const entry = content(answer)?.informations ?? {};
    setUpOk(answer, entry.user === buyer.platformId, "the asset sold into the buy order is the buyer's");
    assertThat(
      answer,
      entry.ip === '' || (typeof entry.ip === 'string' && isIP(entry.ip) !== 0),
      `the bought asset's ip is an IP address or empty (none recorded), got ${JSON.stringify(entry.ip)}`,
    );
  });
});

describe('pricing', () => {
  it('GET /item/pricing/{item}: Given listings and buy orders, then the pricing is computed, cached for 20 minutes, then recomputed [R-PRICING, R-LIMIT-PRICE-CACHE]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const item = await helpers.item({ name: 'Priced Key', game: 440, deal: 321 });
    const seller = await helpers.user();
    for (const price of [220, 205]) await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 1, price });
    const buyer = await helpers.user({ balance: 1000 });
    await helpers.buyOrder({ owner: buyer.platformId, itemId: item.id, price: 190, amount: 2 });
    // A lower order beside it: lowest_buy_order is the highest active order (seed), not the lowest.
    const lower = await helpers.user({ balance: 1000 });
    await helpers.buyOrder({ owner: lower.platformId, itemId: item.id, price: 150, amount: 1 });
    const first = await get(`/item/pricing/${item.id}`, {}, me.token, me.ip);
    const p = content(first);
    assertThat(
      first,
      p.cached === false &&
        p.item_id === item.id &&
        p.pricing.lowest_sale_price === 205 &&
        p.pricing.lowest_buy_order === 190 &&
        p.pricing.platform_price === 321,
      'computed from the listings (205), the orders (190) and the external price (321), not cached',
    );
    await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 1, price: 150 });
    const again = await get(`/item/pricing/${item.id}`, {}, me.token, me.ip);
    assertThat(
      again,
      content(again).cached === true && content(again).pricing.lowest_sale_price === 205,
      'within 20 minutes: served from the cache, the new 150 listing not yet seen',
    );
    await helpers.advance(21 * 60);
    const later = await get(`/item/pricing/${item.id}`, {}, me.token, me.ip);
    assertThat(
      later,
      content(later).cached === false && content(later).pricing.lowest_sale_price === 150,
      'after 21 minutes: recomputed, with the 150 listing',
    );
    // The lowest of two listings (205, not the first created 220), the item's external price, and
    // cached told apart on the first and second reading.
    pinsMeaning(
      'GET /item/pricing/{item} cached',
      'GET /item/pricing/{item} item_id',
      'GET /item/pricing/{item} pricing',
      'GET /item/pricing/{item} pricing.lowest_sale_price',
      'GET /item/pricing/{item} pricing.lowest_buy_order',
      'GET /item/pricing/{item} pricing.platform_price',
    );
  });

  it('GET /item/pricing/bulk: Given two items, then rows are refreshed, reused for 5 minutes (duplicates counted separately), and refreshed again [R-PRICING-BULK-DUPLICATES, R-LIMIT-PRICE-CACHE, R-LIMIT-BULK-PRICING]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const a = await helpers.item({ name: 'Bulk A', game: 440, deal: 321 });
    const b = await helpers.item({ name: 'Bulk B', game: 440, deal: 123 });
    // Each item's own pricing: a's listings 220 and 205 and orders 190 and 150, b's one listing at 480.
    const seller = await helpers.user();
    for (const [itemId, price] of [
      [a.id, 220],
      [a.id, 205],
      [b.id, 480],
    ] as const)
      await helpers.asset({ owner: seller.platformId, itemId, state: 1, price });
    for (const price of [190, 150]) {
      const buyer = await helpers.user({ balance: 1000 });
      await helpers.buyOrder({ owner: buyer.platformId, itemId: a.id, price, amount: 1 });
    }
    const ask = (ids: number[]) => get('/item/pricing/bulk', { items: ids.join(',') }, me.token, me.ip);
    type Bulk = { total_items: number; cached_items: number; refreshed_items: number; items: Json[] };
    const shape = (answer: Answer) => {
      const c = content(answer) as Bulk;
      return {
        totals: [c.total_items, c.cached_items, c.refreshed_items].join(),
        ids: c.items.map((i) => i.item_id).join(),
        fromCache: c.items.map((i) => i.from_cache).join(),
      };
    };
    const fresh = await ask([a.id, b.id]);
    assertThat(
      fresh,
      JSON.stringify(shape(fresh)) ===
        JSON.stringify({ totals: '2,0,2', ids: `${a.id},${b.id}`, fromCache: 'false,false' }),
      'first ask: both computed (total 2, cached 0, refreshed 2)',
    );
    const priced = (content(fresh) as Bulk).items.map((i) => [
      i.item_id,
      i.pricing?.lowest_sale_price,
      i.item_id === a.id ? i.pricing?.lowest_buy_order : 'none',
      i.pricing?.platform_price,
    ]);
    const wantPriced = [
      [a.id, 205, 190, 321],
      [b.id, 480, 'none', 123],
    ];
    assertThat(
      fresh,
      JSON.stringify(priced) === JSON.stringify(wantPriced),
      `each row its own item's lowest listing, highest order and external price (want ${JSON.stringify(wantPriced)}, got ${JSON.stringify(priced)})`,
    );
    const reused = await ask([a.id, b.id, a.id]);
    assertThat(
      reused,
      JSON.stringify(shape(reused)) ===
        JSON.stringify({ totals: '3,3,0', ids: `${a.id},${b.id},${a.id}`, fromCache: 'true,true,true' }),
      'within 5 minutes: three entries (the duplicate counted), all from the stored rows',
    );
    await helpers.advance(6 * 60);
    const stale = await ask([a.id, b.id]);
    assertThat(
      stale,
      JSON.stringify(shape(stale)) ===
        JSON.stringify({ totals: '2,0,2', ids: `${a.id},${b.id}`, fromCache: 'false,false' }),
      'after 6 minutes: both recomputed',
    );
    pinsMeaning(
      'GET /item/pricing/bulk total_items',
      'GET /item/pricing/bulk cached_items',
      'GET /item/pricing/bulk refreshed_items',
      'GET /item/pricing/bulk items',
      'GET /item/pricing/bulk items[].item_id',
      'GET /item/pricing/bulk items[].from_cache',
      'GET /item/pricing/bulk items[].pricing',
      'GET /item/pricing/bulk items[].pricing.lowest_sale_price',
      'GET /item/pricing/bulk items[].pricing.lowest_buy_order',
      'GET /item/pricing/bulk items[].pricing.platform_price',
    );
    const tooMany = await call('GET', '/item/pricing/bulk', {
      query: { items: Array.from({ length: 101 }, () => a.id).join(',') },
      token: me.token,
      ip: me.ip,
    });
    assertConforms(tooMany);
    assertThat(tooMany, tooMany.status === 300, 'more than 100 IDs is refused');
  });

  it('GET /item/pricing/{item} and /item/pricing/bulk: Given an unknown item ID, alone or among known ones, then a documented answer, never a server error [R-PRICING]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const known = await helpers.item({ name: 'Known Priced Key', game: 440, deal: 321 });
    // No item has this ID: far past the one just created. The seed does not show the answer for an
    // unknown item (single or in a bulk list), so any documented answer passes, but not a 500.
    const unknown = known.id + 1_000_000;
    const single = await call('GET', `/item/pricing/${unknown}`, { token: me.token, ip: me.ip });
    assertThat(single, single.status < 500, 'an unknown item is no server error');
    assertConforms(single);
    const bulk = await call('GET', '/item/pricing/bulk', {
      query: { items: `${known.id},${unknown}` },
      token: me.token,
      ip: me.ip,
    });
    assertThat(bulk, bulk.status < 500, 'an unknown item among known ones is no server error');
    assertConforms(bulk);
  });
});

/** Unix seconds of a `Y-m-d H:i:s` read as UTC (NaN when it is not one). */
const asUnix = (text: unknown) => {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(String(text));
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) / 1000 : Number.NaN;
};
/**
 * The zone a `Y-m-d H:i:s` shows the Unix time `at` in (a few seconds late allowed): its offset, a
 * whole number of quarter hours within 14 hours, or NaN when the text is no such showing of `at`.
 * The document does not name the zone; the suite asks only that it stays the same.
 */
const zoneOf = (text: unknown, at: number) => {
  const late = asUnix(text) - at;
  const offset = Math.round(late / 900) * 900;
  return late - offset >= 0 && late - offset <= 5 && Math.abs(offset) <= 14 * 3600 ? offset : Number.NaN;
};

describe('pricing: the last sale and the time of the calculation', () => {
  it('Given items sold twice and an item never sold, GET /item/pricing/{item} and /bulk show the later sale, gross, at its time, and last_updated the time the row was computed, kept while it is reused [R-PRICING, R-LIMIT-PRICE-CACHE]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    /** A new item whose two assets sell one after the other at `prices`, each into an order at its price: the times. */
    const soldTwice = async (name: string, prices: [number, number]) => {
      const item = await helpers.item({ name, game: 440, deal: 999 });
      const seller = await session();
      const times: number[] = [];
      for (const price of prices) {
        const buyer = await helpers.user({ balance: price });
        await helpers.buyOrder({ owner: buyer.platformId, itemId: item.id, price, amount: 1 });
        const asset = await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 0 });
        times.push(await helpers.pinClock());
        setUpOk(await postAs(seller, '/inventory/price', { ids: asset.assetId, price }), undefined, 'the asset sells');
        await helpers.advance(1_000);
      }
      return { id: item.id, times };
    };
    // The later sale is the cheaper one and 95 % of it is another number: the first, the highest
    // and the seller's net all read otherwise; its time is 1,000 s after the first's.
    const single = await soldTwice('Last Sale Single', [280, 260]);
    const bulk = await soldTwice('Last Sale Bulk', [510, 470]);
    const never = await helpers.item({ name: 'Never Sold', game: 440, deal: 777 });
    const lastSale = (row: Json | undefined, sale: { times: number[] }, price: number) => {
      const last = row?.pricing?.last_sale;
      return last?.price === price && last.date >= sale.times[1]! && last.date <= sale.times[1]! + 5;
    };

    const first = await helpers.pinClock();
    const computed = await getAs(me, `/item/pricing/${single.id}`);
    const zone = zoneOf(content(computed)?.last_updated, first);
    assertThat(
      computed,
      lastSale(content(computed), single, 260) && !Number.isNaN(zone),
      `the later sale (260, at ${single.times[1]}, not 280 at ${single.times[0]} nor the net 247) and last_updated now (${first}) in some zone (got ${JSON.stringify(content(computed))})`,
    );
    await helpers.advance(120);
    const reused = await getAs(me, `/item/pricing/${single.id}`);
    assertThat(
      reused,
      content(reused)?.cached === true && content(reused)?.last_updated === content(computed)?.last_updated,
      `two minutes later, from the cache: last_updated still the time it was computed, not the time of the answer (got ${content(reused)?.last_updated})`,
    );
    await helpers.advance(21 * 60);
    const again = await helpers.pinClock();
    const recomputed = await getAs(me, `/item/pricing/${single.id}`);
    assertThat(
      recomputed,
      content(recomputed)?.cached === false && zoneOf(content(recomputed)?.last_updated, again) === zone,
      `21 minutes later, recomputed: last_updated the new time (${again}) in the same zone (got ${content(recomputed)?.last_updated})`,
    );
    pinsMeaning(
      'GET /item/pricing/{item} last_updated',
      'GET /item/pricing/{item} pricing.last_sale',
      'GET /item/pricing/{item} pricing.last_sale.date',
      'GET /item/pricing/{item} pricing.last_sale.price',
    );

    const asked = await helpers.pinClock();
    const ask = () => getAs(me, '/item/pricing/bulk', { items: `${bulk.id},${never.id}` });
    const fresh = await ask();
    const rows = (content(fresh)?.items ?? []) as Json[];
    const [sold, unsold] = [bulk.id, never.id].map((id) => rows.find((r) => r.item_id === id));
    assertThat(
      fresh,
      lastSale(sold, bulk, 470) &&
        unsold?.pricing?.last_sale === null &&
        rows.every((r) => r.from_cache === false && zoneOf(r.last_updated, asked) === zone),
      `the sold item's later sale (470, at ${bulk.times[1]}), null for the item never sold, both computed now (${asked}) in the same zone (got ${JSON.stringify(rows)})`,
    );
    await helpers.advance(60);
    const stored = await ask();
    const kept = ((content(stored)?.items ?? []) as Json[]).map((r) => [r.item_id, r.from_cache, r.last_updated]);
    const want = rows.map((r) => [r.item_id, true, r.last_updated]);
    assertThat(
      stored,
      JSON.stringify(kept) === JSON.stringify(want),
      `a minute later, the stored rows with the time they were computed (want ${JSON.stringify(want)}, got ${JSON.stringify(kept)})`,
    );
    pinsMeaning(
      'GET /item/pricing/bulk items[].last_updated',
      'GET /item/pricing/bulk items[].pricing.last_sale',
      'GET /item/pricing/bulk items[].pricing.last_sale.date',
      'GET /item/pricing/bulk items[].pricing.last_sale.price',
    );
  });
});

describe('GET /item/prices rows', () => {
  it('Given two items of a game apart in every row field, each row shows its own name, craftable, effect and slug, its listed assets and its lowest listing [R-ITEM-PRICES-FILTERS]', async (ctx) => {
    await needsHelpers(ctx);
    const alpha = await helpers.item({
      name: 'Price List Alpha',
      game: 570,
      effect: 'Alpha Aura',
      url: 'price-list-alpha-given',
      craftable: 0,
      deal: 999,
    });
    const beta = await helpers.item({
      name: 'Price List Beta',
      game: 570,
      effect: 'Beta Aura',
      url: 'price-list-beta-given',
      craftable: 1,
      deal: 888,
    });
    const one = await helpers.user();
    const two = await helpers.user();
    // Alpha: listings at 300 (first) and 120, an asset held unlisted, a buy order at 110. Beta:
    // three listings of two sellers, the first and lowest at 500, the highest at 700.
    for (const [owner, itemId, price] of [
      [one, alpha.id, 300],
      [one, alpha.id, 120],
      [one, alpha.id, undefined],
      [one, beta.id, 500],
      [two, beta.id, 700],
      [two, beta.id, 600],
    ] as const)
      await helpers.asset({ owner: owner.platformId, itemId, ...(price ? { state: 1, price } : { state: 0 }) });
    const buyer = await helpers.user({ balance: 1_000 });
    await helpers.buyOrder({ owner: buyer.platformId, itemId: alpha.id, price: 110, amount: 1 });
    // One call per API key every 5 minutes: a caller of its own.
    const list = await getAs(await session(), '/item/prices', { game: 570 });
    assertConforms(list);
    const rows = (content(list) ?? []) as Json[];
    const rowOf = (item: { name: string; url: string }) => rows.find((r) => r.url === item.url || r.name === item.name);
    const shown = [alpha, beta].map((item) => {
      const r = rowOf(item);
      return [r?.name, r?.craftable, r?.effect, r?.url, r?.assetcount, r?.price];
    });
    const want = [
      ['Price List Alpha', 0, 'Alpha Aura', 'price-list-alpha-given', 2, 120],
      ['Price List Beta', 1, 'Beta Aura', 'price-list-beta-given', 3, 500],
    ];
    assertThat(
      list,
      JSON.stringify(shown) === JSON.stringify(want),
      `each row its own item's fields, its listed assets (not the one held unlisted, not its sellers) and its lowest listing (not the first, the highest or a buy order) (want ${JSON.stringify(want)}, got ${JSON.stringify(shown)})`,
    );
    pinsMeaning(
      'GET /item/prices content[].name',
      'GET /item/prices content[].craftable',
      'GET /item/prices content[].effect',
      'GET /item/prices content[].url',
      'GET /item/prices content[].assetcount',
      'GET /item/prices content[].price',
    );
  });
});

describe('price lists', () => {
  /** An item with two listings (205, 220), two buy orders (190, 150) and an external price of 321. */
  async function pricedItem(name: string, game: 440 | 730 | 570 | 252490) {
    const item = await helpers.item({ name, game, deal: 321 });
    const seller = await helpers.user();
    for (const price of [220, 205]) await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 1, price });
    for (const price of [190, 150]) {
      const buyer = await helpers.user({ balance: 1000 });
      await helpers.buyOrder({ owner: buyer.platformId, itemId: item.id, price, amount: 1 });
    }
    return item;
  }

  it('GET /public/price: Given an item with listings and buy orders, then its JSON row and CSV line carry them [R-PUBLIC-PRICE, R-LIMIT-PRICE-LIST-CACHE]', async (ctx) => {
    await needsHelpers(ctx);
    // Two sales two days apart (260, then 280) into an order of 2 that they fill: the last 24
    // hours hold one sale of 280, and the filled order is no longer an active one.
    const item = await helpers.item({ name: 'Survival Crate', game: 252490, deal: 321 });
    const trader = await session();
    const early = await helpers.user({ balance: 1000 });
    await helpers.buyOrder({ owner: early.platformId, itemId: item.id, price: 300, amount: 2 });
    for (const price of [260, 280]) {
      const asset = await helpers.asset({ owner: trader.platformId, itemId: item.id, state: 0 });
      const sold = await call('POST', '/inventory/price', {
        json: { ids: asset.assetId, price },
        token: trader.token,
        ip: trader.ip,
      });
      assertThat(sold, sold.status === 200, `the asset listed at ${price} sells into the order`);
      if (price === 260) await helpers.advance(2 * 86_400);
    }
    // Listings at 220 and 205, orders of 190 x 1 and 150 x 3: two orders holding four units.
    const seller = await helpers.user();
    for (const price of [220, 205]) await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 1, price });
    for (const [price, amount] of [
      [190, 1],
      [150, 3],
    ] as const) {
      const buyer = await helpers.user({ balance: 1000 });
      await helpers.buyOrder({ owner: buyer.platformId, itemId: item.id, price, amount });
    }
    await pricedItem('Other Game Crate', 570); // another game's row: game=252490 must drop it
    const before = await helpers.now();
    // update=1 refreshes the cached list; it is honoured once per minute per IP, so each call has its own.
    const json = await call('GET', '/public/price', { query: { game: 252490, update: 1 }, ip: '198.51.100.101' });
    assertConforms(json);
    const list = content(json);
    const row = (list.prices as Json[]).find((r) => r.itemId === item.id);
    assertThat(
      json,
      row?.name === 'Survival Crate' &&
        row.buyPrice === 190 &&
        row.sellPrice === 205 &&
        row.platformPrice === 321 &&
        row.listingCount === 2 &&
        row.buyOrderCount === 2,
      'the row: buyPrice 190, sellPrice 205, platformPrice 321, 2 listings, 2 buy orders',
    );
    assertThat(
      json,
      row?.game === 252490 &&
        row.last24hSales === 1 &&
        row.last24hVolume === 280 &&
        list.lastUpdate >= before &&
        list.lastUpdate <= (await helpers.now()),
      `the last 24 hours: one sale of 280 (not both, not net of the fee); refreshed now by update=1 (got ${JSON.stringify(row)}, lastUpdate ${list.lastUpdate})`,
    );
    pinsMeaning(
      'GET /public/price prices',
      'GET /public/price prices[].itemId',
      'GET /public/price prices[].name',
      'GET /public/price prices[].game',
      'GET /public/price prices[].buyPrice',
      'GET /public/price prices[].sellPrice',
      'GET /public/price prices[].platformPrice',
      'GET /public/price prices[].listingCount',
      'GET /public/price prices[].buyOrderCount',
      'GET /public/price prices[].last24hSales',
      'GET /public/price prices[].last24hVolume',
      'GET /public/price itemCount',
      'GET /public/price lastUpdate',
    );
    assertThat(
      json,
      (list.prices as Json[]).every((r) => r.game === 252490) && list.itemCount === list.prices.length,
      'game=252490 lists that game only, itemCount counts the rows',
    );
    const csv = await call('GET', '/public/price', {
      query: { format: 'csv', game: 252490, update: 1 },
      ip: '198.51.100.102',
    });
    assertConforms(csv);
    const lines = String(csv.body).trim().split(/\r?\n/);
    assertThat(
      csv,
      lines[0] === 'itemId,name,game,buyPrice,sellPrice,platformPrice,listingCount,buyOrderCount',
      'the CSV header of the seed, exactly',
    );
    assertThat(
      csv,
      lines.includes(`${item.id},Survival Crate,252490,190,205,321,2,2`),
      'the item as a CSV line in header order',
    );
  });

  it('GET /infos/prices/buyorderAndLowestSales: Given items with both sides, a listing only and a buy order only, then the list carries them (0 meaning none) [R-COMPACT-PRICES]', async (ctx) => {
    await needsHelpers(ctx);
    const both = await pricedItem('Infos Key', 440);
    const listed = await helpers.item({ name: 'Listed Only', game: 440 });
    const wanted = await helpers.item({ name: 'Wanted Only', game: 440 });
    const bare = await helpers.item({ name: 'Bare Key', game: 440 });
    const seller = await helpers.user();
    await helpers.asset({ owner: seller.platformId, itemId: listed.id, state: 1, price: 75 });
    const buyer = await helpers.user({ balance: 1000 });
    await helpers.buyOrder({ owner: buyer.platformId, itemId: wanted.id, price: 60, amount: 1 });
    const before = await helpers.now();
    const answer = await call('GET', '/infos/prices/buyorderAndLowestSales', {
      query: { update: 1 },
      ip: '198.51.100.103',
    });
    assertConforms(answer);
    // Either seed description: envelope B's data.prices array or envelope A's content.prices string.
    const prices = compactPrices(content(answer));
    const pair = (id: number) => {
      const p = prices?.find((r) => r.item_id === id);
      return p ? `${p.buyorder_price}/${p.lowest_sale_price}` : 'absent';
    };
    assertThat(answer, answer.status === 200 && Array.isArray(prices), 'the compact price list');
    assertThat(answer, pair(both.id) === '190/205', 'both sides: highest buy order 190, lowest listing 205');
    assertThat(answer, pair(listed.id) === '0/75', 'a listing only: buy order 0');
    assertThat(answer, pair(wanted.id) === '60/0', 'a buy order only: lowest listing 0');
    assertThat(answer, ['0/0', 'absent'].includes(pair(bare.id)), 'an item with neither: 0/0 when listed');
    // The envelope A description's time of the refresh update=1 forced: now.
    const stamp = content(answer)?.lastUpdate;
    assertThat(
      answer,
      stamp === undefined || (stamp >= before && stamp <= (await helpers.now())),
      `lastUpdate is the refresh just forced (got ${stamp})`,
    );
    pinsMeaning(
      'GET /infos/prices/buyorderAndLowestSales prices',
      'GET /infos/prices/buyorderAndLowestSales prices[].item_id',
      'GET /infos/prices/buyorderAndLowestSales prices[].buyorder_price',
      'GET /infos/prices/buyorderAndLowestSales prices[].lowest_sale_price',
      'GET /infos/prices/buyorderAndLowestSales lastUpdate',
    );
  });
});

describe('GET /infos/admin', () => {
  it('Given an admin and a user, then the staff list names the admin only [R-INFOS-ADMIN]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await helpers.user({ admin: true, name: 'Staff Member' });
    const user = await helpers.user({ name: 'Not Staff' });
    const staff = await get('/infos/admin');
    const entries = (staff.body as { data: { name: string; platformId: string }[] }).data;
    assertThat(
      staff,
      entries.some((e) => e.platformId === admin.platformId && e.name === 'Staff Member'),
      'the admin is listed with its name',
    );
    assertThat(staff, !entries.some((e) => e.platformId === user.platformId), 'a non-admin is not listed');
    pinsMeaning('GET /infos/admin data[].name', 'GET /infos/admin data[].platformId');
  });
});

describe('GET /user/store/{identifier}', () => {
  it('Given a user who set a short URL, then the store answers its public information; an unknown one is not found [R-STORE, R-AUTH-API-ONLY, R-ERR-404]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session({ name: 'Store Owner' });
    const shortUrl = `store-${me.platformId.slice(-8)}`;
    const set = await call('POST', '/user/updateShortUrl', { json: { shortUrl }, token: me.token, ip: me.ip });
    assertConforms(set);
    assertThat(set, set.status === 200, 'the short URL is stored');
    const store = await get(`/user/store/${shortUrl}`);
    assertThat(
      store,
      content(store).platformId === me.platformId && content(store).name === 'Store Owner',
      'the store of that user',
    );
    const unknown = await call('GET', '/user/store/no-such-store-00');
    assertConforms(unknown);
    assertThat(unknown, unknown.status === 300 && unknown.message === 'Store not found', 'Store not found');
  });
});
