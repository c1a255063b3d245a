// Histories (seed: "User account" GET /user/getBalanceHistory, getPurchaseHistory, getSalesHistory,
// getTransactionHistory, getTransactionDetails, getSalesInfos, getSalesChartInfos; "Balance
// transaction", "Purchase, sale, cashout records"). Every entry is computed from sales this file
// makes: a buyer's buy order of 2 units at 1000 cents, filled by a seller who lists one asset at
// 1000 and, ten seconds later, one at 800 (a sale at the asset's price). The seller is credited
// floor(95 %) of each price: 950 and 760.
import { beforeAll, describe, it } from 'vitest';
import { avatarsOf } from '../src/kit/avatars.ts';
import { content, getOk, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, imagedItem, session } from '../src/kit/helpers.ts';
import { assertConforms, assertThat, call, pinsMeaning } from '../src/kit/http.ts';
import { postAs } from '../src/kit/user-calls.ts';
import { balancePage, variantOf } from '../src/kit/variants.ts';
import type { Json } from '../src/oracle/document.ts';

beforeAll(resetIfPossible);

type Me = Awaited<ReturnType<typeof session>>;
const DAY = 86_400;
const PRICES = [1000, 800];
const proceeds = (price: number) => Math.floor((price * 95) / 100);
const OPENING = 10_000;

/** Two sales from `seller` to `buyer` through the buyer's order, at PRICES, ten seconds apart. */
async function twoSales(name: string) {
  const item = await imagedItem({ name, game: 440 });
  const seller = await session({ name: `${name} Seller` });
  const buyer = await session({ name: `${name} Buyer`, balance: OPENING });
  await helpers.buyOrder({ owner: buyer.platformId, itemId: item.id, price: PRICES[0]!, amount: 2 });
  const assets: string[] = [];
  const times: number[] = [];
  for (const price of PRICES) {
    const asset = await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 0 });
    times.push(await helpers.pinClock());
    const sold = await call('POST', '/inventory/price', {
      json: { ids: asset.assetId, price },
      token: seller.token,
      ip: seller.ip,
    });
    assertThat(sold, sold.status === 200, `the asset listed at ${price} sells into the order`);
    assets.push(asset.assetId);
    await helpers.advance(10);
  }
  return { item, seller, buyer, assets, times };
}

/** The answer of a GET that must succeed, and its content. */
const get = async (me: Me, path: string, query: Record<string, string | number> = {}) => {
  const answer = await getOk(path, query, me.token, me.ip);
  return { answer, c: content(answer) };
};
/** A balance history page in either seed description (values/count or transactions/total). */
const ledger = async (me: Me, query: Record<string, string | number>) => {
  const { answer, c } = await get(me, '/user/getBalanceHistory', query);
  return { answer, c: balancePage(c) };
};
const balanceOf = async (me: Me) => (await get(me, '/user/balance')).c.balance as number;

