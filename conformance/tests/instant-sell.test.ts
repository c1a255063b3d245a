// Instant sell (seed: "Deposit and instant sell": game 440 only, built from deposit lists and buy
// order tiers, the deposit's inputs plus a payout method, 2FA filter satisfied by an API JWT; the
// document's GET /instantsell/{game} and POST /instantsell/trade): what can be sold at which
// price, every message, and what an accepted trade does (the seller gets floor(price x 95 / 100),
// the asset goes to the best buy order's owner).
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, imagedItem, sentOffer, session } from '../src/kit/helpers.ts';
import { assertAnswer, assertThat, pinsMeaning } from '../src/kit/http.ts';
import { assertBalance, sellerProceeds as proceeds, readBalance } from '../src/kit/money.ts';
import { getAs as get, postAs as post } from '../src/kit/user-calls.ts';

beforeAll(resetIfPossible);

interface Row {
  assetId: string;
  item_id: number;
  name: string;
  image: string;
  instantPrice: number;
  buyOrderCount: number;
}

/**
 * A seller holding one asset of a bid item and one of an item nobody bids on, and two buyers:
 * 3 wanted at 900 (by two orders: 1 + 2, so a count of orders reads 2, not 3) and 3 at 700. The
 * seller's own 5000 bid does not count.
 */
async function market(tag: string) {
  const bid = await imagedItem({ name: `Instant Bid ${tag}`, game: 440 });
  const lonely = await helpers.item({ name: `Instant Lonely ${tag}`, game: 440 });
  const me = await session({ balance: 100_000 });
  const first = await session({ balance: 10_000 });
  const second = await helpers.user({ balance: 10_000 });
  await helpers.buyOrder({ owner: first.platformId, itemId: bid.id, price: 900, amount: 1 });
  await helpers.buyOrder({ owner: second.platformId, itemId: bid.id, price: 900, amount: 2 });
  const third = await helpers.user({ balance: 10_000 });
  await helpers.buyOrder({ owner: third.platformId, itemId: bid.id, price: 700, amount: 3 });
  await helpers.buyOrder({ owner: me.platformId, itemId: lonely.id, price: 5000, amount: 1 });
  const ids = { bid: `41${tag.padStart(9, '0')}1`, lonely: `41${tag.padStart(9, '0')}2` };
  await helpers.platformInventory({
    platformId: me.platformId,
    game: 440,
    assets: [
      { assetId: ids.bid, itemId: bid.id },
      { assetId: ids.lonely, itemId: lonely.id },
    ],
  });
  return { me, first, bid, lonely, ids };
}

/** The deposit keys `GET /instantsell/440` gives the user (a 404 skips the test: call() in src/kit/http.ts). */
async function instantKeys(me: Awaited<ReturnType<typeof session>>): Promise<Record<string, string>> {
  const info = await get(me, '/instantsell/440');
  return content(info).informations.depositkey as Record<string, string>;
}

describe('GET /instantsell/{game}', () => {
  it("Given bids of other users, lists the asset at the highest bid with the quantity wanted at it; the caller's own bid does not count [R-INSTANT-SELL]", async (ctx) => {
    await needsHelpers(ctx);
    const { me, bid, ids } = await market('1');
    pinsMeaning(
      'GET /instantsell/{game} informations.rows[].buyOrderCount',
      'GET /instantsell/{game} informations.rows[].instantPrice',
      'GET /instantsell/{game} informations.rows',
    );
    const info = await get(me, '/instantsell/440');
    const { rows, depositkey } = content(info).informations as { rows: Row[]; depositkey: Record<string, string> };
    assertThat(
      info,
      rows.length === 1 &&
        rows[0]!.assetId === ids.bid &&
        rows[0]!.item_id === bid.id &&
        rows[0]!.instantPrice === 900 &&
        rows[0]!.buyOrderCount === 3,
      'one row: the bid item at 900, 3 units wanted by 2 orders (tier 0)',
    );
    assertThat(info, Object.keys(depositkey).join() === ids.bid, 'its deposit key');
    // The deposit key of the asset (the same digest as the deposit list's), the item's name and image.
    const deposit = content(await get(me, '/deposit/440')).depositkey as Record<string, string>;
    assertThat(
      info,
      depositkey[ids.bid] === deposit[ids.bid] && rows[0]!.name === bid.name && rows[0]!.image === bid.image,
      `the asset's deposit key as GET /deposit/440 gives it, its item's name and image (got ${JSON.stringify(rows[0])})`,
    );
    pinsMeaning(
      'GET /instantsell/{game} informations',
      'GET /instantsell/{game} informations.depositkey',
      'GET /instantsell/{game} informations.rows[].assetId',
      'GET /instantsell/{game} informations.rows[].item_id',
      'GET /instantsell/{game} informations.rows[].name',
      'GET /instantsell/{game} informations.rows[].image',
    );
  });

  it('Given a game other than 440, answers instant sell is not supported for this game [R-INSTANT-SELL]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const answer = await get(me, '/instantsell/730');
    assertAnswer(answer, { status: 300, message: 'instant sell is not supported for this game' }, 'the seed message');
  });
});

