// Histories (seed: "User account", "Balance transaction", "Purchase, sale, cashout records"): read
// models over the `ledger`, `sales` and `cashouts` collections. Nothing here writes. Each
// purchase, sale and cashout has exactly one ledger entry of its type (sale.ts, cashouts.ts), so
// the unified history walks the ledger and names those entries by their record: each event once.
import type { Schema } from '@marketplace/types';
import { DAY, dayStart, formatDate } from './dates.ts';
import type { LedgerEntry, Sale } from './state.ts';
import type { Tx } from './tx.ts';

export interface Paging {
  page: number;
  size: number;
}

const slice = <T>(rows: T[], p: Paging): T[] => rows.slice(p.page * p.size, (p.page + 1) * p.size);
const sum = (rows: readonly { price: number }[]) => rows.reduce((n, r) => n + r.price, 0);
const newestFirst = (a: { timestamp: number; id: number }, b: { timestamp: number; id: number }) =>
  b.timestamp - a.timestamp || b.id - a.id;

/** The user's ledger entries, newest first (IDs grow with every movement). */
const ledgerOf = (tx: Tx, user: string): Readonly<LedgerEntry>[] =>
  tx.find('ledgerByUser', user).sort((a, b) => b.id - a.id);

/** GET /user/getBalanceHistory: `{values, count}` on every page (the document's reference variant). */
export function balanceHistory(
  tx: Tx,
  user: string,
  query: Paging & { type?: LedgerEntry['type'] },
): Schema<'BalanceHistoryValuesPage'> {
  const rows = ledgerOf(tx, user).filter((e) => !query.type || e.type === query.type);
  return {
    values: slice(rows, query).map(({ user: _, ...entry }) => entry),
    count: rows.length,
  };
}

const salesWhere = (tx: Tx, side: 'buyer' | 'seller', user: string): Readonly<Sale>[] =>
  tx.find('salesByUser', `${side}:${user}`).sort(newestFirst);

const itemOf = (tx: Tx, itemId: number) => {
  const item = tx.get('items', itemId);
  return { name: item?.name ?? `item ${itemId}`, image: item?.image ?? '' };
};
const nameOf = (tx: Tx, user: string) => tx.get('users', user)?.name ?? '';

/** GET /user/getPurchaseHistory. */
export function purchaseHistory(tx: Tx, user: string, p: Paging): Schema<'PurchaseHistoryPage'> {
  const rows = salesWhere(tx, 'buyer', user);
  return {
    purchases: slice(rows, p).map((s) => {
      const item = itemOf(tx, s.item_id);
      return {
        id: s.id,
        itemName: item.name,
        itemImage: item.image,
        price: s.price,
        seller: s.seller,
        sellerName: nameOf(tx, s.seller),
        timestamp: String(s.timestamp),
        status: 'completed',
      };
    }),
    total: rows.length,
    page: p.page,
    perpage: p.size,
    totalSpent: sum(rows),
  };
}

/** Days of each `range` of GET /user/getSalesHistory (the document's design). */
export const SALES_RANGES = { '7d': 7, '30d': 30, '90d': 90, '1y': 365, all: null } as const;
export type SalesRange = keyof typeof SALES_RANGES;

/** GET /user/getSalesHistory: `range` and `search` filter the rows and the totals. */
export function salesHistory(
  tx: Tx,
  user: string,
  query: Paging & { range: SalesRange; search?: string; now: number },
): Schema<'SalesHistoryPage'> {
  const days = SALES_RANGES[query.range];
  const needle = query.search?.toLowerCase();
  const rows = salesWhere(tx, 'seller', user)
    .filter((s) => days === null || s.timestamp > query.now - days * DAY)
    .map((s) => ({ sale: s, item: itemOf(tx, s.item_id) }))
    .filter((r) => !needle || r.item.name.toLowerCase().includes(needle));
  return {
    sales: slice(rows, query).map(({ sale: s, item }) => ({
      id: s.id,
      itemName: item.name,
      itemImage: item.image,
      price: s.price,
      buyer: s.buyer,
      buyerName: nameOf(tx, s.buyer),
      timestamp: String(s.timestamp),
      status: 'completed',
    })),
    total: rows.length,
    page: query.page,
    perpage: query.size,
    totalRevenue: sum(rows.map((r) => r.sale)),
  };
}