describe('GET /user/getSalesHistory and /user/getPurchaseHistory', () => {
  it('Given two sales, the seller sees them newest first with the buyer and the prices, and the buyer sees the same two purchases [R-SALES-HISTORY, R-TRANS-ITEM-SELL, R-LIMIT-SELLER-FEE]', async (ctx) => {
    await needsHelpers(ctx);
    const { item, seller, buyer, times } = await twoSales('Ledger Hat');
    const { answer: salesAnswer, c: sales } = await get(seller, '/user/getSalesHistory');
    const rows = sales.sales as Json[];
    assertThat(
      salesAnswer,
      rows.map((r) => r.price).join() === '800,1000' && sales.total === 2 && sales.totalRevenue === 1800,
      'two sales, newest first, totalRevenue 1800 (the sum of the prices)',
    );
    assertThat(
      salesAnswer,
      rows.every(
        (r) => r.buyer === buyer.platformId && r.buyerName === 'Ledger Hat Buyer' && r.itemName === 'Ledger Hat',
      ),
      'each sale names the buyer and the item',
    );
    assertThat(
      salesAnswer,
      rows.map((r) => r.timestamp).join() === [times[1], times[0]].map(String).join(),
      'each sale carries the clock time of its listing',
    );
    const { answer: purchasesAnswer, c: purchases } = await get(buyer, '/user/getPurchaseHistory');
    assertThat(
      purchasesAnswer,
      (purchases.purchases as Json[]).map((r) => `${r.price}:${r.seller}:${r.sellerName}`).join() ===
        [800, 1000].map((p) => `${p}:${seller.platformId}:Ledger Hat Seller`).join() && purchases.totalSpent === 1800,
      'the buyer sees both purchases, newest first, totalSpent 1800',
    );
    const { answer: secondAnswer, c: second } = await get(buyer, '/user/getPurchaseHistory', { page: 1, count: 1 });
    assertThat(
      secondAnswer,
      (second.purchases as Json[]).map((r) => r.price).join() === '1000' && second.total === 2 && second.perpage === 1,
      'page 1 of size 1 is the older purchase',
    );
    const { answer: noneAnswer, c: none } = await get(seller, '/user/getPurchaseHistory');
    assertThat(noneAnswer, none.total === 0 && none.totalSpent === 0, 'the seller bought nothing');
    // Each record's item image and time, and its ID: the record the unified history names
    // `sale-<id>` / `purchase-<id>` with that record's amount (not the item's or the asset's ID).
    const bought = purchases.purchases as Json[];
    assertThat(
      purchasesAnswer,
      [...rows, ...bought].every((r) => r.itemImage === item.image && r.itemName === 'Ledger Hat') &&
        bought.map((r) => r.timestamp).join() === [times[1], times[0]].map(String).join(),
      "each record carries the item's own image, and each purchase the time of its sale",
    );
    for (const [me, records, kind, amount] of [
      [seller, rows, 'sale', proceeds],
      [buyer, bought, 'purchase', (p: number) => -p],
    ] as const) {
      const { answer: unified, c: history } = await get(me, '/user/getTransactionHistory');
      const entries = (history.transactions as Json[]).filter((e) => e.kind === kind);
      assertThat(
        unified,
        entries.map((e) => `${e.id}:${e.amount}`).join() ===
          records.map((r) => `${kind}-${r.id}:${amount(r.price as number)}`).join(),
        `each ${kind} record's id is the record the unified history names ${kind}-<id>, with its amount`,
      );
    }
    const { answer: olderAnswer, c: older } = await get(seller, '/user/getSalesHistory', { page: 1, perPage: 1 });
    assertThat(
      olderAnswer,
      (older.sales as Json[]).map((r) => r.price).join() === '1000' &&
        older.page === 1 &&
        older.perpage === 1 &&
        older.total === 2 &&
        older.totalRevenue === 1800,
      'page 1 of size 1: the older sale, page 1, perpage 1, the totals over every page',
    );
    assertThat(secondAnswer, second.page === 1, 'the purchase page says it is page 1');
    pinsMeaning(
      'GET /user/getSalesHistory sales',
      'GET /user/getSalesHistory sales[].id',
      'GET /user/getSalesHistory sales[].itemName',
      'GET /user/getSalesHistory sales[].itemImage',
      'GET /user/getSalesHistory sales[].price',
      'GET /user/getSalesHistory sales[].buyer',
      'GET /user/getSalesHistory sales[].buyerName',
      'GET /user/getSalesHistory sales[].timestamp',
      'GET /user/getSalesHistory total',
      'GET /user/getSalesHistory page',
      'GET /user/getSalesHistory perpage',
      'GET /user/getSalesHistory totalRevenue',
      'GET /user/getPurchaseHistory purchases',
      'GET /user/getPurchaseHistory purchases[].id',
      'GET /user/getPurchaseHistory purchases[].itemName',
      'GET /user/getPurchaseHistory purchases[].itemImage',
      'GET /user/getPurchaseHistory purchases[].price',
      'GET /user/getPurchaseHistory purchases[].seller',
      'GET /user/getPurchaseHistory purchases[].sellerName',
      'GET /user/getPurchaseHistory purchases[].timestamp',
      'GET /user/getPurchaseHistory total',
      'GET /user/getPurchaseHistory page',
      'GET /user/getPurchaseHistory perpage',
      'GET /user/getPurchaseHistory totalSpent',
    );
  });

  it('Given two sales, search keeps matching item names and range drops sales older than the window [R-SALES-HISTORY]', async (ctx) => {
    await needsHelpers(ctx);
    const { seller } = await twoSales('Ranged Cap');
    const { answer: foundAnswer, c: found } = await get(seller, '/user/getSalesHistory', { search: 'RANGED c' });
    assertThat(foundAnswer, found.total === 2, 'the search is case-insensitive on the item name');
    const { answer: missingAnswer, c: missing } = await get(seller, '/user/getSalesHistory', {
      search: 'nothing like it',
    });
    assertThat(missingAnswer, missing.total === 0 && missing.totalRevenue === 0, 'no sale matches');
    await helpers.advance(8 * DAY);
    const { answer: weekAnswer, c: week } = await get(seller, '/user/getSalesHistory', { range: '7d' });
    assertThat(weekAnswer, week.total === 0, 'eight days later the sales are outside 7d');
    const { answer: monthAnswer, c: month } = await get(seller, '/user/getSalesHistory', { range: '30d', perPage: 1 });
    assertThat(
      monthAnswer,
      month.total === 2 && (month.sales as Json[]).length === 1 && month.perpage === 1,
      'inside 30d, one per page',
    );
  });
});