describe('POST /instantsell/trade', () => {
  it('answers every message: missing, malformed, tampered key, other game, a price above the best bid [R-INSTANT-SELL]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, ids } = await market('2');
    const keys = await instantKeys(me);
    const key = keys[ids.bid]!;
    const prices = { [ids.bid]: 900 };
    const cases: [unknown, string][] = [
      [{ depositKeys: keys }, 'missing prices parameter'],
      [{ prices }, 'missing depositKeys parameter'],
      [{ prices, depositKeys: keys, game: 7 }, 'invalid game parameter'],
      [{ prices, depositKeys: keys, game: 730 }, 'instant sell is not supported for this game'],
      [{ prices, depositKeys: keys, method: 'cash' }, 'invalid method parameter'],
      [{ prices: '{x', depositKeys: keys }, 'invalid JSON format in prices parameter'],
      [{ prices, depositKeys: '{x' }, 'invalid JSON format in depositKeys parameter'],
      [{ prices: '[900]', depositKeys: keys }, 'prices must be a JSON object with assetId - price mapping'],
      [{ prices: '{"1":0}', depositKeys: keys }, 'Invalid prices parameter'],
      [
        { prices, depositKeys: { [ids.bid]: `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}` } },
        `invalid deposit key for assetId: ${ids.bid}`,
      ],
      [{ prices: { [ids.bid]: 901 }, depositKeys: keys }, `No buy order for assetId: ${ids.bid}`],
    ];
    for (const [body, message] of cases) {
      const answer = await post(me, '/instantsell/trade', body);
      assertThat(answer, answer.status === 300 && answer.message === message, message);
    }
    const lonelyKey = (content(await get(me, '/deposit/440')).depositkey as Record<string, string>)[ids.lonely]!;
    const lonely = await post(me, '/instantsell/trade', {
      prices: { [ids.lonely]: 1 },
      depositKeys: { [ids.lonely]: lonelyKey },
    });
    assertThat(
      lonely,
      lonely.message === `No buy order for assetId: ${ids.lonely}`,
      'an item only the seller bids on has no buy order to sell into',
    );
    assertThat(lonely, (await helpers.offers(me.platformId)).length === 0, 'no refused trade sent an offer');
  });

  it('Given the instant price as JSON strings, creates a pending instant_sell trade and sends its offer [R-INSTANT-SELL, R-DEPOSIT-TRADE]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, ids } = await market('3');
    const keys = await instantKeys(me);
    const made = await post(me, '/instantsell/trade', {
      prices: JSON.stringify({ [ids.bid]: 850 }),
      depositKeys: JSON.stringify(keys),
      method: 'balance',
    });
    assertThat(made, made.status === 200 && Number.isInteger(content(made).id), 'the trade ID');
    const offers = await helpers.offers(me.platformId);
    assertThat(
      made,
      offers.length === 1 && offers[0]!.kind === 'instant_sell' && offers[0]!.assetIds.join() === ids.bid,
      'an instant_sell offer asks for the asset',
    );
    const active = await get(me, '/trades/active');
    const [trade] = content(active).trades as { id: number; kind: string; status: number }[];
    assertThat(
      active,
      trade?.id === content(made).id && trade?.kind === 'instant_sell' && trade?.status === 0,
      'pending',
    );
    pinsMeaning('POST /instantsell/trade id');
  });
});