type HistoryEntry = Schema<'TransactionHistoryEntry'>;

/** A ledger entry as a unified history entry, named by its sale or cashout record when it has one. */
function historyEntry(tx: Tx, e: Readonly<LedgerEntry>): HistoryEntry {
  const base = { amount: e.amount, timestamp: e.timestamp };
  if (e.type === 'purchase' || e.type === 'sale') {
    const sale = tx.get('sales', e.relatedId);
    if (sale) {
      const label = e.type === 'purchase' ? 'Purchase' : 'Sale';
      const description = `${label}: ${itemOf(tx, sale.item_id).name}`;
      return { id: `${e.type}-${sale.id}`, kind: e.type, type: e.type, description, relatedId: sale.item_id, ...base };
    }
  }
  if (e.type === 'cashout') {
    const cashout = tx.get('cashouts', e.relatedId);
    if (cashout) {
      const description = `Cashout to ${cashout.method}`;
      return {
        id: `cashout-${cashout.id}`,
        kind: 'cashout',
        type: 'cashout',
        description,
        relatedId: cashout.id,
        ...base,
      };
    }
  }
  const relatedId = e.relatedId === 0 ? null : e.relatedId;
  return { id: `balance-${e.id}`, kind: 'balance', type: e.type, description: e.description, relatedId, ...base };
}

/** GET /user/getTransactionHistory: the ledger, newest first, each event once. */
export function transactionHistory(tx: Tx, user: string, query: Paging & { search?: string }) {
  const needle = query.search?.toLowerCase();
  const rows = ledgerOf(tx, user)
    .map((e) => historyEntry(tx, e))
    .filter((e) => !needle || e.description.toLowerCase().includes(needle));
  return { transactions: slice(rows, query), total: rows.length, page: query.page, perpage: query.size };
}

type Details = Schema<'TransactionDetails'>;

/**
 * The trade that delivered (the seller's deposit) or withdrew (the buyer's withdrawal) the asset of
 * a sale, newest first; null when there is none.
 */
function tradeOfSale(tx: Tx, sale: Readonly<Sale>, side: 'buyer' | 'seller'): Details['tradeOffer'] {
  const user = sale[side];
  const entries = new Set(tx.find('assetsByAssetId', sale.assetId).map((a) => String(a.id)));
  const trade = tx
    .find('tradesByUser', user)
    .filter((t) =>
      side === 'seller'
        ? t.kind === 'deposit' && t.assetIds.includes(sale.assetId) && t.created <= sale.timestamp
        : t.kind === 'withdraw' && t.assetIds.some((id) => entries.has(id)) && t.created >= sale.timestamp,
    )
    .sort((a, b) => b.id - a.id)[0];
  if (!trade) return null;
  return {
    tradeId: trade.id,
    status: trade.status,
    completedAt: trade.completedAt === null ? null : String(trade.completedAt),
  };
}

function saleDetails(tx: Tx, user: string, kind: 'purchase' | 'sale', id: number): Details | null {
  const sale = tx.get('sales', id);
  const side = kind === 'purchase' ? 'buyer' : 'seller';
  if (!sale || sale[side] !== user) return null;
  const item = tx.get('items', sale.item_id);
  const buyer = tx.get('users', sale.buyer);
  return {
    id: `${kind}-${sale.id}`,
    type: kind,
    amount: kind === 'purchase' ? -sale.price : sale.price - sale.fee,
    timestamp: String(sale.timestamp),
    status: 'completed',
    item: { id: sale.item_id, name: item?.name ?? '', image: item?.image ?? '', assetId: sale.assetId },
    buyer: buyer ? { platformId: buyer.platformId, name: buyer.name, avatar: buyer.image } : null,
    tradeOffer: tradeOfSale(tx, sale, side),
  };
}