describe('GET /user/getBalanceHistory', () => {
  it('Given two sales, the entries are newest first, each balance is the previous one plus the amount, and type keeps one type [R-BALANCE-HISTORY, R-BALANCE-TRANSACTION]', async (ctx) => {
    await needsHelpers(ctx);
    const { seller, buyer, times } = await twoSales('Balance Mask');
    const { answer: creditsAnswer, c: credits } = await ledger(seller, { type: 'sale' });
    assertThat(
      creditsAnswer,
      (credits.values as Json[]).map((e) => e.amount).join() === PRICES.map(proceeds).reverse().join() &&
        credits.count === 2,
      `the seller's sale entries are ${PRICES.map(proceeds).reverse().join(', ')}`,
    );
    const { answer: allAnswer, c: all } = await ledger(buyer, { count: 100 });
    const entries = (all.values as Json[]).slice().reverse();
    assertThat(
      allAnswer,
      entries[0]?.type === 'bonus' && entries[0]?.amount === OPENING && entries[0]?.balance === OPENING,
      'the oldest entry is the opening balance',
    );
    assertThat(
      allAnswer,
      entries.every((e, i) => i === 0 || e.balance === entries[i - 1]!.balance + e.amount),
      'each balance is the previous balance plus the amount',
    );
    assertThat(
      allAnswer,
      entries.at(-1)?.balance === (await balanceOf(buyer)) && all.count === entries.length,
      'the newest balance is the current balance',
    );
    const { answer: purchasesAnswer, c: purchases } = await ledger(buyer, {
      type: 'purchase',
      limit: 1,
    });
    assertThat(
      purchasesAnswer,
      (purchases.values as Json[]).map((e) => e.amount).join() === '-800' && purchases.count === 2,
      'limit 1 of the purchases: the newest, -800',
    );
    const { answer: laterAnswer, c: later } = await ledger(buyer, {
      type: 'purchase',
      limit: 1,
      page: 1,
    });
    assertThat(laterAnswer, (later.values as Json[]).map((e) => e.amount).join() === '-1000', 'page 1: -1000');
    // Each sale entry at its sale's time, related to its sale record (the ID the sales history
    // shows, not the item's); the opening entry is the ledger entry the unified history names
    // balance-<id>.
    const saleIds = ((await get(seller, '/user/getSalesHistory')).c.sales as Json[]).map((r) => r.id);
    assertThat(
      creditsAnswer,
      (credits.values as Json[]).map((e) => `${e.timestamp}:${e.relatedId}`).join() ===
        [times[1], times[0]].map((t, i) => `${t}:${saleIds[i]}`).join(),
      `the sale entries carry their sale's time and record ID (${saleIds.join(', ')})`,
    );
    const opening = ((await get(buyer, '/user/getTransactionHistory', { limit: 100 })).c.transactions as Json[]).filter(
      (e) => e.kind === 'balance' && e.type === 'bonus',
    );
    assertThat(
      allAnswer,
      opening.map((e) => `${e.id}:${e.amount}`).join() === `balance-${entries[0]?.id}:${OPENING}`,
      'the opening entry is the ledger entry the unified history names balance-<id>',
    );
    // The page envelope of the other seed description: page 1 of size 1, every purchase counted,
    // and the balance now (10000 - 1800: the order was filled, nothing stays reserved).
    const envelope = (await get(buyer, '/user/getBalanceHistory', { type: 'purchase', limit: 1, page: 1 })).c;
    assertThat(
      laterAnswer,
      envelope.transactions === undefined ||
        (envelope.total === 2 &&
          envelope.page === 1 &&
          envelope.perpage === 1 &&
          envelope.currentBalance === OPENING - 1800),
      'the page envelope: total 2, page 1, perpage 1, currentBalance 8200',
    );
    pinsMeaning(
      'GET /user/getBalanceHistory values',
      'GET /user/getBalanceHistory values[].id',
      'GET /user/getBalanceHistory values[].type',
      'GET /user/getBalanceHistory values[].amount',
      'GET /user/getBalanceHistory values[].balance',
      'GET /user/getBalanceHistory values[].timestamp',
      'GET /user/getBalanceHistory values[].relatedId',
      'GET /user/getBalanceHistory count',
      'GET /user/getBalanceHistory transactions',
      'GET /user/getBalanceHistory transactions[].id',
      'GET /user/getBalanceHistory transactions[].type',
      'GET /user/getBalanceHistory transactions[].amount',
      'GET /user/getBalanceHistory transactions[].balance',
      'GET /user/getBalanceHistory transactions[].timestamp',
      'GET /user/getBalanceHistory transactions[].relatedId',
      'GET /user/getBalanceHistory total',
      'GET /user/getBalanceHistory page',
      'GET /user/getBalanceHistory perpage',
      'GET /user/getBalanceHistory currentBalance',
    );
  });

  // The document's BalanceTransaction: "negative for debits (purchase, payment, cashout, fee),
  // positive for credits". Which type records a reservation or its release is not said, nor whether
  // they are recorded at all; whatever type an entry takes, its sign must be its type's side. A
  // reservation written as a `refund`, or a release as a `payment`, reads as the wrong side. The
  // description ("Human-readable description of the change") may say anything, but not nothing.
  it('Given a buy order placed, updated, filled once and removed, every entry of a debit type (purchase, payment, cashout, fee) is negative, every other entry positive, and each has a description [R-BALANCE-TRANSACTION, R-BALANCE-HISTORY, R-TRANS-BUYORDER-UPDATE, R-TRANS-BUYORDER-REMOVE]', async (ctx) => {
    await needsHelpers(ctx);
    const item = await imagedItem({ name: 'Sided Scarf', game: 440 });
    const buyer = await session({ name: 'Sided Buyer', balance: OPENING });
    const seller = await session({ name: 'Sided Seller' });
    const placed = await postAs(buyer, '/item/buyorder', { itemid: item.id, value: 1000, amount: 2 });
    assertThat(placed, placed.status === 200, 'an order of 2 at 1000 is placed');
    const updated = await postAs(buyer, '/item/buyorder/update', { itemid: item.id, value: 900, amount: 3 });
    assertThat(updated, updated.status === 200, 'the order becomes 3 at 900');
    const asset = await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 0 });
    const sold = await postAs(seller, '/inventory/price', { ids: asset.assetId, price: 800 });
    assertThat(sold, sold.status === 200, 'an asset listed at 800 sells into the order');
    const removed = await postAs(buyer, '/item/buyorder/remove', { itemid: item.id });
    assertThat(removed, removed.status === 200, 'the order, 2 units left, is removed');
    const DEBITS = new Set(['purchase', 'payment', 'cashout', 'fee']);
    // Both sides of the sale: the buyer's reservations, releases and purchase, the seller's sale.
    for (const me of [seller, buyer]) {
      const { answer, c } = await ledger(me, { count: 100 });
      const entries = c.values as Json[];
      const wrongSide = entries.filter((e) => (DEBITS.has(e.type) ? e.amount > 0 : e.amount < 0));
      assertThat(
        answer,
        wrongSide.length === 0,
        `no entry on the other side of its type (got ${JSON.stringify(wrongSide.map((e) => `${e.type}:${e.amount}`))})`,
      );
      // "Human-readable description of the change": what it says is open, but an empty one says nothing.
      const undescribed = entries.filter((e) => typeof e.description !== 'string' || e.description.trim() === '');
      assertThat(
        answer,
        undescribed.length === 0,
        `every entry describes its change (got ${JSON.stringify(undescribed.map((e) => `${e.type}:${e.amount}`))} without a description)`,
      );
    }
    const { answer, c } = await ledger(buyer, { count: 100 });
    const entries = c.values as Json[];
    assertThat(
      answer,
      (await balanceOf(buyer)) === OPENING - 800 && entries[0]?.balance === OPENING - 800,
      'the balance, and the newest entry, is the opening 10000 less the one purchase at 800: nothing is left reserved',
    );
    pinsMeaning('GET /user/getBalanceHistory values[].type', 'GET /user/getBalanceHistory values[].amount');
  });
});

