// Matching (seed: "States and transitions", "Limits": 5 percent seller fee; the document,
// POST /inventory/price "Matching"): an asset priced at or below the highest buy order sells at
// once. Every amount below is computed from the prices the test chose: the buyer pays the asset's
// price out of the order's reservation and gets the rest of the unit back, the seller receives
// floor(price x 95 / 100).
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { assertThat, setUpOk } from '../src/kit/http.ts';
import { assertKindSent, mailsOfEvent, party } from '../src/kit/mail.ts';
import { assertBalance, priceWhereFloorMatters, sellerProceeds as proceeds, readBalance } from '../src/kit/money.ts';
import { sides } from '../src/kit/rule.ts';
import { getAs, postAs } from '../src/kit/user-calls.ts';
import { variantOf } from '../src/kit/variants.ts';

beforeAll(resetIfPossible);

type Me = Awaited<ReturnType<typeof session>>;
const balanceOf = async (me: Me) => (await readBalance(me)).cents;
const ordersOf = async (me: Me) =>
  (content(await getAs(me, '/user/getBuyorder')) as { values: { itemid: number; amount: number }[] }).values;
/** A price whose 95 % has a fraction above one half: floor, round and ceil of it tell the fee's rounding apart. */
const PRICE = priceWhereFloorMatters(1337);

