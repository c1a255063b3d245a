// Deposits (seed: "Deposit and instant sell", "Messages by endpoint", "Other state sets"; the test
// helpers' "The outside world"): the platform inventory offered with deposit keys, the deposit
// trade and every seed message, its status, and what the platform's answer does to the assets.
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, imagedItem, sentOffer, session } from '../src/kit/helpers.ts';
import { assertConforms, assertThat, assertValue, call, pinsMeaning, setUpOk } from '../src/kit/http.ts';
import { assertBalance, sellerProceeds as proceeds, readBalance } from '../src/kit/money.ts';
import { skip } from '../src/kit/skip.ts';
import { getAs as get, postAs as post } from '../src/kit/user-calls.ts';

beforeAll(resetIfPossible);

type Me = Awaited<ReturnType<typeof session>>;

interface DepositRow {
  assetId: string;
  item_id: number;
  name: string;
  image: string;
  game: number;
  suggested_price: number | null;
  lowest_sale_price: number | null;
  lowest_buy_order: number | null;
  disabled?: boolean;
}

/** A user holding `assetIds` of a fresh item on the platform, with the deposit keys the service gave. */
async function holder(assetIds: string[], name: string) {
  const item = await imagedItem({ name, game: 440 });
  const me = await session();
  await helpers.platformInventory({
    platformId: me.platformId,
    game: 440,
    assets: assetIds.map((assetId) => ({ assetId, itemId: item.id })),
  });
  const list = await get(me, '/deposit/440');
  const keys = content(list).depositkey as Record<string, string>;
  return { me, item, keys, rows: content(list).informations as DepositRow[] };
}

/** A deposit key with one hexadecimal digit changed. */
const tampered = (key: string) => `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`;

