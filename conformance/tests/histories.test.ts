// Histories (seed: "User account" GET /user/getBalanceHistory, getPurchaseHistory, getSalesHistory,
// getTransactionHistory, getTransactionDetails, getSalesInfos, getSalesChartInfos; "Balance
// transaction", "Purchase, sale, cashout records"). Every entry is computed from sales this file
// makes: a buyer's buy order of 2 units at 1000 cents, filled by a seller who lists one asset at
// 1000 and, ten seconds later, one at 800 (a sale at the asset's price). The seller is credited
// floor(95 %) of each price: 950 and 760.
import { beforeAll, describe, it } from 'vitest';
import { content, getOk, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { assertConforms, assertThat, call } from '../src/kit/http.ts';
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
  const item = await helpers.item({ name, game: 440 });
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
    const { seller, buyer, times } = await twoSales('Ledger Hat');
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
    const { seller, buyer } = await twoSales('Balance Mask');
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
  });
});

describe('GET /user/getTransactionHistory and /user/getTransactionDetails', () => {
  it('Given two sales, each event appears once and the amounts of the unified history add up to the balance [R-TRANSACTION-HISTORY]', async (ctx) => {
    await needsHelpers(ctx);
    const { seller, buyer } = await twoSales('Unified Boots');
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
  });

  it('Given a sale, its details show the item, the asset and the buyer to the seller, and another user is refused [R-TRANSACTION-DETAILS, R-MSG-TRANSACTION-DETAILS]', async (ctx) => {
    await needsHelpers(ctx);
    const { item, seller, buyer, assets } = await twoSales('Detailed Gloves');
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

describe('GET /user/getSalesInfos and /user/getSalesChartInfos', () => {
  it('Given two sales today, the summary counts them and the week chart has seven days with both sales on today [R-SALES-SUMMARY, R-SALES-CHART]', async (ctx) => {
    await needsHelpers(ctx);
    const { seller, times } = await twoSales('Charted Scarf');
    const { answer: summaryAnswer, c: summary } = await get(seller, '/user/getSalesInfos');
    // The other seed description counts the items on sale ({nb, price, user}): both were sold.
    const totals = variantOf(summaryAnswer) === 'first';
    if (!totals)
      assertThat(
        summaryAnswer,
        summary.nb === 0 && summary.price === 0 && summary.user === seller.platformId,
        'the other description: nothing left on sale',
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
  });
});
