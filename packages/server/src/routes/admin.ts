// Admin: bans and the platform inventory (seed: "Administration", envelope B). The trade revert
// and support routes are registered by their own areas. Required inputs and their forms are
// validated from the document; the engine (domain/bans.ts) applies the rules.
import { banHistory, banUser, platformInventoryView } from '../domain/bans.ts';
import { ok } from '../domain/tx.ts';
import { type AreaRoutes, callerOf } from '../http/context.ts';

export const adminRoutes = {
  postAdminBan(ctx) {
    const { platformId, time, reason } = ctx.body;
    const admin = callerOf(ctx).user.platformId;
    return ctx.run((tx) => banUser(tx, { admin, platformId: String(platformId), time, reason, now: ctx.now }));
  },

  getAdminBanList(ctx) {
    const { platformId } = ctx.query;
    return ok({ platformId, bans: ctx.read((tx) => banHistory(tx, platformId, ctx.now)) });
  },

  getAdminGetSteamInventory(ctx) {
    const { platformId, game } = ctx.query;
    const assets = ctx.deps.platform.inventory(platformId, game);
    return ok({ platformId, game, assets: ctx.read((tx) => platformInventoryView(tx, assets)) });
  },
} satisfies AreaRoutes;
