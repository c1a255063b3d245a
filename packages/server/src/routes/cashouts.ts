// Cashouts and payout methods (seed: "Cashout", GET /user/getCashoutHistory; the link, unlink,
// methods and cancel operations are the document's extensions). Input types, the minimum amount
// and the e-mail format are validated from the document; the engine (domain/cashouts.ts) applies
// the rules and moves the money.
import {
  cancelCashout,
  cashoutHistory,
  cashoutView,
  linkedMethods,
  linkMethod,
  requestCashout,
  unlinkMethod,
} from '../domain/cashouts.ts';
import { ok } from '../domain/tx.ts';
import { type AreaRoutes, type BaseCtx, callerOf } from '../http/context.ts';
import { pageSize } from '../http/paging.ts';

const me = (ctx: BaseCtx) => callerOf(ctx).user.platformId;

export const cashoutsRoutes = {
  postCashoutProcess(ctx) {
    const { amount, method, email } = ctx.body;
    return ctx.run((tx) =>
      requestCashout(tx, { user: me(ctx), amount, method, email: email || undefined, now: ctx.now }),
    );
  },

  async postCashoutCancel(ctx) {
    const result = await ctx.run((tx) => cancelCashout(tx, me(ctx), ctx.body.cashoutId, ctx.now));
    return result.ok ? ok({ message: 'Cashout cancelled', cashout: cashoutView(result.value) }) : result;
  },

  async postCashoutLink(ctx) {
    const result = await ctx.run((tx) => linkMethod(tx, me(ctx), ctx.body.method, ctx.body.email, ctx.now));
    return result.ok ? ok({ message: 'Payment method linked', method: result.value }) : result;
  },

  async postCashoutUnlink(ctx) {
    const result = await ctx.run((tx) => unlinkMethod(tx, me(ctx), ctx.body.method));
    return result.ok ? ok({ message: 'Payment method unlinked' }) : result;
  },

  getCashoutMethods(ctx) {
    return ok({ methods: linkedMethods(callerOf(ctx).user) });
  },

  getUserGetCashoutHistory(ctx) {
    const page = ctx.query.page ?? 0;
    return ok(ctx.read((tx) => cashoutHistory(tx, me(ctx), page, pageSize(ctx, ['count', 'perpage', 'limit']))));
  },
} satisfies AreaRoutes;