describe('GET /deposit/{game}', () => {
  it('Given assets on the platform, lists them with a deposit key each and pricing hints from the market [R-DEPOSIT-GAME, R-DEPOSIT-KEY]', async (ctx) => {
    await needsHelpers(ctx);
    const item = await imagedItem({ name: 'Deposit Hint Hat', game: 440 });
    const seller = await helpers.user();
    const bidder = await helpers.user({ balance: 10_000 });
    const lowBidder = await helpers.user({ balance: 10_000 });
    await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 1, price: 900 });
    await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 1, price: 700 });
    // Two orders: the hint is the highest (400), not the lowest (300) nor the first.
    await helpers.buyOrder({ owner: lowBidder.platformId, itemId: item.id, price: 300, amount: 1 });
    await helpers.buyOrder({ owner: bidder.platformId, itemId: item.id, price: 400, amount: 2 });
    const me = await session();
    await helpers.platformInventory({
      platformId: me.platformId,
      game: 440,
      assets: [
        { assetId: '31000000001', itemId: item.id },
        { assetId: '31000000002', itemId: item.id },
      ],
    });
    const list = await get(me, '/deposit/440');
    assertThat(list, list.status === 200, 'the list succeeds');
    const rows = content(list).informations as DepositRow[];
    const keys = content(list).depositkey as Record<string, string>;
    assertThat(list, rows.map((r) => r.assetId).join() === '31000000001,31000000002', 'both platform assets');
    assertThat(list, Object.keys(keys).sort().join() === '31000000001,31000000002', 'a deposit key per asset');
    assertThat(list, keys['31000000001'] !== keys['31000000002'], 'the key depends on the asset ID');
    assertThat(
      list,
      rows.every((r) => r.item_id === item.id && r.lowest_sale_price === 700 && r.lowest_buy_order === 400),
      'the lowest listing (700) and the highest buy order (400) as hints',
    );
    assertThat(
      list,
      rows.every((r) => r.name === item.name && r.image === item.image && r.game === 440),
      "each row carries its item's name and image and the game asked for",
    );
    pinsMeaning(
      'GET /deposit/{game} informations',
      'GET /deposit/{game} informations[].assetId',
      'GET /deposit/{game} informations[].item_id',
      'GET /deposit/{game} informations[].name',
      'GET /deposit/{game} informations[].image',
      'GET /deposit/{game} informations[].game',
      'GET /deposit/{game} informations[].lowest_sale_price',
      'GET /deposit/{game} informations[].lowest_buy_order',
      'GET /deposit/{game} depositkey',
    );
    const other = await get(me, '/deposit/730');
    assertThat(other, (content(other).informations as unknown[]).length === 0, 'nothing of game 730 on the platform');
    const them = await session();
    await helpers.platformInventory({
      platformId: them.platformId,
      game: 440,
      assets: [{ assetId: '31000000001', itemId: item.id }],
    });
    const theirs = await get(them, '/deposit/440');
    assertThat(
      theirs,
      (content(theirs).depositkey as Record<string, string>)['31000000001'] !== keys['31000000001'],
      'the key depends on the user ID',
    );
  });

  it('Given a platform asset held back (tradable: false) beside a tradable one, each row says which and only the tradable one deposits; an item the marketplace holds none of is not high stock [R-DEPOSIT-GAME, R-MSG-DEPOSIT-KEY]', async (ctx) => {
    await needsHelpers(ctx);
    const item = await imagedItem({ name: 'Deposit Held Back Hat', game: 440 });
    const me = await session();
    await helpers.platformInventory({
      platformId: me.platformId,
      game: 440,
      assets: [
        { assetId: '31000000021', itemId: item.id, tradable: false },
        { assetId: '31000000022', itemId: item.id, tradable: true },
      ],
    });
    const list = await get(me, '/deposit/440');
    const rows = content(list).informations as (DepositRow & { tradable: boolean; highStock?: boolean })[];
    // DepositRow: "true when the marketplace already holds many assets of the item": how many is
    // many is open, but none is not many.
    assertThat(
      list,
      rows.length === 2 && rows.every((r) => r.highStock !== true),
      'no listing of the item: not high stock',
    );
    // shared/test-helpers.md promises the platform inventory's "...attributes" without naming
    // tradable: the admin's view of the platform says whether the helper kept it.
    const admin = await session({ admin: true });
    const platform = await get(admin, '/admin/getSteamInventory', { game: 440, platformId: me.platformId });
    const held = (content(platform)?.assets ?? []) as { assetId: string; tradable?: boolean }[];
    if (held.find((a) => a.assetId === '31000000021')?.tradable !== false)
      skip(
        ctx,
        'the platform inventory helper kept no `tradable: false` (GET /admin/getSteamInventory shows the asset tradable): shared/test-helpers.md promises "...attributes" without naming tradable',
      );
    const tradable = Object.fromEntries(rows.map((r) => [r.assetId, r.tradable]));
    assertValue(
      list,
      [tradable['31000000021'], tradable['31000000022']],
      [false, true],
      'tradable: false for the asset the platform holds back, true for the other ("true when the platform allows trading the asset now")',
    );
    // Both values, for one item and one user: a flag always true, or inverted, reads differently.
    pinsMeaning('GET /deposit/{game} informations[].tradable');
    // A deposit is a trade: the asset the platform holds back cannot be deposited now, the other
    // can (DepositRow.disabled, optional: "True when the asset cannot be deposited").
    const disabled = Object.fromEntries(rows.map((r) => [r.assetId, r.disabled]));
    assertThat(
      list,
      disabled['31000000021'] !== false && disabled['31000000022'] !== true,
      `the held-back asset not offered as depositable (disabled true or left out), the tradable one not disabled (got ${JSON.stringify(disabled)})`,
    );
    const keys = content(list).depositkey as Record<string, string>;
    const offer = (assetId: string) =>
      post(me, '/deposit/trade', { value: { [assetId]: 500 }, depositKeys: { [assetId]: keys[assetId] } });
    const heldBack = await offer('31000000021');
    assertThat(
      heldBack,
      heldBack.status === 300 && heldBack.message === 'failed to save deposit price',
      'the held-back asset cannot be deposited: failed to save deposit price',
    );
    const tradableOne = await offer('31000000022');
    assertThat(tradableOne, tradableOne.status === 200, 'the tradable one deposits');
  });

  it('Given a platform asset whose ID is not an asset ID of the document (more than 20 digits), it is not offered [R-DEPOSIT-GAME]', async (ctx) => {
    await needsHelpers(ctx);
    const item = await imagedItem({ name: 'Deposit Long ID Hat', game: 440 });
    const me = await session();
    const tooLong = '310000000420000000000'; // 21 digits: DepositRow.assetId is ^[0-9]{1,20}$
    const set = await call('POST', '/test_helpers/platform/inventory', {
      json: {
        platformId: me.platformId,
        game: 440,
        assets: [
          { assetId: '31000000041', itemId: item.id },
          { assetId: tooLong, itemId: item.id },
        ],
      },
    });
    // The helper contract types assetId as a string without a form: refusing it is a reading too.
    if (set.status !== 200)
      skip(ctx, `the platform inventory helper refuses the asset ID ${tooLong} (${set.status}): nothing to offer`);
    const list = await get(me, '/deposit/440');
    const rows = content(list).informations as DepositRow[];
    const keys = content(list).depositkey as Record<string, string>;
    assertValue(
      list,
      [rows.map((r) => r.assetId), Object.keys(keys)],
      [['31000000041'], ['31000000041']],
      'only the asset of an asset ID (DepositRow.assetId: ^[0-9]{1,20}$) is listed and keyed',
    );
  });

  it('Given a game the seed does not list, answers invalid game parameter [R-DEPOSIT-GAME, R-GAMES, R-MSG-DEPOSIT-MISSING]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const bad = await get(me, '/deposit/999');
    assertThat(bad, bad.status === 300 && bad.message === 'invalid game parameter', 'the seed message');
  });
});

