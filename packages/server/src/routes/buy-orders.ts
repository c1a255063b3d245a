// Buy orders (seed: "Endpoints > Buy orders"). The amounts' limits and the messages for invalid
// numbers come from the document through the validation pipeline; the handlers apply the rules.
import { listOrders, orderOf, placeOrder, removeOrder, updateOrder } from '../domain/buy-orders.ts';
import { BUY_ORDERS } from '../domain/messages.ts';
import { fail, ok } from '../domain/tx.ts';
import { type AreaRoutes, type Ctx, callerOf } from '../http/context.ts';

const terms = (ctx: Ctx<'postItemBuyorder' | 'postItemBuyorderUpdate'>) => ({
  owner: callerOf(ctx).user.platformId,
  itemId: ctx.body.itemid,
  price: ctx.body.value,
  amount: ctx.body.amount,
  now: ctx.now,
});

export const buyOrderRoutes = {
  async postItemBuyorder(ctx) {
    const result = await ctx.run((tx) => placeOrder(tx, terms(ctx)));
    return result.ok ? ok({ details: 'Inserted' }) : result;
  },

  async postItemBuyorderUpdate(ctx) {
    const result = await ctx.run((tx) => updateOrder(tx, terms(ctx)));
    return result.ok ? ok('Buy order updated') : result;
  },

  async postItemBuyorderRemove(ctx) {
    const owner = callerOf(ctx).user.platformId;
    const result = await ctx.run((tx) => removeOrder(tx, owner, ctx.body.itemid, ctx.now));
    return result.ok ? ok({ details: 'Removed' }) : result;
  },

  getUserBuyorderItem(ctx) {
    const order = ctx.read((tx) => orderOf(tx, callerOf(ctx).user.platformId, ctx.params.item));
    return order ? ok({ informations: order }) : fail(BUY_ORDERS.notFound);
  },

  getUserGetBuyorder(ctx) {
    const query = {
      page: ctx.query.page ?? 0,
      count: ctx.query.count ?? 10,
      search: ctx.query.search,
      undercut: ctx.query.undercut === 'true' || ctx.query.undercut === '1',
      now: ctx.now,
    };
    return ok(ctx.read((tx) => listOrders(tx, callerOf(ctx).user.platformId, query)));
  },
} satisfies AreaRoutes;