describe('GET /user/getTransactionHistory and /user/getTransactionDetails', () => {
  it('Given two sales, each event appears once and the amounts of the unified history add up to the balance [R-TRANSACTION-HISTORY]', async (ctx) => {
    await needsHelpers(ctx);
    const { item, seller, buyer, times } = await twoSales('Unified Boots');
    for (const me of [seller, buyer]) {
      const { answer: pageAnswer, c: page } = await get(me, '/user/getTransactionHistory', { limit: 100 });
      const sum = (page.transactions as Json[]).reduce((n, e) => n + e.amount, 0);
      assertThat(pageAnswer, sum === (await balanceOf(me)), `the amounts sum to the balance of ${me.platformId}`);
    }
    const { answer: soldAnswer, c: sold } = await get(seller, '/user/getTransactionHistory');
    const sales = (sold.transactions as Json[]).filter((e) => e.kind === 'sale');
    assertThat(
      soldAnswer,
      sales.map((e) => `${e.type}:${e.amount}`).join() ===
        PRICES.map((p) => `sale:${proceeds(p)}`)
          .reverse()
          .join(),
      'the seller has two sale entries, newest first, credited floor(95 %)',
    );
    const { answer: boughtAnswer, c: bought } = await get(buyer, '/user/getTransactionHistory', {
      search: 'UNIFIED boots',
    });
    assertThat(
      boughtAnswer,
      (bought.transactions as Json[]).map((e) => `${e.kind}:${e.amount}`).join() === 'purchase:-800,purchase:-1000',
      'a search on the item name keeps the two purchases',
    );
    // Each sale entry at its sale's time and related to the item sold (not the sale record, not
    // the asset); the search counts the matches, not the caller's whole history (3 entries).
    assertThat(
      soldAnswer,
      sales.map((e) => `${e.timestamp}:${e.relatedId}`).join() ===
        [times[1], times[0]].map((t) => `${t}:${item.id}`).join(),
      `the sale entries carry their sale's time and the item ID ${item.id}`,
    );
    assertThat(boughtAnswer, bought.total === 2, 'total counts the entries the search keeps: the two purchases');
    const { answer: olderAnswer, c: older } = await get(seller, '/user/getTransactionHistory', { page: 1, limit: 1 });
    assertThat(
      olderAnswer,
      (older.transactions as Json[]).map((e) => e.amount).join() === String(proceeds(1000)) &&
        older.page === 1 &&
        older.perpage === 1 &&
        older.total === 2,
      "page 1 of size 1: the seller's older sale; page 1, perpage 1, total 2",
    );
    pinsMeaning(
      'GET /user/getTransactionHistory transactions',
      'GET /user/getTransactionHistory transactions[].id',
      'GET /user/getTransactionHistory transactions[].kind',
      'GET /user/getTransactionHistory transactions[].type',
      'GET /user/getTransactionHistory transactions[].amount',
      'GET /user/getTransactionHistory transactions[].description',
      'GET /user/getTransactionHistory transactions[].timestamp',
      'GET /user/getTransactionHistory transactions[].relatedId',
      'GET /user/getTransactionHistory total',
      'GET /user/getTransactionHistory page',
      'GET /user/getTransactionHistory perpage',
    );
  });

  it('Given a sale, its details show the item, the asset and the buyer to the seller, and another user is refused [R-TRANSACTION-DETAILS, R-MSG-TRANSACTION-DETAILS]', async (ctx) => {
    await needsHelpers(ctx);
    const { item, seller, buyer, assets, times } = await twoSales('Detailed Gloves');
    const newest = ((await get(seller, '/user/getTransactionHistory')).c.transactions as Json[]).find(
      (e) => e.kind === 'sale',
    )!;
    const { answer, c } = await get(seller, '/user/getTransactionDetails', { transactionId: newest.id });
    const details = c.transaction;
    assertThat(
      answer,
      details.id === newest.id && details.type === 'sale' && details.amount === proceeds(800),
      'the sale of 800, credited 760',
    );
    assertThat(
      answer,
      details.item?.id === item.id &&
        details.item?.assetId === assets[1] &&
        details.buyer?.platformId === buyer.platformId,
      'the item, the asset sold and the buyer',
    );
    assertThat(
      answer,
      details.item?.name === 'Detailed Gloves' &&
        details.item?.image === item.image &&
        details.buyer?.name === 'Detailed Gloves Buyer' &&
        details.timestamp === String(times[1]),
      "the item's name and image, the buyer's name (not the seller's), the time of the newer sale",
    );
    const avatars = await avatarsOf(ctx, [seller, buyer]);
    assertThat(
      answer,
      details.buyer?.avatar === avatars.get(buyer.platformId),
      `the buyer's own avatar ${avatars.get(buyer.platformId)}, not the seller's (got ${details.buyer?.avatar})`,
    );
    pinsMeaning(
      'GET /user/getTransactionDetails transaction',
      'GET /user/getTransactionDetails transaction.id',
      'GET /user/getTransactionDetails transaction.type',
      'GET /user/getTransactionDetails transaction.amount',
      'GET /user/getTransactionDetails transaction.timestamp',
      'GET /user/getTransactionDetails transaction.item',
      'GET /user/getTransactionDetails transaction.item.id',
      'GET /user/getTransactionDetails transaction.item.name',
      'GET /user/getTransactionDetails transaction.item.image',
      'GET /user/getTransactionDetails transaction.item.assetId',
      'GET /user/getTransactionDetails transaction.buyer',
      'GET /user/getTransactionDetails transaction.buyer.platformId',
      'GET /user/getTransactionDetails transaction.buyer.name',
      'GET /user/getTransactionDetails transaction.buyer.avatar',
    );
    for (const [me, query, why] of [
      [buyer, { transactionId: newest.id }, "the buyer asks for the seller's sale"],
      [seller, { transactionId: newest.id, type: 'purchase' }, 'the type does not match'],
      [seller, { transactionId: 'sale-999999' }, 'no such sale'],
    ] as const) {
      const refused = await call('GET', '/user/getTransactionDetails', { query, token: me.token, ip: me.ip });
      assertConforms(refused);
      assertThat(
        refused,
        refused.status === 300 && refused.message === 'Transaction not found or access denied',
        `${why}: Transaction not found or access denied`,
      );
    }
  });
});

