// Cart (seed: "Cart", "Cart row") and the checkout extension (POST /cart/checkout). Missing and
// invalid parameters are answered from the document by the validation pipeline; the engine
// (domain/cart.ts) applies the rules, and checkout sells through the sale primitive.
import { addBulk, addToCart, type CartRowView, cartOf, checkout, removeRow, updateCart } from '../domain/cart.ts';
import { CART } from '../domain/messages.ts';
import { type Failure, fail, ok, type Result } from '../domain/tx.ts';
import { type AreaRoutes, type BaseCtx, callerOf } from '../http/context.ts';

const me = (ctx: BaseCtx) => callerOf(ctx).user.platformId;
/** A cart answer: `content.cart`. */
const asCart = <E extends Failure>(result: Result<CartRowView[], E>) =>
  result.ok ? ok({ cart: result.value }) : result;

export const cartRoutes = {
  getCartGet(ctx) {
    return ok({ cart: ctx.read((tx) => cartOf(tx, me(ctx))) });
  },

  async postCartAdd(ctx) {
    return asCart(await ctx.run((tx) => addToCart(tx, me(ctx), ctx.body.assetId, ctx.now)));
  },

  async postCartBulk(ctx) {
    const query = {
      itemId: ctx.body.itemId,
      count: ctx.body.count,
      seller: ctx.body.sellerUserId,
      now: ctx.now,
    };
    return asCart(await ctx.run((tx) => addBulk(tx, me(ctx), query)));
  },

  async postCartRemove(ctx) {
    return asCart(await ctx.run((tx) => removeRow(tx, me(ctx), ctx.body.cartId)));
  },

  postCartUpdate(ctx) {
    // Seed: `Cannot update cart` when the update fails unexpectedly; nothing of it is kept.
    return ctx.run((tx) => {
      try {
        return updateCart(tx, me(ctx));
      } catch {
        return fail(CART.cannotUpdate);
      }
    });
  },

  postCartCheckout(ctx) {
    return ctx.run((tx) => checkout(tx, me(ctx), ctx.now));
  },
} satisfies AreaRoutes;
