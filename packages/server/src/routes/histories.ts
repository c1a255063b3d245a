// Histories: balance, purchases, sales, the unified transaction history and its details, the sales
// summary and chart (seed: "User account"). Read-only; the engine is domain/histories.ts.
import {
  balanceHistory,
  purchaseHistory,
  salesChart,
  salesHistory,
  salesSummary,
  transactionDetails,
  transactionHistory,
} from '../domain/histories.ts';
import { ACCOUNT } from '../domain/messages.ts';
import { fail, ok } from '../domain/tx.ts';
import { type AreaRoutes, type BaseCtx, callerOf } from '../http/context.ts';
import { pageSize } from '../http/paging.ts';

const me = (ctx: BaseCtx) => callerOf(ctx).user.platformId;
/** The page and its size: the first of `names` the client sent (http/paging.ts), else 10. */
const paging = <Query extends { page?: number }>(
  ctx: BaseCtx & { query: Query },
  ...names: (keyof Query & string)[]
) => ({
  page: ctx.query.page ?? 0,
  size: pageSize(ctx, names),
});

export const historiesRoutes = {
  getUserGetBalanceHistory: (ctx) =>
    ok(ctx.read((tx) => balanceHistory(tx, me(ctx), { ...paging(ctx, 'count', 'limit'), type: ctx.query.type }))),

  getUserGetPurchaseHistory: (ctx) => ok(ctx.read((tx) => purchaseHistory(tx, me(ctx), paging(ctx, 'count')))),

  getUserGetSalesHistory: (ctx) => {
    const query = {
      ...paging(ctx, 'perPage'),
      range: ctx.query.range ?? 'all',
      search: ctx.query.search,
      now: ctx.now,
    };
    return ok(ctx.read((tx) => salesHistory(tx, me(ctx), query)));
  },

  getUserGetTransactionHistory: (ctx) =>
    ok(ctx.read((tx) => transactionHistory(tx, me(ctx), { ...paging(ctx, 'limit'), search: ctx.query.search }))),

  getUserGetTransactionDetails(ctx) {
    const { transactionId, type } = ctx.query;
    const transaction = ctx.read((tx) => transactionDetails(tx, me(ctx), transactionId, type));
    return transaction ? ok({ transaction }) : fail(ACCOUNT.transactionNotFound);
  },

  getUserGetSalesInfos: (ctx) => ok(ctx.read((tx) => salesSummary(tx, me(ctx), ctx.now))),

  getUserGetSalesChartInfos(ctx) {
    const period = ctx.query.period ?? '1M';
    const chart = ctx.read((tx) => salesChart(tx, me(ctx), { period, now: ctx.now }));
    const only = ctx.query.chart_only === '1' || ctx.query.chart_only === 'true';
    return ok(only ? { values: chart.values } : chart);
  },
} satisfies AreaRoutes;
