import { describe, expect, it } from 'vitest';
import { requestCashout } from './cashouts.ts';
import { DAY, formatDate } from './dates.ts';
import {
  balanceHistory,
  purchaseHistory,
  salesChart,
  salesHistory,
  salesSummary,
  transactionDetails,
  transactionHistory,
} from './histories.ts';
import { sellerProceeds } from './money.ts';
import { sell } from './sale.ts';
import { testState } from './test-state.fixture.ts';

/** A seller and a buyer with sales of `Hist Hat` at `prices`, one day apart, the last one `now`. */
function sales(prices: number[]) {
  const s = testState();
  const seller = s.user({ name: 'Sam Seller', balance: 0, verified: true, paymentMethods: ['provider_a'] });
  const buyer = s.user({ name: 'Bea Buyer', balance: 100_000 });
  const item = s.item({ name: 'Hist Hat' });
  const done = prices.map((price, i) => {
    const asset = s.asset({ owner: seller.platformId, itemId: item.id, state: 1, price });
    const at = s.now - (prices.length - 1 - i) * DAY;
    const sale = sell(s.tx, { asset, buyer: buyer.platformId, price, now: at });
    if (!sale.ok) throw new Error('the sale failed');
    return sale.value;
  });
  return { ...s, seller: seller.platformId, buyer: buyer.platformId, item, done };
}

describe('sales and purchase histories', () => {
  it('list the records newest first with the counterparty, page them and total them', () => {
    const h = sales([100, 200, 300]);
    const page = salesHistory(h.tx, h.seller, { page: 0, size: 2, range: 'all', now: h.now });
    expect(page).toMatchObject({ total: 3, page: 0, perpage: 2, totalRevenue: 600 });
    expect(page.sales.map((s) => [s.price, s.buyer, s.buyerName, s.itemName, s.status])).toEqual([
      [300, h.buyer, 'Bea Buyer', 'Hist Hat', 'completed'],
      [200, h.buyer, 'Bea Buyer', 'Hist Hat', 'completed'],
    ]);
    const bought = purchaseHistory(h.tx, h.buyer, { page: 1, size: 2 });
    expect(bought).toMatchObject({ total: 3, page: 1, perpage: 2, totalSpent: 600 });
    expect(bought.purchases.map((p) => [p.price, p.seller, p.sellerName])).toEqual([[100, h.seller, 'Sam Seller']]);
    expect(purchaseHistory(h.tx, h.seller, { page: 0, size: 10 })).toMatchObject({ total: 0, totalSpent: 0 });
  });

  it('range keeps sales younger than the window and search matches the item name in any case', () => {
    const h = sales([100, 200, 300]); // two days, one day and zero days old
    const count = (range: '7d' | '30d' | 'all', now: number, search?: string) =>
      salesHistory(h.tx, h.seller, { page: 0, size: 10, range, now, search }).total;
    expect(count('7d', h.now)).toBe(3);
    expect(count('7d', h.now + 5 * DAY)).toBe(2); // the first is exactly 7 days old: out
    expect(count('all', h.now + 400 * DAY)).toBe(3);
    expect(count('all', h.now, 'HIST h')).toBe(3);
    expect(count('all', h.now, 'coat')).toBe(0);
  });
});

describe('balance history', () => {
  it('is newest first, filters by type, pages, and counts the matching entries', () => {
    const h = sales([100, 200]);
    const all = balanceHistory(h.tx, h.buyer, { page: 0, size: 10 });
    expect(all.values.map((e) => [e.type, e.amount])).toEqual([
      ['purchase', -200],
      ['purchase', -100],
      ['bonus', 100_000],
    ]);
    expect(all.count).toBe(3);
    expect(all.values[0]).not.toHaveProperty('user');
    const credits = balanceHistory(h.tx, h.seller, { page: 1, size: 1, type: 'sale' });
    expect(credits).toEqual({
      values: [expect.objectContaining({ amount: sellerProceeds(100), balance: sellerProceeds(100) })],
      count: 2,
    });
  });
});