describe('POST /deposit/trade', () => {
  it('Given the deposit keys of the list, creates a pending deposit trade and sends its offer; a tampered key is refused [R-DEPOSIT-KEY, R-MSG-DEPOSIT-KEY, R-STATE-DEPOSIT]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, keys, item } = await holder(['32000000001', '32000000002'], 'Deposit Key Hat');
    const refused = await post(me, '/deposit/trade', {
      value: { '32000000001': 500, '32000000002': 600 },
      depositKeys: { '32000000001': keys['32000000001'], '32000000002': tampered(keys['32000000002']!) },
    });
    assertThat(
      refused,
      refused.status === 300 && refused.message === 'invalid deposit key for assetId: 32000000002',
      'the mismatching key is named by its asset ID',
    );
    const missing = await post(me, '/deposit/trade', {
      value: { '32000000001': 500, '32000000002': 600 },
      depositKeys: { '32000000001': keys['32000000001'] },
    });
    assertThat(missing, missing.message === 'invalid deposit key for assetId: 32000000002', 'a missing key too');
    assertThat(refused, (await helpers.offers(me.platformId)).length === 0, 'a refused deposit sends no offer');
    const created = await helpers.pinClock();
    const made = await post(me, '/deposit/trade', {
      value: { '32000000001': 500, '32000000002': 600 },
      depositKeys: keys,
      game: 440,
    });
    assertThat(made, made.status === 200 && Number.isInteger(content(made).id), 'the deposit trade ID');
    const offers = await helpers.offers(me.platformId);
    assertThat(
      made,
      offers.length === 1 &&
        offers[0]!.kind === 'deposit' &&
        offers[0]!.status === 0 &&
        [...offers[0]!.assetIds].sort().join() === '32000000001,32000000002',
      'one pending deposit offer asks for both assets',
    );
    const status = await get(me, `/deposit/tradeStatus/${content(made).id}`);
    const s = content(status);
    assertThat(
      status,
      status.status === 200 &&
        s.status === 0 &&
        s.statusText === 'pending' &&
        s.trade.tradeId === offers[0]!.tradeId &&
        s.trade.assets.map((a: { price: number }) => a.price).join() === '500,600',
      'pending, with the offer and the prices given',
    );
    assertThat(
      status,
      s.id === content(made).id &&
        s.trade.assets
          .map((a: { assetId: string; item_id: number; price: number }) => `${a.assetId}:${a.item_id}:${a.price}`)
          .join() === `32000000001:${item.id}:500,32000000002:${item.id}:600` &&
        s.trade.created === String(created),
      `the deposit asked for, each asset with its item and its own price, created at ${created} (got ${JSON.stringify(s)})`,
    );
    // The offered assets are still on the platform but cannot be offered again (when the row says).
    const offered = content(await get(me, '/deposit/440')).informations as DepositRow[];
    assertThat(
      status,
      offered.every((r) => r.disabled === true || r.disabled === undefined),
      'assets in a pending deposit are not marked depositable (disabled true, or left out)',
    );
    // A deposit is resent as a deposit (a resend answering another kind reads differently).
    const [pending] = content(await get(me, '/trades/active')).trades as { id: number; kind: string }[];
    const resent = await get(me, '/trades/resend', { id: pending!.id });
    assertThat(
      resent,
      resent.status === 200 && content(resent).trade.kind === 'deposit' && content(resent).trade.id === pending!.id,
      `the pending deposit resent is a deposit (got ${JSON.stringify(content(resent))})`,
    );
    pinsMeaning('GET /trades/resend trade.kind', 'GET /deposit/{game} informations[].disabled');
    pinsMeaning(
      'POST /deposit/trade id',
      'GET /deposit/tradeStatus/{tradeid} id',
      'GET /deposit/tradeStatus/{tradeid} trade',
      'GET /deposit/tradeStatus/{tradeid} trade.tradeId',
      'GET /deposit/tradeStatus/{tradeid} trade.assets',
      'GET /deposit/tradeStatus/{tradeid} trade.assets[].assetId',
      'GET /deposit/tradeStatus/{tradeid} trade.assets[].item_id',
      'GET /deposit/tradeStatus/{tradeid} trade.assets[].price',
      'GET /deposit/tradeStatus/{tradeid} trade.created',
    );
  });

  it('Given value and depositKeys as JSON strings, creates the deposit as with objects, and their JSON gets the checks of the objects [R-DEPOSIT-TRADE, R-MSG-DEPOSIT-OBJECT]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, keys } = await holder(['33000000001', '33000000002'], 'Deposit String Hat');
    const one = { '33000000001': keys['33000000001'] };
    // DepositTradeRequest: "strings holding the JSON of those objects", so the JSON a string holds
    // is refused as the object would be (its x-error-messages): empty, a key that is no asset ID
    // (1 to 20 digits), a price above 5,000,000 cents, alone or beside a valid one.
    const cases: [unknown, string][] = [
      [{ value: '{}', depositKeys: one }, 'Invalid value parameter'],
      [{ value: JSON.stringify({ '33000000001': 250, x33: 250 }), depositKeys: one }, 'Invalid value parameter'],
      [{ value: JSON.stringify({ '33000000001': 5_000_001 }), depositKeys: one }, 'Invalid value parameter'],
      // Every price is checked, not one: a valid price beside one out of range is no excuse.
      [
        { value: JSON.stringify({ '33000000001': 250, '33000000002': 5_000_001 }), depositKeys: keys },
        'Invalid value parameter',
      ],
      [{ value: { '33000000001': 250 }, depositKeys: '{}' }, 'Invalid depositKeys parameter'],
      [
        { value: { '33000000001': 250 }, depositKeys: JSON.stringify({ ...one, x33: keys['33000000001'] }) },
        'Invalid depositKeys parameter',
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await post(me, '/deposit/trade', body);
      assertThat(answer, answer.status === 300 && answer.message === message, message);
    }
    const made = await post(me, '/deposit/trade', {
      value: JSON.stringify({ '33000000001': 250 }),
      depositKeys: JSON.stringify(one),
    });
    assertThat(made, made.status === 200 && Number.isInteger(content(made).id), 'JSON strings are accepted');
    // The top of the range: "a price in cents (1 to 5,000,000)".
    const top = await post(me, '/deposit/trade', {
      value: { '33000000002': 5_000_000 },
      depositKeys: { '33000000002': keys['33000000002'] },
    });
    assertThat(top, top.status === 200, 'a deposit price of 5,000,000 cents is accepted');
  });

  it('answers every seed message for missing, malformed and mismatching inputs [R-MSG-DEPOSIT-MISSING, R-MSG-DEPOSIT-JSON, R-MSG-DEPOSIT-OBJECT, R-MSG-DEPOSIT-KEY]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, keys } = await holder(['34000000001'], 'Deposit Message Hat');
    const value = { '34000000001': 100 };
    const cases: [unknown, string][] = [
      [{ depositKeys: keys }, 'missing value parameter'],
      [{ value }, 'missing depositKeys parameter'],
      [{ value, depositKeys: keys, game: 1 }, 'invalid game parameter'],
      [{ value: '{not json', depositKeys: keys }, 'invalid JSON format in value parameter'],
      [{ value, depositKeys: '{not json' }, 'invalid JSON format in depositKeys parameter'],
      [{ value: '[1,2]', depositKeys: keys }, 'value must be a JSON object with assetId - price mapping'],
      [{ value: '"text"', depositKeys: keys }, 'value must be a JSON object with assetId - price mapping'],
      [
        { value: { '34000000001': 100 }, depositKeys: { '34000000001': tampered(keys['34000000001']!) } },
        'invalid deposit key for assetId: 34000000001',
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await post(me, '/deposit/trade', body);
      assertThat(answer, answer.status === 300 && answer.message === message, message);
    }
  });

  it("Given an asset that is not on the caller's platform inventory (another user's, or one that left the platform), the deposit price cannot be stored [R-MSG-DEPOSIT-KEY]", async (ctx) => {
    await needsHelpers(ctx);
    const { me, item } = await holder(['35000000001', '35000000002'], 'Deposit Elsewhere Hat');
    const them = await session();
    await helpers.platformInventory({
      platformId: them.platformId,
      game: 440,
      assets: [{ assetId: '35000000009', itemId: item.id }],
    });
    const theirKeys = content(await get(them, '/deposit/440')).depositkey as Record<string, string>;
    const mine = content(await get(me, '/deposit/440')).depositkey as Record<string, string>;
    const stolen = await post(me, '/deposit/trade', { value: { '35000000009': 100 }, depositKeys: theirKeys });
    assertThat(
      stolen,
      stolen.message === 'invalid deposit key for assetId: 35000000009',
      "another user's key does not fit",
    );
    const made = await post(me, '/deposit/trade', { value: { '35000000001': 100 }, depositKeys: mine });
    assertThat(made, made.status === 200, 'my own asset deposits');
    const twice = await post(me, '/deposit/trade', { value: { '35000000001': 100 }, depositKeys: mine });
    assertThat(
      twice,
      twice.status === 300 && twice.message === 'failed to save deposit price',
      'an asset already offered in a pending deposit cannot be offered again',
    );
    // A key stays the digest of the same three values after its asset left the platform: it
    // matches, but there is no asset to deposit.
    await helpers.platformInventory({ platformId: me.platformId, game: 440, assets: [] });
    const gone = await post(me, '/deposit/trade', {
      value: { '35000000002': 100 },
      depositKeys: { '35000000002': mine['35000000002'] },
    });
    assertThat(
      gone,
      gone.status === 300 && gone.message === 'failed to save deposit price',
      'an asset that left the platform, offered with the key it had, cannot be deposited',
    );
  });

  it("Given a pending withdrawal, a platform asset whose ID is the withdrawn entry's own ID is another asset and deposits [R-DEPOSIT-GAME, R-DEPOSIT-TRADE]", async (ctx) => {
    await needsHelpers(ctx);
    const item = await imagedItem({ name: 'Deposit Two Spaces Hat', game: 440 });
    const me = await session();
    const entry = await helpers.asset({ owner: me.platformId, itemId: item.id });
    setUpOk(await post(me, '/inventory/withdraw', { ids: entry.assetId }));
    // The backpack entry's `id` and a platform asset ID are two spaces of IDs: a server that
    // counted the withdrawal's entry IDs as offered platform assets refuses an unrelated asset.
    const twin = String(entry.id);
    if (twin === entry.assetId || !/^[0-9]{1,20}$/.test(twin))
      skip(ctx, `the backpack entry's id (${twin}) is its asset ID or no asset ID: no other asset can carry it`);
    await helpers.platformInventory({
      platformId: me.platformId,
      game: 440,
      assets: [{ assetId: twin, itemId: item.id }],
    });
    const list = await get(me, '/deposit/440');
    const rows = content(list).informations as DepositRow[];
    assertThat(
      list,
      rows.length === 1 && rows[0]!.assetId === twin && rows[0]!.disabled !== true,
      `the platform asset ${twin} is offered and not disabled while entry ${entry.id} (asset ${entry.assetId}) is pending withdrawal`,
    );
    const keys = content(list).depositkey as Record<string, string>;
    const made = await post(me, '/deposit/trade', { value: { [twin]: 400 }, depositKeys: { [twin]: keys[twin] } });
    assertThat(made, made.status === 200, `the platform asset ${twin} deposits`);
  });
});