describe('an asset priced at or below a buy order sells at once', () => {
  it(`Given an order at 1999 x 2, pricing an asset at ${PRICE} (95 % = ${(PRICE * 95) / 100}) sells it: 95 % rounded down to the seller, the unit difference back to the buyer [R-TRANS-ITEM-SELL, R-LIMIT-SELLER-FEE, R-TRANS-BUYORDER-FILL, R-MONEY-CENTS]`, async (ctx) => {
    await needsHelpers(ctx);
    const buyer = await session({ balance: 10_000, email: 'match-buyer@example.com' });
    const seller = await session({ balance: 0, email: 'match-seller@example.com' });
    const item = await helpers.item({ name: 'Matched Key', game: 440 });
    setUpOk(await postAs(buyer, '/item/buyorder', { itemid: item.id, value: 1999, amount: 2 }));
    const asset = await helpers.asset({ owner: seller.platformId, itemId: item.id });
    const priced = await postAs(seller, '/inventory/price', { ids: asset.assetId, price: PRICE });
    assertThat(priced, priced.status === 200, 'the price is accepted');
    await assertBalance(
      seller,
      proceeds(PRICE),
      `the seller has floor(${PRICE} x 0.95) = ${proceeds(PRICE)} cents (not round() ${Math.round((PRICE * 95) / 100)})`,
      0,
    );
    // 10,000 - 2 x 1999 reserved; one unit released (1999) and the price paid.
    await assertBalance(
      buyer,
      10_000 - 2 * 1999 + (1999 - PRICE),
      `the buyer paid ${PRICE} and got the rest of the unit back`,
      10_000 - 2 * 1999,
    );
    const orders = await ordersOf(buyer);
    assertThat(priced, orders.length === 1 && orders[0]?.amount === 1, 'the order amount dropped from 2 to 1');
    const inventory = content(await getAs(buyer, '/inventory/onInventory')) as { items: { ids: string }[] };
    assertThat(
      priced,
      inventory.items.some((r) => r.ids.split(',').includes(asset.assetId)),
      'the asset is in the buyer inventory',
    );
    const onSale = content(await getAs(seller, '/inventory/onSale')) as { count: number };
    assertThat(priced, onSale.count === 0, 'nothing of the seller stays on sale');
  });

  it(
    'Given orders at 500 (older), 500 (newer), 700 (my own) and 400, my asset at 450 fills the older 500 [R-TRANS-BUYORDER-FILL]',
    sides(['tie-break'], 'R-TRANS-BUYORDER-FILL'),
    async (ctx) => {
      await needsHelpers(ctx);
      const item = await helpers.item({ name: 'Ordered Crate', game: 440 });
      const older = await session({ balance: 5_000 });
      const newer = await session({ balance: 5_000 });
      const low = await session({ balance: 5_000 });
      const me = await session({ balance: 5_000 });
      setUpOk(await postAs(older, '/item/buyorder', { itemid: item.id, value: 500, amount: 1 }));
      await helpers.advance(5);
      setUpOk(await postAs(newer, '/item/buyorder', { itemid: item.id, value: 500, amount: 1 }));
      setUpOk(await postAs(low, '/item/buyorder', { itemid: item.id, value: 400, amount: 1 }));
      setUpOk(await postAs(me, '/item/buyorder', { itemid: item.id, value: 700, amount: 1 }));
      const first = await helpers.asset({ owner: me.platformId, itemId: item.id });
      const sold = await postAs(me, '/inventory/price', { ids: first.assetId, price: 450 });
      assertThat(
        sold,
        (await ordersOf(older)).length === 0,
        'the older 500 order is filled (amount 0 rows are not listed)',
      );
      assertThat(sold, (await ordersOf(newer))[0]?.amount === 1, 'the newer 500 order is untouched');
      assertThat(sold, (await ordersOf(me))[0]?.amount === 1, 'my own 700 order is skipped');
      await assertBalance(
        me,
        5_000 - 700 + proceeds(450),
        'I received 95 % of 450, my reservation of 700 stays',
        5_000 - 700,
      );
      const second = await helpers.asset({ owner: me.platformId, itemId: item.id });
      setUpOk(await postAs(me, '/inventory/price', { ids: second.assetId, price: 450 }));
      assertThat(sold, (await ordersOf(newer)).length === 0, 'the next asset fills the newer 500 order');
      const third = await helpers.asset({ owner: me.platformId, itemId: item.id });
      const listed = await postAs(me, '/inventory/price', { ids: third.assetId, price: 450 });
      assertThat(listed, (await ordersOf(low))[0]?.amount === 1, 'a 400 order does not buy at 450');
      const onSale = content(await getAs(me, '/inventory/onSale')) as { items: { ids: string; price: number }[] };
      assertThat(
        listed,
        onSale.items.some((r) => r.ids === third.assetId && r.price === 450),
        'the third asset is listed at 450',
      );
    },
  );

  it('Given a filled order, its owner has a notification and the e-mails of the buyer (buyOrderFilled) and of the seller (itemSold) are sent and fewer with each kind switched off [R-EVENT-BUYORDER-FILLED, R-EVENT-MAIL-KINDS, R-TRANS-BUYORDER-FILL]', async (ctx) => {
    await needsHelpers(ctx);
    const buyer = await party('filled@example.com', 2_000);
    const seller = await party('sold@example.com');
    // Two fills (of two items: one order per item and user), the first with every kind on, the
    // second with each party's kind off: the e-mails are told by their switches, since the outbox's
    // kind strings are the target's own; more than one e-mail a party is no fault (kit/mail.ts).
    const fills = [];
    for (const [quiet, name] of [
      [false, 'Notified Hat'],
      [true, 'Silent Cap'],
    ] as const) {
      const item = await helpers.item({ name, game: 440 });
      setUpOk(await postAs(buyer, '/item/buyorder', { itemid: item.id, value: 800, amount: 1 }));
      const asset = await helpers.asset({ owner: seller.platformId, itemId: item.id });
      fills.push(
        await mailsOfEvent(
          [
            [buyer, { off: quiet ? 'buyOrderFilled' : undefined }],
            [seller, { off: quiet ? 'itemSold' : undefined }],
          ],
          () => postAs(seller, '/inventory/price', { ids: asset.assetId, price: 800 }),
        ),
      );
    }
    const [on, off] = fills as [(typeof fills)[0], (typeof fills)[0]];
    const what = 'a listing that fills the order';
    assertKindSent(off.answer, `${what}, to the order owner`, 'buyOrderFilled', on.sent[0]!, off.sent[0]!);
    assertKindSent(off.answer, `${what}, to the seller`, 'itemSold', on.sent[1]!, off.sent[1]!);
    const notes = await getAs(buyer, '/user/notifications');
    // Seed variant 2 has counts only: no entry to name the item.
    if (variantOf(notes) === 'first')
      assertThat(
        notes,
        notes.status === 200 && JSON.stringify(content(notes)).includes('Notified Hat'),
        'the buyer notification names the item',
      );
  });
});