function ledgerDetails(tx: Tx, user: string, id: number): Details | null {
  const entry = tx.get('ledger', id);
  if (!entry || entry.user !== user || historyEntry(tx, entry).id !== `balance-${id}`) return null;
  const base = { amount: entry.amount, timestamp: entry.timestamp, status: 'completed' };
  return {
    id: `balance-${id}`,
    type: entry.type === 'deposit' ? 'deposit' : 'balance',
    ...base,
    item: null,
    buyer: null,
    tradeOffer: null,
  };
}

/**
 * GET /user/getTransactionDetails: `transactionId` is a unified history entry's `id`. Null (the
 * caller answers `Transaction not found or access denied`) for an unknown ID, another user's
 * transaction, or a `type` that differs.
 */
export function transactionDetails(
  tx: Tx,
  user: string,
  transactionId: string,
  type?: Details['type'],
): Details | null {
  const match = /^(balance|purchase|sale|cashout)-([0-9]{1,15})$/.exec(transactionId);
  if (!match) return null;
  const id = Number(match[2]);
  let details: Details | null = null;
  if (match[1] === 'purchase' || match[1] === 'sale') details = saleDetails(tx, user, match[1], id);
  else if (match[1] === 'balance') details = ledgerDetails(tx, user, id);
  else {
    const cashout = tx.get('cashouts', id);
    if (cashout && cashout.user === user)
      details = {
        id: transactionId,
        type: 'cashout',
        amount: -(cashout.amount + cashout.fee),
        timestamp: String(cashout.requestedAt),
        status: cashout.status,
        item: null,
        buyer: null,
        tradeOffer: null,
      };
  }
  return details && (!type || details.type === type) ? details : null;
}

/** GET /user/getSalesInfos, first description: revenues are sale prices (before the fee). */
export function salesSummary(tx: Tx, user: string, now: number): Schema<'SalesSummary'> {
  const sales = salesWhere(tx, 'seller', user);
  const recent = sales.filter((s) => s.timestamp > now - 30 * DAY);
  const revenue = sum(sales);
  return {
    totalSales: sales.length,
    totalRevenue: revenue,
    averageSalePrice: sales.length === 0 ? 0 : Math.round(revenue / sales.length),
    itemsSold: sales.length,
    last30DaysSales: recent.length,
    last30DaysRevenue: sum(recent),
  };
}

/** Days of each chart `period`; `All` starts at the day of the first sale. */
export const CHART_PERIODS = { '1W': 7, '1M': 30, '1Y': 365, All: null } as const;
export type ChartPeriod = keyof typeof CHART_PERIODS;

/** GET /user/getSalesChartInfos: one row per UTC day of the window, oldest first, zeros included. */
export function salesChart(tx: Tx, user: string, query: { period: ChartPeriod; now: number }) {
  const sales = salesWhere(tx, 'seller', user);
  const today = dayStart(query.now);
  const days = CHART_PERIODS[query.period];
  const first = days === null ? Math.min(today, ...sales.map((s) => dayStart(s.timestamp))) : today - (days - 1) * DAY;
  const rows = new Map<number, { date: string; sales: number; revenue: number }>();
  for (let d = first; d <= today; d += DAY) rows.set(d, { date: formatDate(d), sales: 0, revenue: 0 });
  let totalSales = 0;
  let totalRevenue = 0;
  for (const s of sales) {
    const row = rows.get(dayStart(s.timestamp));
    if (!row) continue;
    row.sales += 1;
    row.revenue += s.price;
    totalSales += 1;
    totalRevenue += s.price;
  }
  return { values: [...rows.values()], statistics: { totalSales, totalRevenue } };
}
