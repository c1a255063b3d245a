// Item routes (seed: "Endpoints > Items"): details, listings and their counts, buy order tiers,
// backpack details, pricing and the sales graph, plus the public store card. The pipeline has
// validated every parameter against the document; the rules live in the domain modules.
import { backpackDetails } from '../domain/backpack-details.ts';
import { buyOrderTiers } from '../domain/buy-orders.ts';
import { findItem, itemView } from '../domain/catalog.ts';
import { listingCount, listingPage } from '../domain/listings.ts';
import { bulkPricing, itemPricing } from '../domain/pricing.ts';
import { salesGraph } from '../domain/sales-graph.ts';
import { type Failure, ok, type Result } from '../domain/tx.ts';
import { storeInfo } from '../domain/users.ts';
import type { AreaRoutes, BaseCtx, Ctx } from '../http/context.ts';

/** Whether the caller is an administrator (who sees the sellers' `user` and `ip`; seed: Listing). */
const isAdmin = (ctx: BaseCtx): boolean => ctx.caller?.user.admin === true;

/** The `informations` wrapper most item answers use. */
const informations = <T, E extends Failure>(result: Result<T, E>): Result<{ informations: T }, E> =>
  result.ok ? ok({ informations: result.value }) : result;

// `game` (440 or 730) selects "joined extra information" the seed does not describe; every
// listing already carries its wear and inspection values, so it changes nothing here (ADR 0004).
/** The seller filter of the `/{userid}` variants; the other variant has none. */
// The handlers below serve two operations each: plain functions, not `Handler<A | B>`, so that each
// key of the table checks them against its own operation (its documented messages among them).
const sellerOf = (params: { item: number; userid?: string }): string | undefined => params.userid;

const listings = (ctx: Ctx<'getItemListingItem' | 'getItemListingItemUserid'>) =>
  ok(
    ctx.read((tx) =>
      listingPage(tx, {
        itemId: ctx.params.item,
        seller: sellerOf(ctx.params),
        page: ctx.query.page ?? 0,
        count: ctx.query.count ?? 10,
        admin: isAdmin(ctx),
      }),
    ),
  );

const count = (ctx: Ctx<'getItemListingCountItem' | 'getItemListingCountItemUserid'>) =>
  ok({ count: ctx.read((tx) => listingCount(tx, ctx.params.item, sellerOf(ctx.params))) });

const details = (ctx: Ctx<'getItemDetailsFromidBackpackid' | 'getItemCsDetailsFromidBackpackid'>) =>
  informations(ctx.read((tx) => backpackDetails(tx, ctx.params.backpackid, isAdmin(ctx))));

export const itemRoutes = {
  getItemDetailsItem: (ctx) =>
    informations(
      ctx.read((tx) => {
        const found = findItem(tx, ctx.params.item);
        return found.ok ? ok(itemView(found.value)) : found;
      }),
    ),

  getItemListingItem: listings,
  getItemListingItemUserid: listings,
  getItemListingCountItem: count,
  getItemListingCountItemUserid: count,

  getItemBuyorderListItem: (ctx) => ok({ informations: ctx.read((tx) => buyOrderTiers(tx, ctx.params.item)) }),

  getItemDetailsFromidBackpackid: details,
  getItemCsDetailsFromidBackpackid: details,

  getItemPricingItem: (ctx) => ctx.read((tx) => itemPricing(tx, ctx.deps.caches, ctx.params.item, ctx.now)),

  getItemPricingBulk(ctx) {
    const ids = ctx.query.items.split(',').map(Number);
    return ok(ctx.read((tx) => bulkPricing(tx, ctx.deps.caches, ids, ctx.now)));
  },

  getItemSalesGraphItem: (ctx) =>
    ok({ values: ctx.read((tx) => salesGraph(tx, ctx.params.item, ctx.query.period, ctx.now)) }),

  getUserStoreIdentifier: (ctx) => ctx.read((tx) => storeInfo(tx, ctx.params.identifier)),
} satisfies AreaRoutes;