describe('a listed asset priced again', () => {
  it('Given my asset listed at 900 and an order of another user at 600, pricing it at 800 relists it, and at 599 sells it at 599 [R-TRANS-ITEM-LIST, R-TRANS-ITEM-SELL]', async (ctx) => {
    await needsHelpers(ctx);
    const item = await helpers.item({ name: 'Repriced Scarf', game: 440 });
    const buyer = await session({ balance: 3_000 });
    const me = await session({ balance: 0 });
    const asset = await helpers.asset({ owner: me.platformId, itemId: item.id });
    setUpOk(await postAs(me, '/inventory/price', { ids: asset.assetId, price: 900 }));
    setUpOk(await postAs(buyer, '/item/buyorder', { itemid: item.id, value: 600, amount: 1 }));
    const relisted = await postAs(me, '/inventory/price', { ids: asset.assetId, price: 800 });
    const onSale = content(await getAs(me, '/inventory/onSale')) as { items: { ids: string; price: number }[] };
    assertThat(
      relisted,
      relisted.status === 200 && onSale.items.some((r) => r.ids === asset.assetId && r.price === 800),
      'the listed asset now shows 800 (an order placed below it bought nothing)',
    );
    const sold = await postAs(me, '/inventory/price', { ids: asset.assetId, price: 599 });
    assertThat(sold, sold.status === 200, 'the new price is accepted');
    await assertBalance(me, proceeds(599), `I received floor(599 x 0.95) = ${proceeds(599)}`, 0);
    await assertBalance(buyer, 3_000 - 599, 'the buyer paid 599, the last cent of the unit came back', 3_000 - 600);
    assertThat(sold, (await ordersOf(buyer)).length === 0, 'the order is filled');
  });
});

describe('races: concurrent requests never sell twice', () => {
  it('Given one order of amount 1 and ten sellers pricing into it at once, exactly one sale happens and no balance goes negative [R-TRANS-BUYORDER-FILL, R-MONEY-CENTS]', async (ctx) => {
    await needsHelpers(ctx);
    const item = await helpers.item({ name: 'Contested Key', game: 440 });
    const buyer = await session({ balance: 1_000 });
    setUpOk(await postAs(buyer, '/item/buyorder', { itemid: item.id, value: 1_000, amount: 1 }));
    const sellers = await Promise.all(Array.from({ length: 10 }, () => session({ balance: 0 })));
    const assets = await Promise.all(sellers.map((s) => helpers.asset({ owner: s.platformId, itemId: item.id })));
    const answers = await Promise.all(
      sellers.map((s, i) => postAs(s, '/inventory/price', { ids: assets[i]!.assetId, price: 900 })),
    );
    assertThat(
      answers[0]!,
      answers.every((a) => a.status === 200),
      'every price request is accepted',
    );
    const balances = await Promise.all(sellers.map(balanceOf));
    const paid = balances.filter((b) => b > 0);
    assertThat(answers[0]!, paid.length === 1 && paid[0] === proceeds(900), 'exactly one seller was paid, once');
    assertThat(
      answers[0]!,
      balances.every((b) => b >= 0),
      'no balance is negative',
    );
    await assertBalance(buyer, 1_000 - 900, 'the buyer paid once: 100 of the 1000 reserved came back', 0);
    const listings = content(await getAs(buyer, `/item/listing/${item.id}`)) as unknown[];
    assertThat(answers[0]!, listings.length === 9, 'the nine other assets are listed');
  });
});
