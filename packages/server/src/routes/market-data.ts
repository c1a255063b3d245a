// Market data routes (seed: "Endpoints > Items", "Limits"): the per-game price list, the public
// price list (JSON or CSV), the public sales feed, the compact price list and the staff list.
import { compactPriceList, itemPriceList, priceListCsv, publicPriceList } from '../domain/price-lists.ts';
import { publicSales } from '../domain/public-sales.ts';
import { ok } from '../domain/tx.ts';
import { staffList } from '../domain/users.ts';
import type { AreaRoutes, BaseCtx } from '../http/context.ts';

/**
 * Whether `update=1` forces a refresh. The document's `x-rate-limit` allows it once per window per
 * IP and, beyond that, serves the cached list (`exceeded: serve-cached`): the contract counts the
 * requests with update=1 and says when one is beyond (`ctx.servesCached`).
 */
const mayRefresh = (ctx: BaseCtx & { query: { update?: '1' } }): boolean =>
  ctx.query.update === '1' && !ctx.servesCached;

export const marketDataRoutes = {
  // Its limit of 1 request per 5 minutes per API key is the pipeline's (x-rate-limit, reject).
  getItemPrices: (ctx) => ok(ctx.read((tx) => itemPriceList(tx, ctx.query.game, ctx.query.outofstock === 1))),

  getPublicPrice(ctx) {
    const force = mayRefresh(ctx);
    const list = ctx.read((tx) => publicPriceList(tx, ctx.deps.caches, { now: ctx.now, force }));
    const { game } = ctx.query;
    const prices = game === undefined ? list.value : list.value.filter((r) => r.game === game);
    if (ctx.query.format === 'csv') return { ok: true, raw: { contentType: 'text/csv', body: priceListCsv(prices) } };
    return ok({ lastUpdate: list.at, itemCount: prices.length, prices });
  },

  getPublicSales: (ctx) =>
    ok(
      ctx.read((tx) =>
        publicSales(tx, {
          game: ctx.query.game,
          limit: ctx.query.limit ?? 100,
          since: ctx.query.since,
          now: ctx.now,
        }),
      ),
    ),

  getInfosPricesBuyorderAndLowestSales(ctx) {
    const force = mayRefresh(ctx);
    return ok({ prices: ctx.read((tx) => compactPriceList(tx, ctx.deps.caches, { now: ctx.now, force })).value });
  },

  getInfosAdmin: (ctx) => ok(ctx.read(staffList)),
} satisfies AreaRoutes;
