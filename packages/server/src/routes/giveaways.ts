// Giveaways (seed: "Endpoints > Giveaways", envelope B). Inputs are validated from the document
// before the handlers run; the engine applies the rules. Every handler first ends the giveaways
// past their end on the server clock (a unit of work of its own, so a refused request does not
// undo an ending): there are no background jobs (ADR 0007).
import {
  byUrl,
  createGiveaway,
  deleteComment,
  dueCount,
  endDue,
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
import { type Ctx, callerOf, type Handler, type Routes } from '../http/context.ts';

/** Ends the giveaways that are due, when there are any. */
async function settle(ctx: Ctx): Promise<void> {
  if (ctx.read((tx) => dueCount(tx, ctx.now)) > 0) await ctx.run((tx) => ok(endDue(tx, ctx.now)));
}

/** A handler that runs once the due giveaways have ended. */
const settled =
  (handler: Handler): Handler =>
  async (ctx) => {
    await settle(ctx);
    return handler(ctx);
  };

const me = (ctx: Ctx) => callerOf(ctx).user.platformId;
const page = (ctx: Ctx) => Number(ctx.query.page ?? 0);
const list = (kind: ListKind) => settled((ctx) => ok(ctx.read((tx) => listGiveaways(tx, kind, me(ctx), page(ctx)))));

/** A fresh 12-hex-character URL identifier no giveaway has. */
function freshUrl(ctx: Ctx): string {
  for (;;) {
    const url = ctx.deps.random.hex(6);
    if (!ctx.read((tx) => byUrl(tx, url))) return url;
  }
}

export const giveawaysRoutes: Routes = {
  getGiveaways: list('public'),
  getGiveawaysHistory: list('publicHistory'),
  getGiveawaysMy: list('mine'),
  getGiveawaysHistoryMy: list('myHistory'),
  getGiveawaysJoinedList: list('joined'),

  getGiveawaysDetailsUrl: settled((ctx) => ctx.read((tx) => giveawayDetails(tx, ctx.params.url!))),

  getGiveawaysIsInUrl: settled((ctx) => ctx.read((tx) => isIn(tx, ctx.params.url!, me(ctx)))),

  getGiveawaysCommentsUrl: settled((ctx) => ctx.read((tx) => listComments(tx, ctx.params.url!, page(ctx)))),

  postGiveawaysCreate: settled(async (ctx) => {
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
  }),

  postGiveawaysJoinUrl: settled((ctx) => ctx.run((tx) => join(tx, ctx.params.url!, me(ctx), ctx.now))),

  postGiveawaysLeaveUrl: settled((ctx) => ctx.run((tx) => leave(tx, ctx.params.url!, me(ctx), ctx.now))),

  postGiveawaysComment: settled((ctx) =>
    ctx.run((tx) => postComment(tx, { url: ctx.body.url, user: me(ctx), comment: ctx.body.comment, now: ctx.now })),
  ),

  postGiveawaysDeleteCommentId: settled((ctx) => ctx.run((tx) => deleteComment(tx, Number(ctx.params.id)))),
};
