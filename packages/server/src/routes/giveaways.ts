// Giveaways (seed: "Endpoints > Giveaways", envelope B). Inputs are validated from the document
// before the handlers run; the engine applies the rules. Giveaways past their end on the server
// clock have been ended before any handler runs (http/due-work.ts, ADR 0007).
import {
  byUrl,
  createGiveaway,
  deleteComment,
  giveawayDetails,
  isIn,
  join,
  type ListKind,
  leave,
  listComments,
  listGiveaways,
  postComment,
} from '../domain/giveaways.ts';
import { ok } from '../domain/tx.ts';
import { type AreaRoutes, type BaseCtx, callerOf } from '../http/context.ts';

const me = (ctx: BaseCtx) => callerOf(ctx).user.platformId;
const list = (kind: ListKind) => (ctx: BaseCtx & { query: { page?: number } }) =>
  ok(ctx.read((tx) => listGiveaways(tx, kind, me(ctx), ctx.query.page ?? 0)));

/** A fresh 12-hex-character URL identifier no giveaway has. */
function freshUrl(ctx: BaseCtx): string {
  for (;;) {
    const url = ctx.deps.random.hex(6);
    if (!ctx.read((tx) => byUrl(tx, url))) return url;
  }
}

export const giveawaysRoutes = {
  getGiveaways: list('public'),
  getGiveawaysHistory: list('publicHistory'),
  getGiveawaysMy: list('mine'),
  getGiveawaysHistoryMy: list('myHistory'),
  getGiveawaysJoinedList: list('joined'),

  getGiveawaysDetailsUrl: (ctx) => ctx.read((tx) => giveawayDetails(tx, ctx.params.url)),

  getGiveawaysIsInUrl: (ctx) => ctx.read((tx) => isIn(tx, ctx.params.url, me(ctx))),

  getGiveawaysCommentsUrl: (ctx) => ctx.read((tx) => listComments(tx, ctx.params.url, ctx.query.page ?? 0)),

  postGiveawaysCreate: async (ctx) => {
    const b = ctx.body;
    const input = {
      owner: me(ctx),
      name: b.name,
      maxEntries: b.maxEntries,
      type: b.type,
      descriptionBefore: b.descriptionBefore,
      descriptionAfter: b.descriptionAfter,
      duration: b.duration,
      items: b.items,
      chatVerification: b.chatVerification,
      url: freshUrl(ctx),
      serverSeed: ctx.deps.random.hex(32),
      now: ctx.now,
    };
    const result = await ctx.run((tx) => createGiveaway(tx, input));
    return result.ok ? ok({ message: 'Giveaway created', giveaway: result.value }) : result;
  },

  postGiveawaysJoinUrl: (ctx) => ctx.run((tx) => join(tx, ctx.params.url, me(ctx), ctx.now)),

  postGiveawaysLeaveUrl: (ctx) => ctx.run((tx) => leave(tx, ctx.params.url, me(ctx), ctx.now)),

  postGiveawaysComment: (ctx) =>
    ctx.run((tx) => postComment(tx, { url: ctx.body.url, user: me(ctx), comment: ctx.body.comment, now: ctx.now })),

  postGiveawaysDeleteCommentId: (ctx) => ctx.run((tx) => deleteComment(tx, ctx.params.id)),
} satisfies AreaRoutes;
