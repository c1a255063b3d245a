// The promises of the test-helper contract (shared/test-helpers.md) the suite relies on, each
// checked once (issue 22): a target that breaks one is told so here, by name, instead of failing
// somewhere else with a puzzling set-up. Only what other tests lean on: reset, the users, items,
// assets and buy orders helpers, the clock, the outbox, the platform, payments, GeoIP, and the
// answer to a bad request; and our TOTP helper, which the Arazzo workflows lean on. These are no
// seed rules: the tests carry the side `helper contract`.
import type { TestHelperComponents } from '@marketplace/types';
import { beforeAll, describe, it } from 'vitest';
import { content, jwtPayload, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { checkHelperAnswer, HELPER_ANSWER } from '../src/kit/helper-answers.ts';
import { helpers, login, session } from '../src/kit/helpers.ts';
import { type Answer, assertThat, assertValue, call, pinsMeaning } from '../src/kit/http.ts';
import { settings } from '../src/kit/settings.ts';
import { clockADayAhead, totp } from '../src/kit/two-factor.ts';
import { getAs, postAs } from '../src/kit/user-calls.ts';
import { balancePage } from '../src/kit/variants.ts';
import { findOperation } from '../src/oracle/document.ts';

beforeAll(resetIfPossible);

/**
 * A test of one promise of the helper contract: on the rule matrix's side `helper contract`, and
 * skipped (naming the missing helper) where the target has no test helpers.
 */
const contract = (name: string, body: () => Promise<void>) =>
  it(name, { meta: { sides: ['helper contract'] } }, async (ctx) => {
    await needsHelpers(ctx);
    await body();
  });
const helper = (method: 'GET' | 'POST', path: string, json?: unknown): Promise<Answer> =>
  call(method, `/test_helpers${path}`, json === undefined ? {} : { json });
/** A 200 in the shape the test-helpers document gives it (what every other test leans on). */
const ok = (a: Answer, what: string) => {
  assertThat(a, a.status === 200, what);
  const off = checkHelperAnswer(a, settings.target);
  assertThat(a, off.length === 0, `${what}: ${HELPER_ANSWER} (${off.join('; ')})`);
};

/** A user's balance: `given` less what its buy orders reserve ("as `POST /item/buyorder` does"). */
async function assertReserved(
  me: Parameters<typeof getAs>[0],
  given: number,
  orders: { price: number; amount: number }[],
) {
  const balance = await getAs(me, '/user/balance');
  assertValue(
    balance,
    content(balance)?.balance,
    given - orders.reduce((n, o) => n + o.price * o.amount, 0),
    `${me.apiKey}'s balance: the ${given} given, less what its orders reserve`,
  );
}

describe('the test-helper contract', () => {
  contract('POST /test_helpers/reset: every user is gone and the clock is back on real time', async () => {
    const user = await helpers.user();
    await helpers.advance(10 * 86_400);
    ok(await helper('POST', '/reset'), 'reset answers 200');
    const login = await call('POST', '/user/login', { json: { apiKey: user.apiKey } });
    assertThat(
      login,
      login.status >= 300 && login.message === 'Invalid API key',
      'an API key from before the reset is unknown',
    );
    const clock = await helper('GET', '/clock');
    const now = content(clock).now;
    assertThat(
      clock,
      Math.abs(now - Date.now() / 1000) < 120,
      'the clock is back on real time (within two minutes of this machine)',
    );
  });

  contract(
    'POST /test_helpers/reset: rate-limit counters, caches, the outbox and the catalogue are emptied too',
    async () => {
      // A login limit keyed on the IP (it outlives the users a reset removes): exhausted, then reset.
      const ip = '198.51.100.201';
      const [perIp] = [findOperation('POST', '/user/login')?.op['x-rate-limit'] ?? []]
        .flat()
        .filter((r: { scope: string }) => r.scope === 'ip');
      const attempts = Number(perIp?.limit ?? 20) + 1;
      let last: Answer | undefined;
      for (let i = 0; i < attempts; i++)
        last = await call('POST', '/user/login', { json: { apiKey: `not-a-key-${i}` }, ip });
      assertThat(last!, last!.status === 429, `the IP is limited after ${attempts} refused keys`);
      // A cache: single-item pricing of an item ID, computed then served cached.
      const item = await helpers.item({ id: 990_001, name: 'Reset Cached Key', game: 440 });
      const me = await session();
      await getAs(me, `/item/pricing/${item.id}`);
      const cached = await getAs(me, `/item/pricing/${item.id}`);
      assertThat(cached, content(cached).cached === true, 'the second pricing is served from the cache');
      // The outbox: an affiliate click is a message to the outside world.
      await call('POST', '/user/setAffiliates', { json: { code: 'reset-check' } });
      const sent = await helpers.outbox('affiliate');
      assertThat(await helper('GET', '/outbox'), sent.length > 0, 'the click is in the outbox');

      ok(await helper('POST', '/reset'), 'reset answers 200');
      const gone = await call('GET', `/item/details/${item.id}`);
      assertThat(gone, gone.status === 300 && gone.message === 'Item not found', 'the items are gone');
      const outbox = await helper('GET', '/outbox');
      assertThat(outbox, content(outbox).messages.length === 0, 'the outbox is empty');
      const wrong = await call('POST', '/user/login', { json: { apiKey: 'not-a-key-after-reset' }, ip });
      assertThat(
        wrong,
        wrong.status !== 429 && wrong.message === 'Invalid API key',
        'a wrong key from that IP is refused as unknown, not limited',
      );
      const fresh = await helpers.user();
      const login = await call('POST', '/user/login', { json: { apiKey: fresh.apiKey }, ip });
      assertThat(login, login.status === 200, 'the IP limited before the reset logs in: its counter is gone');
      await helpers.item({ id: 990_001, name: 'Reset Cached Key', game: 440 });
      const again = await session();
      const priced = await getAs(again, `/item/pricing/${item.id}`);
      assertThat(priced, content(priced).cached === false, 'the same item ID is priced anew: the cache is gone');
    },
  );

  contract('POST /test_helpers/items and /users: the given fields are what the public routes answer', async () => {
    // Each field a value no other field and no default has: a field stored under another's name,
    // or dropped for a default, reads differently.
    const given = {
      id: 990_101,
      name: 'Given Fields Hat',
      game: 440,
      effect: 'Burning Flames',
      quality: 'Unusual',
      type: 'Cosmetic',
      craftable: 0,
      url: 'given-fields-custom-slug',
      image: 'https://images.example.com/given-fields.png',
      rarity: 'legendary',
      color: '#8650AC',
      deal: 7,
    } as const;
    await helpers.item(given);
    const details = await call('GET', `/item/details/${given.id}`);
    const item = content(details)?.informations ?? {};
    const differing = Object.entries(given).filter(([k, v]) => item[k] !== v);
    assertThat(
      details,
      differing.length === 0,
      `every given field read back (differing: ${JSON.stringify(differing.map(([k]) => [k, item[k]]))})`,
    );
    pinsMeaning(
      'GET /item/details/{item} informations.id',
      'GET /item/details/{item} informations.name',
      'GET /item/details/{item} informations.game',
      'GET /item/details/{item} informations.effect',
      'GET /item/details/{item} informations.quality',
      'GET /item/details/{item} informations.type',
      'GET /item/details/{item} informations.craftable',
      'GET /item/details/{item} informations.url',
      'GET /item/details/{item} informations.image',
      'GET /item/details/{item} informations.rarity',
      'GET /item/details/{item} informations.color',
      'GET /item/details/{item} informations.deal',
    );
    const me = await session({
      name: 'Given Name',
      tradeUrl: 'https://platform.example.com/tradeoffer/new/?partner=1&token=Given1',
      twoFactor: true,
      // With an address: the reference server answers GET /cashout/methods 500 for a method
      // linked by the helper to a user without one (a link needs a payment e-mail).
      email: 'given-fields@example.com',
      paymentMethods: ['provider_b'],
    });
    const infos = await getAs(me, '/user/infos');
    const account = content(infos)?.informations ?? {};
    assertThat(
      infos,
      account.name === 'Given Name' &&
        account.tradeurl === 'https://platform.example.com/tradeoffer/new/?partner=1&token=Given1' &&
        String(account['2fa']) === 'true' &&
        account.platformId === me.platformId,
      `the given name, trade URL and 2FA are the account's (got ${JSON.stringify(account)})`,
    );
    const methods = await getAs(me, '/cashout/methods');
    assertThat(
      methods,
      JSON.stringify(content(methods)?.methods?.map((m: { method: string; email: string }) => [m.method, m.email])) ===
        '[["provider_b","given-fields@example.com"]]',
      'the given payment method is the one linked, to the given address',
    );
    pinsMeaning(
      'GET /user/infos informations.name',
      'GET /user/infos informations.tradeurl',
      'GET /user/infos informations.2fa',
      'GET /user/infos informations.platformId',
      'GET /cashout/methods methods[].method',
      'GET /cashout/methods methods[].email',
    );
  });

  contract(
    'POST /test_helpers/users: defaults (balance 0, not admin), a fresh 17-digit platformId, given values kept',
    async () => {
      const plain = await session();
      const other = await session();
      for (const id of [plain.platformId, other.platformId])
        assertThat(await getAs(plain, '/user/balance'), /^\d{17}$/.test(id), `platformId ${id} has 17 digits`);
      assertThat(
        await getAs(plain, '/user/balance'),
        plain.platformId !== other.platformId,
        'each user gets a fresh platformId',
      );
      const balance = await getAs(plain, '/user/balance');
      assertThat(balance, content(balance).balance === 0, 'balance defaults to 0');
      const notAdmin = await call('GET', '/admin/banList', {
        query: { platformId: plain.platformId },
        token: plain.token,
        ip: plain.ip,
      });
      assertThat(notAdmin, notAdmin.status === 403, 'admin defaults to false');
      const given = await session({ balance: 1234, admin: true, platformId: '76561190000012345' });
      assertThat(
        await getAs(given, '/user/balance'),
        given.platformId === '76561190000012345',
        'a given platformId is kept',
      );
      const rich = await getAs(given, '/user/balance');
      assertThat(rich, content(rich).balance === 1234, 'a given balance is kept');
      const admin = await getAs(given, '/admin/banList', { platformId: plain.platformId });
      assertThat(admin, admin.status === 200, 'admin: true opens the admin routes');
    },
  );

  contract(
    'POST /test_helpers/items: the slug is the name in lower case, other runs of characters one "-"',
    async () => {
      const answer = await helper('POST', '/items', { name: 'StatTrak™ AK-47 | Redline', game: 730 });
      ok(answer, 'the item is stored');
      assertThat(
        answer,
        content(answer).url === 'stattrak-ak-47-redline',
        'the slug of "StatTrak™ AK-47 | Redline" is stattrak-ak-47-redline',
      );
      assertThat(answer, Number.isInteger(content(answer).id), 'the stored item has its id');
    },
  );

  contract('POST /test_helpers/items: a field that is no Item field is accepted and reaches no item', async () => {
    // The test-helpers document (ItemRequest): "Fields that are not Item fields (`maxPrice` aside)
    // are accepted and dropped (they reach no item)".
    const answer = await helper('POST', '/items', { name: 'Undeclared Field Cap', game: 440, notAnItemField: 'kept?' });
    ok(answer, 'the item is stored');
    assertThat(answer, !('notAnItemField' in (content(answer) ?? {})), 'the stored item has no notAnItemField');
    const details = await call('GET', `/item/details/${content(answer).id}`);
    assertThat(
      details,
      details.status === 200 && !('notAnItemField' in (content(details)?.informations ?? {})),
      'GET /item/details shows no notAnItemField',
    );
  });

  contract(
    'POST /test_helpers/assets: state 0 by default in the inventory, state 1 listed at its price, the game of the item',
    async () => {
      const me = await session();
      const item = await helpers.item({ name: 'Contract Knife', game: 730 });
      const kept = await helper('POST', '/assets', { owner: me.platformId, itemId: item.id });
      ok(kept, 'the asset is stored');
      assertThat(
        kept,
        content(kept).state === 0 && content(kept).game === 730,
        "state defaults to 0 and game to the item's",
      );
      const inventory = await getAs(me, '/inventory/onInventory');
      assertThat(
        inventory,
        JSON.stringify(content(inventory).items).includes(String(content(kept).assetId)),
        'a state 0 asset is in the inventory',
      );
      const listed = await helper('POST', '/assets', { owner: me.platformId, itemId: item.id, state: 1, price: 777 });
      const listing = await call('GET', `/item/listing/${item.id}`);
      assertThat(
        listing,
        content(listing).some(
          (l: { assetId: string; price: number }) => l.assetId === content(listed).assetId && l.price === 777,
        ),
        'a state 1 asset is listed at its price',
      );
    },
  );

  contract(
    'POST /test_helpers/buyorders: reserves the balance as POST /item/buyorder does, and fails the same way',
    async () => {
      const item = await helpers.item({ name: 'Contract Order', game: 440 });
      const byRoute = await session({ balance: 1000 });
      const byHelper = await session({ balance: 1000 });
      await postAs(byRoute, '/item/buyorder', { itemid: item.id, value: 150, amount: 3 });
      ok(
        await helper('POST', '/buyorders', { owner: byHelper.platformId, itemId: item.id, price: 150, amount: 3 }),
        'the helper places the order',
      );
      const [route, help] = [await getAs(byRoute, '/user/balance'), await getAs(byHelper, '/user/balance')];
      assertThat(
        help,
        content(help).balance === content(route).balance,
        `the balance is the one the route leaves (${content(route).balance})`,
      );
      const orders = await getAs(byHelper, '/user/getBuyorder');
      assertThat(orders, content(orders).values.length === 1, "the order is in the owner's buy orders");
      const other = await helpers.item({ name: 'Contract Order 2', game: 440 });
      const refused = await helper('POST', '/buyorders', {
        owner: byHelper.platformId,
        itemId: other.id,
        price: 1000,
        amount: 1,
      });
      assertThat(
        refused,
        refused.status === 300 && refused.message === 'Not enough balance',
        'an order above the free balance fails as the route does',
      );
    },
  );

  contract(
    "POST /test_helpers/population: users with API keys pop-<n> and the balance, items of game 440 beside what exists, assets dealt round-robin and listedShare of each user's listed, buy orders dealt round-robin that reserve; a second call numbers on; above a limit, a 300",
    async () => {
      // From a reset, so an item made just before is the first of its kind: a population that
      // numbered its items apart from the other items would take its ID.
      await helpers.reset();
      const before = await helpers.item({ name: 'Before The Population', game: 730 });
      // Likewise a buy order made first: a population that numbered its orders apart would take its
      // ID and replace it.
      const bidder = await session({ balance: 1000 });
      await helpers.buyOrder({ owner: bidder.platformId, itemId: before.id, price: 70, amount: 1 });
      const body = { users: 3, items: 2, assets: 7, listedShare: 0.5, buyOrders: 2, balance: 5000 };
      const made = await helper('POST', '/population', body);
      ok(made, 'the population is added');
      const c: TestHelperComponents['schemas']['Population'] = content(made);
      assertValue(
        made,
        [c.users, c.items, c.assets, c.buyOrders],
        [3, 2, 7, 2],
        'the counts created (users, items, assets, buyOrders)',
      );
      // The first number is the target's (after a reset the contract does not say it is 0); the
      // others follow it.
      const n0 = Number(/^pop-(\d+)$/.exec(c.apiKeys[0] ?? '')?.[1] ?? Number.NaN);
      assertValue(
        made,
        c.apiKeys,
        [0, 1, 2].map((d) => `pop-${n0 + d}`),
        'three API keys pop-<n>, numbered on',
      );
      assertThat(
        made,
        new Set(c.platformIds).size === 3 && new Set(c.itemIds).size === 2 && !c.itemIds.includes(before.id),
        `three platform IDs and two new item IDs, not the ID of the item made before (${before.id})`,
      );
      const kept = await call('GET', `/item/details/${before.id}`);
      assertThat(
        kept,
        content(kept)?.informations?.name === 'Before The Population' && content(kept)?.informations?.game === 730,
        'the item made before is still there as it was: the population is added on top',
      );
      const bid = await getAs(bidder, '/user/getBuyorder');
      assertValue(
        bid,
        ((content(bid)?.values ?? []) as { itemid: number; price: number }[]).map((o) => [o.itemid, o.price]),
        [[before.id, 70]],
        "the buy order made before is still its owner's, as it was",
      );
      for (const id of c.itemIds) {
        const item = await call('GET', `/item/details/${id}`);
        assertThat(item, content(item)?.informations?.game === 440, `population item ${id} is of game 440`);
      }

      // Asset i: user i mod 3, item i mod 2. User 0 gets assets 0, 3, 6 (items 0, 1, 0), users 1 and 2
      // two each (items 1, 0 and 0, 1). Of 3 assets, "the first listedShare" (1.5) is 1 or 2: the
      // contract does not say how a share of a count is rounded, so both are accepted.
      const dealt = [
        [2, 1],
        [1, 1],
        [1, 1],
      ];
      // Order k: user k mod 3, so users 0 and 1 each hold one order and user 2 none.
      const ordersOf = [1, 1, 0];
      const DEBITS = new Set(['purchase', 'payment', 'cashout', 'fee']);
      const ip = '198.51.100.61';
      for (const [u, key] of c.apiKeys.entries()) {
        const me = { platformId: c.platformIds[u]!, apiKey: key, ip, token: await login(key, ip) };
        const infos = await getAs(me, '/user/infos');
        assertValue(infos, content(infos)?.informations?.platformId, me.platformId, `${key} is platformIds[${u}]`);
        const rows = async (path: string) => {
          const a = await getAs(me, path);
          return { a, rows: (content(a)?.items ?? []) as { item_id: number; count: number; price?: number | null }[] };
        };
        const [inventory, onSale] = [await rows('/inventory/onInventory'), await rows('/inventory/onSale')];
        const perItem = c.itemIds.map((id) =>
          [...inventory.rows, ...onSale.rows].filter((r) => r.item_id === id).reduce((n, r) => n + r.count, 0),
        );
        assertValue(onSale.a, perItem, dealt[u], `${key}'s assets of the two items (inventory and on sale)`);
        const held = dealt[u]!.reduce((n, k) => n + k, 0);
        const listed = onSale.rows.reduce((n, r) => n + r.count, 0);
        assertThat(
          onSale.a,
          [Math.floor(held * 0.5), Math.ceil(held * 0.5)].includes(listed) &&
            onSale.rows.every((r) => Number.isInteger(r.price) && r.price! >= 100 && r.price! <= 10_000),
          `${key}: half of its ${held} assets listed (${listed}), each at 100 to 10,000 cents`,
        );
        const orders = await getAs(me, '/user/getBuyorder');
        const values = (content(orders)?.values ?? []) as { itemid: number; price: number; amount: number }[];
        assertThat(
          orders,
          values.length === ordersOf[u] &&
            values.every((o) => o.amount === 1 && o.price >= 50 && o.price <= 99 && c.itemIds.includes(o.itemid)),
          `${key} holds ${ordersOf[u]} buy order(s) of amount 1 at 50 to 99 cents for a population item`,
        );
        await assertReserved(me, 5000, values);
        // As POST /item/buyorder records them: on the side of their type, each described.
        const ledger = await getAs(me, '/user/getBalanceHistory', { count: 100 });
        const entries = balancePage(content(ledger)).values as {
          type: string;
          amount: number;
          description?: unknown;
        }[];
        const off = entries.filter(
          (e) =>
            (DEBITS.has(e.type) ? e.amount > 0 : e.amount < 0) ||
            typeof e.description !== 'string' ||
            e.description.trim() === '',
        );
        assertThat(
          ledger,
          off.length === 0,
          `${key}'s ledger entries are each on their type's side and described (off: ${JSON.stringify(off)})`,
        );
      }

      // Two users with two orders each over two items: a user's second order names the other item
      // ("one per user and item"); 198 cents pays two orders at up to 99 each, so it is served.
      // Eight assets over two users and two items: each user four of one item, a quarter listed.
      const next = await helper('POST', '/population', {
        users: 2,
        items: 2,
        assets: 8,
        listedShare: 0.25,
        buyOrders: 4,
        balance: 198,
      });
      ok(next, 'a second population is added (198 cents pays two orders of at most 99)');
      const again: TestHelperComponents['schemas']['Population'] = content(next);
      assertValue(next, again.apiKeys, [`pop-${n0 + 3}`, `pop-${n0 + 4}`], 'the numbering goes on');
      for (const [u, key] of again.apiKeys.entries()) {
        const me = { platformId: again.platformIds[u]!, apiKey: key, ip, token: await login(key, ip) };
        const onSale = await getAs(me, '/inventory/onSale');
        const listed = ((content(onSale)?.items ?? []) as { count: number }[]).reduce((n, r) => n + r.count, 0);
        assertValue(onSale, listed, 1, `${key}: the first quarter of its 4 assets listed`);
        const orders = await getAs(me, '/user/getBuyorder');
        const values = (content(orders)?.values ?? []) as { itemid: number; price: number; amount: number }[];
        assertValue(
          orders,
          values.map((o) => o.itemid).sort((a, b) => a - b),
          [...again.itemIds].sort((a, b) => a - b),
          `${key}'s two orders: one for each item of the call`,
        );
        await assertReserved(me, 198, values);
      }
      // 101 users and 101 items: the answer names the first 100 of each; the default balance.
      const many = await helper('POST', '/population', { users: 101, items: 101, assets: 0 });
      ok(many, 'a population of 101 users and 101 items is added');
      const hundred: TestHelperComponents['schemas']['Population'] = content(many);
      assertValue(
        many,
        [
          hundred.users,
          hundred.items,
          hundred.apiKeys.length,
          hundred.platformIds.length,
          hundred.itemIds.length,
          hundred.apiKeys[0],
          hundred.apiKeys[99],
        ],
        [101, 101, 100, 100, 100, `pop-${n0 + 5}`, `pop-${n0 + 104}`],
        'users and items 101; the first 100 keys, platform IDs and item IDs, numbered on',
      );
      const later = { platformId: hundred.platformIds[0]!, apiKey: `pop-${n0 + 5}`, ip };
      const opening = await getAs({ ...later, token: await login(later.apiKey, ip) }, '/user/balance');
      assertValue(opening, content(opening)?.balance, 1_000_000, 'balance defaults to 1000000 cents');

      // Enough of each that a price rule spread over the call's numbers shows: one user holding 52
      // assets, all listed, and 51 buy orders, one for each of 51 items. Every listing is at 100 to
      // 10,000 cents and every order at 50 to 99, one per item.
      const wide = await helper('POST', '/population', {
        users: 1,
        items: 51,
        assets: 52,
        listedShare: 1,
        buyOrders: 51,
      });
      ok(wide, 'a population of 1 user, 51 items, 52 assets all listed and 51 buy orders is added');
      const w: TestHelperComponents['schemas']['Population'] = content(wide);
      const owner = { platformId: w.platformIds[0]!, apiKey: w.apiKeys[0]!, ip };
      const wideMe = { ...owner, token: await login(owner.apiKey, ip) };
      const wideSale = await getAs(wideMe, '/inventory/onSale');
      const saleRows = (content(wideSale)?.items ?? []) as { count: number; price?: number | null }[];
      const offPrice = saleRows.filter((r) => !Number.isInteger(r.price) || r.price! < 100 || r.price! > 10_000);
      assertThat(
        wideSale,
        saleRows.reduce((n, r) => n + r.count, 0) === 52 && offPrice.length === 0,
        `all 52 assets listed, each at 100 to 10,000 cents (off: ${JSON.stringify(offPrice)})`,
      );
      const wideOrders = await getAs(wideMe, '/user/getBuyorder', { count: 100 });
      const wideValues = (content(wideOrders)?.values ?? []) as { itemid: number; price: number; amount: number }[];
      const offOrder = wideValues.filter((o) => o.amount !== 1 || o.price < 50 || o.price > 99);
      assertThat(
        wideOrders,
        offOrder.length === 0 &&
          new Set(wideValues.map((o) => o.itemid)).size === 51 &&
          wideValues.every((o) => w.itemIds.includes(o.itemid)),
        `51 buy orders of amount 1 at 50 to 99 cents, one for each item of the call (off: ${JSON.stringify(offOrder)})`,
      );

      // Besides the limits, what the contract rules out: an order the balance cannot pay (each is
      // 50 to 99 cents, reserved as POST /item/buyorder does), assets dealt to no user or no item,
      // and a second order of a user for the same item ("one per user and item").
      const REFUSED: Record<string, string> = {
        balance: 'a buy order that a balance of 0 cannot pay',
        'balance 49': 'a buy order that a balance of 49 cents cannot pay (below the lowest order price)',
        'no users': 'an asset with no user to deal it to',
        'no items': 'an asset with no item to deal it to',
        orders: 'two buy orders for one user and one item',
      };
      // One above each limit only: a call AT a limit (100,000 items took 0.9 s of CPU on the
      // reference, 100,000 users 3.3 s) would cost a suite run kept under 20 s too much.
      for (const [field, over] of [
        ['users', { users: 100_001, items: 0, assets: 0 }],
        ['items', { users: 0, items: 100_001, assets: 0 }],
        ['assets', { users: 1, items: 1, assets: 5_000_001 }],
        ['balance', { users: 1, items: 1, assets: 0, buyOrders: 1, balance: 0 }],
        ['balance 49', { users: 1, items: 1, assets: 0, buyOrders: 1, balance: 49 }],
        ['no users', { users: 0, items: 1, assets: 1 }],
        ['no items', { users: 1, items: 0, assets: 1 }],
        ['orders', { users: 1, items: 1, assets: 0, buyOrders: 2 }],
      ] as const) {
        const refused = await helper('POST', '/population', over);
        const b = refused.body as { err?: unknown; success?: unknown; content?: unknown };
        assertThat(
          refused,
          refused.status === 300 && b.err === true && typeof b.content === 'string' && b.content.length > 0,
          `${REFUSED[field] ?? `${field} one above its limit`}: a 300 in envelope A with a message`,
        );
      }
    },
  );

  contract(
    'POST /test_helpers/population: users are added on top of what exists; a platform ID already taken is not given again',
    async () => {
      // A population's first user after a reset, then a reset and a user made with that platform
      // ID. A target whose numbering starts over after a reset would give it again: it must refuse
      // (a 300 with a message) or give the new user another ID, and the user made before keeps its
      // account. The contract does not say how population platform IDs are formed, so the ID is
      // learnt from the target rather than guessed.
      await helpers.reset();
      const first = await helper('POST', '/population', { users: 1, items: 0, assets: 0 });
      ok(first, 'a population of 1 user is added');
      const taken = (content(first) as TestHelperComponents['schemas']['Population']).platformIds[0]!;
      await helpers.reset();
      const holder = await session({ platformId: taken, balance: 1234 }, '198.51.100.62');
      const next = await helper('POST', '/population', { users: 1, items: 0, assets: 0 });
      const b = next.body as { err?: unknown; content?: unknown };
      const given = (b.content as { platformIds?: unknown[] } | undefined)?.platformIds?.[0];
      assertThat(
        next,
        next.status === 300
          ? b.err === true && typeof b.content === 'string' && b.content.length > 0
          : next.status === 200 && typeof given === 'string' && given !== taken,
        `with ${taken} taken by a user made before: a 300 with a message, or a new user with another platform ID (got ${JSON.stringify(given)})`,
      );
      const infos = await getAs(holder, '/user/infos');
      const balance = await getAs(holder, '/user/balance');
      assertValue(
        balance,
        [content(infos)?.informations?.platformId, content(balance)?.balance],
        [taken, 1234],
        'the user made before keeps its platform ID and balance',
      );
    },
  );

  contract('POST and GET /test_helpers/clock: advance and set move the clock, GET reads it', async () => {
    const start = await helpers.now();
    const advanced = await helper('POST', '/clock', { advance: 3600 });
    assertThat(
      advanced,
      Math.abs(content(advanced).now - (start + 3600)) <= 2,
      `advance 3600 answers about ${start + 3600}`,
    );
    const set = await helper('POST', '/clock', { set: start + 86_400 });
    assertThat(set, content(set).now === start + 86_400, 'set answers the time set');
    const read = await helper('GET', '/clock');
    assertThat(
      read,
      content(read).now - (start + 86_400) <= 2 && content(read).now >= start + 86_400,
      'GET reads the clock set',
    );
    const me = await session();
    assertThat(
      read,
      Math.abs(Number(jwtPayload(me.token).iat) - (start + 86_400)) <= 2,
      'a login reads the moved clock (iat)',
    );
  });

  contract('GET /test_helpers/outbox: oldest first, filtered by channel and to, with the code in data', async () => {
    const me = await session();
    const [first, second] = [`one-${me.platformId}@example.com`, `two-${me.platformId}@example.com`];
    await postAs(me, '/user/email/change/request', { email: first });
    await helpers.advance(301);
    await postAs(me, '/user/email/change/request', { email: second });
    const all = await helper('GET', '/outbox?channel=email');
    const mine = (content(all).messages as { to: string; channel: string }[]).filter((m) =>
      [first, second].includes(m.to),
    );
    assertThat(all, mine.map((m) => m.to).join() === [first, second].join(), 'the two e-mails come oldest first');
    assertThat(
      all,
      content(all).messages.every((m: { channel: string }) => m.channel === 'email'),
      'channel keeps that channel',
    );
    const to = await helper('GET', `/outbox?channel=email&to=${encodeURIComponent(second)}`);
    const only = content(to).messages as { to: string; data: { code?: unknown } }[];
    assertThat(to, only.length === 1 && only[0]!.to === second, 'to keeps that address');
    assertThat(to, typeof only[0]?.data?.code === 'string', 'data carries the verification code');
  });

  contract(
    'The platform helpers: an inventory set is offered for deposit, a withdrawal sends an offer that settles',
    async () => {
      const me = await session();
      const item = await helpers.item({ name: 'Contract Platform', game: 440 });
      const set = await helper('POST', '/platform/inventory', {
        platformId: me.platformId,
        game: 440,
        assets: [{ assetId: '9100000001', itemId: item.id }],
      });
      assertThat(set, set.status === 200 && content(set).count === 1, 'the inventory is set: count 1');
      const offered = await getAs(me, '/deposit/440');
      assertThat(offered, JSON.stringify(content(offered)).includes('9100000001'), 'GET /deposit/440 offers it');
      const asset = await helpers.asset({ owner: me.platformId, itemId: item.id });
      await postAs(me, '/inventory/withdraw', { ids: asset.assetId });
      const offers = await helper('GET', `/platform/offers?platformId=${me.platformId}`);
      const offer = (
        content(offers).offers as { tradeId: string; kind: string; assetIds: string[]; status: number }[]
      ).find((o) => o.kind === 'withdraw');
      assertThat(
        offers,
        offer?.status === 0 && offer.assetIds.map(String).includes(asset.assetId),
        'one pending withdraw offer holds the asset',
      );
      const settled = await helper('POST', `/platform/offers/${encodeURIComponent(offer!.tradeId)}`, {
        outcome: 'accept',
      });
      assertThat(
        settled,
        settled.status === 200 && content(settled).status === 3,
        'an accepted withdrawal settles with status 3',
      );
    },
  );

  contract(
    'POST /test_helpers/payments/{cashoutId}: processing then completed, as the cashout history shows',
    async () => {
      const me = await session({ balance: 10_000, paymentMethods: ['provider_b'] });
      const asked = await postAs(me, '/cashout/process', { amount: 5000, method: 'provider_b' });
      const id = content(asked).cashoutId;
      for (const outcome of ['processing', 'completed']) {
        ok(await helper('POST', `/payments/${id}`, { outcome }), `the provider reports ${outcome}`);
        const history = await getAs(me, '/user/getCashoutHistory');
        assertThat(history, content(history).cashouts[0]?.status === outcome, `the cashout is ${outcome}`);
      }
    },
  );

  contract(
    'POST /test_helpers/payments/{cashoutId} for a cashout that does not exist: a bad request (300, envelope A, a message), and the open cashout beside it unchanged',
    async () => {
      const me = await session({ balance: 10_000, paymentMethods: ['provider_a'] });
      const asked = await postAs(me, '/cashout/process', { amount: 5000, method: 'provider_a' });
      const id = content(asked).cashoutId as number;
      const unknown = await helper('POST', `/payments/${id + 100_000}`, { outcome: 'completed' });
      const body = unknown.body as { err?: unknown; success?: unknown; content?: unknown };
      assertThat(
        unknown,
        unknown.status === 300 &&
          body.err === true &&
          body.success === false &&
          typeof body.content === 'string' &&
          body.content.length > 0,
        'no such cashout: a 300 in envelope A with a message',
      );
      const history = await getAs(me, '/user/getCashoutHistory');
      assertThat(history, content(history).cashouts[0]?.status === 'pending', 'the real request is still pending');
    },
  );

  contract('POST /test_helpers/geoip: the login from that IP resolves to the country (JWT country claim)', async () => {
    ok(await helper('POST', '/geoip', { ip: '192.0.2.77', country: 'FR' }), 'the address is placed');
    const me = await session({}, '192.0.2.77');
    const claims = jwtPayload(me.token);
    assertThat(
      await getAs(me, '/user/balance'),
      claims.country === 'FR',
      `the JWT says FR (got ${String(claims.country)})`,
    );
  });

  contract(
    "POST /test_helpers/totp (our extension): the code of the secret at the test clock's time, which validate accepts",
    async () => {
      // A day ahead of real time: a code of the machine's time would be 2,880 steps off.
      const at = await clockADayAhead();
      const me = await session();
      const { base32, key } = content(await getAs(me, '/user/2FA/create'));
      const answer = await helper('POST', '/totp', { secret: base32 });
      ok(answer, 'the helper answers a code');
      const { code, now } = content(answer) as { code: string; now: number };
      assertThat(
        answer,
        now >= at && now - at < 30 && code === totp(base32, now),
        `the RFC 6238 code of the secret at the clock's time ${at}, and that time (suite's code ${totp(base32, at)})`,
      );
      const validated = await postAs(me, '/user/2FA/validate', { secret: key, code, email: 'totp@example.com' });
      assertThat(
        validated,
        validated.status === 200 && content(validated) === '2FA activated',
        'POST /user/2FA/validate accepts it',
      );
    },
  );

  contract('A bad request to a helper: HTTP 300, envelope A, a message string', async () => {
    const bad = await helper('POST', '/clock', { advance: 'soon' });
    const body = bad.body as { err?: unknown; success?: unknown; content?: unknown };
    assertThat(
      bad,
      bad.status === 300 && body.err === true && body.success === false && typeof body.content === 'string',
      'a 300 in envelope A with a message',
    );
  });
});