describe('Settling a deposit offer', () => {
  it('Given an accepted deposit, the assets are listed at the deposit prices and the status is 3 [R-STATE-DEPOSIT]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, keys, item } = await holder(['36000000001', '36000000002'], 'Deposit Accept Hat');
    const created = await helpers.pinClock();
    const made = await post(me, '/deposit/trade', {
      value: { '36000000001': 1500, '36000000002': 1700 },
      depositKeys: keys,
    });
    const [offer] = await helpers.offers(me.platformId);
    await helpers.advance(120);
    const updated = await helpers.pinClock();
    const settled = await helpers.settleOffer(offer!.tradeId, 'accept');
    assertThat(made, settled.status === 3, 'the offer is accepted');
    const status = await get(me, `/deposit/tradeStatus/${content(made).id}`);
    assertThat(status, content(status).status === 3 && content(status).statusText === 'completed', 'completed');
    assertThat(
      status,
      content(status).trade?.created === String(created) && content(status).trade?.updated === String(updated),
      `created when offered (${created}), updated when accepted two minutes later (${updated})`,
    );
    pinsMeaning('GET /deposit/tradeStatus/{tradeid} trade.updated');
    const listing = await call('GET', `/item/listing/${item.id}`);
    assertConforms(listing);
    const listed = (listing.body as { content?: unknown }).content ?? listing.body;
    const rows = (Array.isArray(listed) ? listed : []) as { assetId: string; price: number; state: number }[];
    assertThat(
      listing,
      rows.map((r) => `${r.assetId}:${r.price}:${r.state}`).join() === '36000000001:1500:1,36000000002:1700:1',
      'both assets listed (state 1) at their deposit prices, cheapest first',
    );
    const after = await get(me, '/deposit/440');
    assertThat(
      after,
      (content(after).informations as unknown[]).length === 0,
      'the assets left the platform inventory',
    );
    const again = await call('POST', `/test_helpers/platform/offers/${offer!.tradeId}`, {
      json: { outcome: 'accept' },
    });
    assertThat(again, again.status === 300, 'a settled offer cannot be settled again');
    // The trade lists tell the kinds apart: a withdrawal of one deposited asset and a second
    // deposit, both pending, beside the completed deposit.
    await helpers.advance(10);
    setUpOk(await post(me, '/inventory/withdraw', { ids: '36000000001' }));
    await helpers.advance(10);
    await helpers.platformInventory({
      platformId: me.platformId,
      game: 440,
      assets: [{ assetId: '36000000003', itemId: item.id }],
    });
    const fresh = content(await get(me, '/deposit/440')).depositkey as Record<string, string>;
    setUpOk(await post(me, '/deposit/trade', { value: { '36000000003': 900 }, depositKeys: fresh }));
    const kinds = async (path: string) => {
      const answer = await get(me, path);
      return { answer, kinds: (content(answer).trades as { kind: string }[]).map((t) => t.kind).join() };
    };
    const all = await kinds('/trades/all');
    assertThat(
      all.answer,
      all.kinds === 'deposit,withdraw,deposit',
      `newest first: deposit, withdraw, deposit (got ${all.kinds})`,
    );
    const active = await kinds('/trades/active');
    assertThat(
      active.answer,
      active.kinds === 'deposit,withdraw',
      `the pending two: deposit, withdraw (got ${active.kinds})`,
    );
    pinsMeaning('GET /trades/all trades[].kind', 'GET /trades/active trades[].kind');
  });

  it('Given an accepted deposit of an asset with attributes on the platform, its listing carries them [R-STATE-DEPOSIT]', async (ctx) => {
    await needsHelpers(ctx);
    const item = await imagedItem({ name: 'Deposit Sheen Hat', game: 440 });
    const me = await session();
    const given = { assetId: '36200000001', itemId: item.id, sheen: 'Team Shine', killstreaker: 'Fire Horns' };
    await helpers.platformInventory({ platformId: me.platformId, game: 440, assets: [given] });
    // shared/test-helpers.md promises the platform inventory's "...attributes" without naming
    // them: the admin's view of the platform says whether the helper kept these two.
    const admin = await session({ admin: true });
    const platform = await get(admin, '/admin/getSteamInventory', { game: 440, platformId: me.platformId });
    const held = (
      (content(platform)?.assets ?? []) as { assetId: string; sheen?: string; killstreaker?: string }[]
    ).find((a) => a.assetId === given.assetId);
    if (held?.sheen !== given.sheen || held?.killstreaker !== given.killstreaker)
      skip(
        ctx,
        'the platform inventory helper kept no sheen and killstreaker (GET /admin/getSteamInventory): shared/test-helpers.md promises "...attributes" without naming them',
      );
    const keys = content(await get(me, '/deposit/440')).depositkey as Record<string, string>;
    const trade = await post(me, '/deposit/trade', { value: { [given.assetId]: 1500 }, depositKeys: keys });
    const offer = await sentOffer(trade, me.platformId);
    await helpers.settleOffer(offer.tradeId, 'accept');
    const listing = await call('GET', `/item/listing/${item.id}`);
    const listed = (listing.body as { content?: unknown }).content ?? listing.body;
    const rows = (Array.isArray(listed) ? listed : []) as { assetId: string; sheen?: string; killstreaker?: string }[];
    // The listed asset is the one deposited: its sheen and killstreaker are what it had on the platform.
    assertValue(
      listing,
      rows.map((r) => [r.assetId, r.sheen, r.killstreaker]),
      [[given.assetId, given.sheen, given.killstreaker]],
      'the deposited asset listed with the sheen and killstreaker it had on the platform',
    );
  });

  it('Given a buy order at or above the deposit price, the accepted asset sells at once at the deposit price; the other is listed [R-TRANS-ITEM-SELL, R-TRANS-BUYORDER-FILL]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, keys, item } = await holder(['36100000001', '36100000002'], 'Deposit Match Hat');
    const buyer = await session({ balance: 10_000 });
    await helpers.buyOrder({ owner: buyer.platformId, itemId: item.id, price: 1600, amount: 1 });
    const before = (await readBalance(me)).cents;
    const trade = await post(me, '/deposit/trade', {
      value: { '36100000001': 1500, '36100000002': 1700 },
      depositKeys: keys,
    });
    const offer = await sentOffer(trade, me.platformId);
    await helpers.settleOffer(offer.tradeId, 'accept');
    await assertBalance(
      me,
      before + proceeds(1500),
      'the 1500 asset sold into the 1600 order at 1500: the seller gets floor(1500 x 95 / 100)',
      before,
    );
    const listing = await get(me, `/item/listing/${item.id}`);
    const rows = ((listing.body as { content?: unknown }).content ?? []) as { assetId: string; price: number }[];
    assertThat(
      listing,
      rows.map((r) => `${r.assetId}:${r.price}`).join() === '36100000002:1700',
      'only the 1700 asset, above the order, is listed',
    );
    const order = await get(buyer, `/user/buyorder/${item.id}`);
    assertThat(order, order.status === 300 || content(order).informations.amount === 0, 'the order is filled');
  });

  it('Given a declined or failed deposit, the status is -1 and the assets stay on the platform [R-STATE-DEPOSIT]', async (ctx) => {
    await needsHelpers(ctx);
    for (const outcome of ['decline', 'fail'] as const) {
      const { me, keys } = await holder(['37000000001'], `Deposit ${outcome} Hat`);
      const made = await post(me, '/deposit/trade', { value: { '37000000001': 300 }, depositKeys: keys });
      const [offer] = await helpers.offers(me.platformId);
      const settled = await helpers.settleOffer(offer!.tradeId, outcome);
      assertThat(made, settled.status === -1, `the offer is ${outcome}d`);
      const status = await get(me, `/deposit/tradeStatus/${content(made).id}`);
      assertThat(status, content(status).status === -1 && content(status).statusText === 'failed', 'failed');
      // A trade the platform ended is settled: -1, never the 0 of a pending one.
      pinsMeaning('GET /deposit/tradeStatus/{tradeid} status', 'GET /deposit/tradeStatus/{tradeid} statusText');
      const still = await get(me, '/deposit/440');
      const rows = content(still).informations as DepositRow[];
      assertThat(
        still,
        rows.length === 1 && rows[0]!.disabled === false,
        'the asset is on the platform and can be offered again',
      );
      const retry = await post(me, '/deposit/trade', { value: { '37000000001': 300 }, depositKeys: keys });
      assertThat(retry, retry.status === 200, 'a new deposit of it is accepted');
    }
  });
});

describe('GET /deposit/tradeStatus/{tradeid}', () => {
  it('answers the response types error, notFound and forbidden [R-MSG-DEPOSIT-STATUS, R-STATE-DEPOSIT]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, keys } = await holder(['38000000001'], 'Deposit Status Hat');
    const made = await post(me, '/deposit/trade', { value: { '38000000001': 300 }, depositKeys: keys });
    const id = content(made).id as number;
    const them = await session();
    const cases: [Me, string, string, string][] = [
      [me, '0', 'error', 'Invalid trade ID'],
      [me, 'abc', 'error', 'Invalid trade ID'],
      [me, String(id + 1000), 'notFound', 'Deposit trade not found'],
      [them, String(id), 'forbidden', 'Deposit trade belongs to another user'],
    ];
    for (const [who, tradeid, type, message] of cases) {
      const answer = await get(who, `/deposit/tradeStatus/${tradeid}`);
      const c = content(answer);
      assertThat(answer, answer.status === 300 && c.type === type && c.message === message, `${type}: ${message}`);
    }
  });
});