describe('GET /user/getTransactionDetails: the trade of a sale', () => {
  it("Given an asset deposited and sold at once into a buy order, the seller's sale names the completed deposit trade, and the buyer's purchase the pending withdrawal once there is one [R-TRANSACTION-DETAILS]", async (ctx) => {
    await needsHelpers(ctx);
    const item = await helpers.item({ name: 'Traded Goggles', game: 440 });
    const seller = await session({ name: 'Traded Seller' });
    const buyer = await session({ name: 'Traded Buyer', balance: OPENING });
    await helpers.buyOrder({ owner: buyer.platformId, itemId: item.id, price: 1500, amount: 1 });
    await helpers.platformInventory({
      platformId: seller.platformId,
      game: 440,
      assets: [{ assetId: '51000000001', itemId: item.id }],
    });
    const keys = (await get(seller, '/deposit/440')).c.depositkey as Record<string, string>;
    const deposit = await call('POST', '/deposit/trade', {
      json: { value: { '51000000001': 1200 }, depositKeys: keys },
      token: seller.token,
      ip: seller.ip,
    });
    assertThat(deposit, deposit.status === 200, 'the deposit trade is made');
    const [offer] = await helpers.offers(seller.platformId);
    await helpers.advance(60);
    const acceptedAt = await helpers.pinClock();
    await helpers.settleOffer(offer!.tradeId, 'accept');
    const tradeRow = async (me: Me, kind: string) =>
      ((await get(me, '/trades/all')).c.trades as Json[]).find((t) => t.kind === kind);
    const depositRow = await tradeRow(seller, 'deposit');
    const details = async (me: Me, kind: string) => {
      const entry = ((await get(me, '/user/getTransactionHistory')).c.transactions as Json[]).find(
        (e) => e.kind === kind,
      );
      return get(me, '/user/getTransactionDetails', { transactionId: String(entry?.id) });
    };
    const sold = await details(seller, 'sale');
    assertThat(
      sold.answer,
      JSON.stringify(sold.c.transaction.tradeOffer) ===
        JSON.stringify({ tradeId: depositRow?.id, status: 3, completedAt: String(acceptedAt) }),
      `the sale's trade is the deposit (trade ${depositRow?.id}), completed at ${acceptedAt} (got ${JSON.stringify(sold.c.transaction.tradeOffer)})`,
    );
    const bought = await details(buyer, 'purchase');
    assertThat(
      bought.answer,
      bought.c.transaction.tradeOffer === null,
      'the purchase has no trade before a withdrawal',
    );
    const held = (await get(buyer, '/inventory/onInventory')).c.items as Json[];
    const withdrawal = await call('POST', '/inventory/withdraw', {
      json: { ids: String(held[0]?.ids) },
      token: buyer.token,
      ip: buyer.ip,
    });
    assertThat(withdrawal, withdrawal.status === 200, 'the buyer withdraws the asset bought');
    const withdrawRow = await tradeRow(buyer, 'withdraw');
    const leaving = await details(buyer, 'purchase');
    assertThat(
      leaving.answer,
      JSON.stringify(leaving.c.transaction.tradeOffer) ===
        JSON.stringify({ tradeId: withdrawRow?.id, status: 0, completedAt: null }),
      `the purchase's trade is the pending withdrawal (trade ${withdrawRow?.id}), not completed (got ${JSON.stringify(leaving.c.transaction.tradeOffer)})`,
    );
    pinsMeaning(
      'GET /user/getTransactionDetails transaction.tradeOffer',
      'GET /user/getTransactionDetails transaction.tradeOffer.tradeId',
      'GET /user/getTransactionDetails transaction.tradeOffer.status',
      'GET /user/getTransactionDetails transaction.tradeOffer.completedAt',
    );
  });
});

