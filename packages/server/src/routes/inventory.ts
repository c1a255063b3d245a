// Inventory (seed: "Endpoints > Inventory"): the caller's grouped rows on sale and in inventory, and
// pricing, which sells into matching buy orders (domain/inventory.ts, domain/matching.ts).
// POST /inventory/withdraw sends a trade offer and lives with the trades (routes/trades.ts).
import { inventoryRows, priceAssets } from '../domain/inventory.ts';
import { ok } from '../domain/tx.ts';
import { type AreaRoutes, type BaseCtx, callerOf } from '../http/context.ts';

const rows = (ctx: BaseCtx, state: 0 | 1) =>
  ok(ctx.read((tx) => inventoryRows(tx, callerOf(ctx).user.platformId, state)));

export const inventoryRoutes = {
  getInventoryOnSale: (ctx) => rows(ctx, 1),

  getInventoryOnInventory: (ctx) => rows(ctx, 0),

  async postInventoryPrice(ctx) {
    const owner = callerOf(ctx).user.platformId;
    const result = await ctx.run((tx) =>
      priceAssets(tx, { owner, ids: ctx.body.ids, price: ctx.body.price, now: ctx.now }),
    );
    return result.ok ? ok({ message: result.value.message }) : result;
  },
} satisfies AreaRoutes;