describe('unified transaction history and details', () => {
  it('shows each event once, named by its record, and its amounts add up to the balance', () => {
    const h = sales([100, 250]);
    const seller = transactionHistory(h.tx, h.seller, { page: 0, size: 10 });
    expect(seller.transactions.map((e) => [e.id, e.kind, e.amount, e.relatedId])).toEqual([
      [`sale-${h.done[1]!.id}`, 'sale', sellerProceeds(250), h.item.id],
      [`sale-${h.done[0]!.id}`, 'sale', sellerProceeds(100), h.item.id],
    ]);
    const buyer = transactionHistory(h.tx, h.buyer, { page: 0, size: 10 });
    expect(buyer.transactions.map((e) => e.kind)).toEqual(['purchase', 'purchase', 'balance']);
    expect(buyer.transactions.at(-1)).toMatchObject({ type: 'bonus', relatedId: null });
    expect(buyer.transactions.reduce((n, e) => n + e.amount, 0)).toBe(h.tx.get('users', h.buyer)!.balance);
    expect(transactionHistory(h.tx, h.buyer, { page: 0, size: 10, search: 'purchase: hist' }).total).toBe(2);
  });

  it('lists a cashout once, as a cashout of amount plus fee', () => {
    const h = sales([20_000]);
    const done = requestCashout(h.tx, { user: h.seller, amount: 5_000, method: 'provider_a', now: h.now });
    if (!done.ok) throw new Error(JSON.stringify(done.error));
    const entries = transactionHistory(h.tx, h.seller, { page: 0, size: 10 }).transactions;
    expect(entries.map((e) => [e.kind, e.amount])).toEqual([
      ['cashout', -5_100],
      ['sale', sellerProceeds(20_000)],
    ]);
    expect(transactionDetails(h.tx, h.seller, entries[0]!.id)).toMatchObject({
      type: 'cashout',
      amount: -5_100,
      status: 'pending',
      item: null,
    });
  });

  it('details a sale to the seller and a purchase to the buyer, and nothing to anybody else', () => {
    const h = sales([400]);
    const id = h.done[0]!.id;
    expect(transactionDetails(h.tx, h.seller, `sale-${id}`)).toMatchObject({
      type: 'sale',
      amount: sellerProceeds(400),
      item: { id: h.item.id, name: 'Hist Hat', assetId: h.done[0]!.assetId },
      buyer: { platformId: h.buyer, name: 'Bea Buyer' },
      tradeOffer: null,
    });
    expect(transactionDetails(h.tx, h.buyer, `purchase-${id}`, 'purchase')).toMatchObject({ amount: -400 });
    expect(transactionDetails(h.tx, h.buyer, `sale-${id}`)).toBeNull();
    expect(transactionDetails(h.tx, h.seller, `purchase-${id}`)).toBeNull();
    expect(transactionDetails(h.tx, h.seller, `sale-${id}`, 'purchase')).toBeNull();
    expect(transactionDetails(h.tx, h.seller, 'sale-999')).toBeNull();
    expect(transactionDetails(h.tx, h.seller, 'anything')).toBeNull();
    const opening = transactionHistory(h.tx, h.buyer, { page: 0, size: 10 }).transactions.at(-1)!;
    expect(transactionDetails(h.tx, h.buyer, opening.id, 'balance')).toMatchObject({
      type: 'balance',
      amount: 100_000,
    });
    expect(transactionDetails(h.tx, h.seller, opening.id)).toBeNull();
    // A purchase's ledger entry is reachable only as the purchase, not as a balance entry.
    const entry = h.tx.all('ledger').find((e) => e.type === 'purchase')!;
    expect(transactionDetails(h.tx, h.buyer, `balance-${entry.id}`)).toBeNull();
  });
});

describe('sales summary and chart', () => {
  it('counts all sales and those of the last 30 days, with the average rounded to the cent', () => {
    const h = sales([100, 101, 101]);
    expect(salesSummary(h.tx, h.seller, h.now)).toEqual({
      totalSales: 3,
      totalRevenue: 302,
      averageSalePrice: 101,
      itemsSold: 3,
      last30DaysSales: 3,
      last30DaysRevenue: 302,
    });
    expect(salesSummary(h.tx, h.seller, h.now + 29 * DAY)).toMatchObject({
      last30DaysSales: 1,
      last30DaysRevenue: 101,
    });
    expect(salesSummary(h.tx, h.buyer, h.now)).toMatchObject({ totalSales: 0, averageSalePrice: 0 });
  });

  it('has one row per day of the window, oldest first, zeros included, and statistics of the window', () => {
    const h = sales([100, 200, 300]);
    const week = salesChart(h.tx, h.seller, { period: '1W', now: h.now });
    expect(week.values).toHaveLength(7);
    expect(week.values.at(-1)).toEqual({ date: formatDate(h.now), sales: 1, revenue: 300 });
    expect(week.values.slice(0, 4).every((r) => r.sales === 0 && r.revenue === 0)).toBe(true);
    expect(week.statistics).toEqual({ totalSales: 3, totalRevenue: 600 });
    const later = salesChart(h.tx, h.seller, { period: '1W', now: h.now + 5 * DAY });
    expect(later.statistics).toEqual({ totalSales: 2, totalRevenue: 500 });
    const all = salesChart(h.tx, h.seller, { period: 'All', now: h.now + 10 * DAY });
    expect(all.values[0]!.date).toBe(formatDate(h.now - 2 * DAY));
    expect(all.values).toHaveLength(13);
    expect(salesChart(h.tx, h.seller, { period: '1M', now: h.now }).values).toHaveLength(30);
  });
});