describe('Settling an instant-sell offer', () => {
  it('Given an accepted trade, the asset sells into the oldest best bid: the seller gets floor(900 x 95 / 100) = 855 [R-INSTANT-SELL, R-LIMIT-SELLER-FEE]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, first, bid, ids } = await market('4');
    const keys = await instantKeys(me);
    const before = (await readBalance(me)).cents;
    // The document settles the balance as net of reservations: 10,000 less the 900 the bid reserves.
    const buyerBefore = 10_000 - 900;
    await assertBalance(first, buyerBefore, "the buyer's balance is net of the 900 its bid reserves", 10_000);
    const trade = await post(me, '/instantsell/trade', { prices: { [ids.bid]: 800 }, depositKeys: keys });
    const offer = await sentOffer(trade, me.platformId);
    const settled = await helpers.settleOffer(offer.tradeId, 'accept');
    assertThat(trade, settled.status === 3, 'accepted');
    await assertBalance(
      me,
      before + proceeds(900),
      'the seller is credited 95 percent of the bid price (900), not of the accepted 800',
      before,
    );
    const order = await get(first, `/user/buyorder/${bid.id}`);
    assertThat(order, order.status === 300 || content(order).informations.amount === 0, 'the oldest 900 bid is filled');
    await assertBalance(
      first,
      buyerBefore,
      "the buyer's balance does not change: the price came from the reservation",
      buyerBefore,
    );
    const rest = await get(me, '/instantsell/440');
    const rows = content(rest).informations.rows as Row[];
    assertThat(rest, rows.length === 0, 'the asset left the platform inventory');
    const all = await get(me, '/trades/all');
    const [listed] = content(all).trades as { status: number }[];
    assertThat(all, listed?.status === 3, 'the trade is completed');
  });

  it('Given a declined trade, the trade fails (-1), no money moves and the asset stays on the platform [R-INSTANT-SELL]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, ids } = await market('5');
    const keys = await instantKeys(me);
    const before = (await readBalance(me)).cents;
    const trade = await post(me, '/instantsell/trade', { prices: { [ids.bid]: 900 }, depositKeys: keys });
    const offer = await sentOffer(trade, me.platformId);
    const settled = await helpers.settleOffer(offer.tradeId, 'decline');
    assertThat(trade, settled.status === -1, 'the declined trade failed (-1)');
    await assertBalance(me, before, 'a failed trade moves no money', before);
    const again = await get(me, '/instantsell/440');
    const rows = content(again).informations.rows as Row[];
    assertThat(again, rows.length === 1 && rows[0]!.buyOrderCount === 3, 'still offered, the bids untouched');
  });

  it('Given the only bid removed between the offer and its acceptance, the acceptance is answered and no money moves through the removed order [R-INSTANT-SELL]', async (ctx) => {
    await needsHelpers(ctx);
    const bid = await imagedItem({ name: 'Instant Gone 6', game: 440 });
    const me = await session({ balance: 100_000 });
    const buyer = await session({ balance: 10_000 });
    await helpers.buyOrder({ owner: buyer.platformId, itemId: bid.id, price: 900, amount: 1 });
    const assetId = `41${'6'.padStart(9, '0')}1`;
    await helpers.platformInventory({ platformId: me.platformId, game: 440, assets: [{ assetId, itemId: bid.id }] });
    const keys = await instantKeys(me);
    const before = (await readBalance(me)).cents;
    const trade = await post(me, '/instantsell/trade', { prices: { [assetId]: 900 }, depositKeys: keys });
    const offer = await sentOffer(trade, me.platformId);
    const removed = await post(buyer, '/item/buyorder/remove', { itemid: bid.id });
    assertThat(removed, removed.status === 200, 'the buyer removes the only bid before the offer is accepted');
    // What becomes of the asset the seed leaves open (completed with the asset kept, or failed);
    // the helper answers (a failure throws), and the removed order neither pays nor is paid.
    const settled = await helpers.settleOffer(offer.tradeId, 'accept');
    assertThat(trade, settled.status === 3 || settled.status === -1, 'the accepted trade is settled (3 or -1)');
    await assertBalance(buyer, 10_000, "the removed order's reservation came back and nothing was bought", 10_000);
    await assertBalance(me, before, 'nothing was sold into the removed order', before);
  });
});
