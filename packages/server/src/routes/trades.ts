// Trades: withdrawals, the trade lists, resend and the admin revert (seed: "Inventory" withdraw,
// "Trading", "Administration"; the document's Trade).
import { listTrades, resendTrade, revertTrade, withdraw } from '../domain/trades.ts';
import { ok } from '../domain/tx.ts';
import { type AreaRoutes, type Ctx, callerOf } from '../http/context.ts';

const page = (ctx: Ctx<'getTradesActive' | 'getTradesAll'>, which: 'active' | 'all') =>
  ok(
    ctx.read((tx) => listTrades(tx, callerOf(ctx).user.platformId, which, ctx.query.page ?? 0, ctx.query.count ?? 10)),
  );

export const tradesRoutes = {
  async postInventoryWithdraw(ctx) {
    const user = callerOf(ctx).user.platformId;
    const result = await ctx.run((tx) => withdraw(tx, user, ctx.body.ids, ctx.now));
    if (!result.ok) return result;
    const { message, updated, locked } = result.value;
    return ok({ message, updated, locked });
  },

  getTradesActive: (ctx) => page(ctx, 'active'),
  getTradesAll: (ctx) => page(ctx, 'all'),

  getTradesResend(ctx) {
    const user = callerOf(ctx).user.platformId;
    return ctx.run((tx) => resendTrade(tx, user, ctx.query.id, ctx.now));
  },

  postAdminRevertTradeTrade(ctx) {
    return ctx.run((tx) => revertTrade(tx, ctx.params.trade, ctx.now));
  },
} satisfies AreaRoutes;