describe('GET /user/getSalesInfos and /user/getSalesChartInfos', () => {
  it('Given two sales today, the summary counts them and the week chart has seven days with both sales on today [R-SALES-SUMMARY, R-SALES-CHART]', async (ctx) => {
    await needsHelpers(ctx);
    const { item, seller, times } = await twoSales('Charted Scarf');
    // A third asset stays listed at 700 (the order is filled): sales are not listings, and the
    // other description's `nb` and `price` are the listing's 1 and 700.
    const listed = await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 1, price: 700 });
    const { answer: summaryAnswer, c: summary } = await get(seller, '/user/getSalesInfos');
    // The other seed description counts the items on sale ({nb, price, user}): both were sold.
    const totals = variantOf(summaryAnswer) === 'first';
    if (!totals)
      assertThat(
        summaryAnswer,
        summary.nb === 1 && summary.price === 700 && summary.user === seller.platformId,
        `the other description: one item (${listed.assetId}) on sale at 700`,
      );
    assertThat(
      summaryAnswer,
      !totals ||
        (summary.totalSales === 2 &&
          summary.itemsSold === 2 &&
          summary.totalRevenue === 1800 &&
          summary.averageSalePrice === 900 &&
          summary.last30DaysSales === 2 &&
          summary.last30DaysRevenue === 1800),
      'two sales, 1800 cents, 900 on average, all in the last 30 days',
    );
    const today = new Date(times[1]! * 1000).toISOString().slice(0, 10);
    const { answer: chartAnswer, c: chart } = await get(seller, '/user/getSalesChartInfos', { period: '1W' });
    const rows = chart.values as Json[];
    assertThat(chartAnswer, rows.length === 7 && rows.at(-1)?.date === today, 'seven days, the last one today');
    assertThat(
      chartAnswer,
      rows.at(-1)?.sales === 2 && rows.at(-1)?.revenue === 1800 && rows.slice(0, -1).every((r) => r.sales === 0),
      'both sales on today, no sale the other days',
    );
    assertThat(
      chartAnswer,
      chart.statistics?.totalSales === 2 && chart.statistics?.totalRevenue === 1800,
      'the statistics total the window',
    );
    const { answer: monthAnswer, c: month } = await get(seller, '/user/getSalesChartInfos', { chart_only: '1' });
    assertThat(
      monthAnswer,
      (month.values as Json[]).length === 30 && month.statistics === undefined,
      'without period: 30 days; chart_only leaves the statistics out',
    );
    await helpers.advance(30 * DAY + 3600); // within the JWT lifetime (about 31 days)
    const { answer: laterAnswer, c: later } = await get(seller, '/user/getSalesInfos');
    assertThat(
      laterAnswer,
      !totals || (later.totalSales === 2 && later.last30DaysSales === 0 && later.last30DaysRevenue === 0),
      '30 days and an hour later the sales are no longer in the last 30 days',
    );
    const { answer: weekAnswer, c: week } = await get(seller, '/user/getSalesChartInfos', { period: '1W' });
    assertThat(
      weekAnswer,
      (week.values as Json[]).every((r) => r.sales === 0 && r.revenue === 0) &&
        week.statistics?.totalSales === 0 &&
        week.statistics?.totalRevenue === 0,
      'a month later the week holds no sale: the statistics total the window, not all time',
    );
    pinsMeaning(
      'GET /user/getSalesInfos totalSales',
      'GET /user/getSalesInfos totalRevenue',
      'GET /user/getSalesInfos averageSalePrice',
      'GET /user/getSalesInfos itemsSold',
      'GET /user/getSalesInfos last30DaysSales',
      'GET /user/getSalesInfos last30DaysRevenue',
      'GET /user/getSalesInfos nb',
      'GET /user/getSalesInfos price',
      'GET /user/getSalesInfos user',
      'GET /user/getSalesChartInfos values',
      'GET /user/getSalesChartInfos values[].date',
      'GET /user/getSalesChartInfos values[].sales',
      'GET /user/getSalesChartInfos values[].revenue',
      'GET /user/getSalesChartInfos statistics',
      'GET /user/getSalesChartInfos statistics.totalSales',
      'GET /user/getSalesChartInfos statistics.totalRevenue',
    );
  });
});
