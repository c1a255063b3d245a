// Account settings (seed: "User account"), e-mail change and 2FA. Field formats and ranges are
// checked from the document before a handler runs; the handlers apply the rules through the engine.
import {
  accountInfos,
  closePaymentAlert,
  closePaymentReviews,
  csvToken,
  notificationsOf,
  registerAffiliateClick,
  setMailNotificationStatus,
  setMailNotifications,
  setPrivacy,
  setTradeUrl,
  updateShortUrl,
} from '../domain/account.ts';
import { requestEmailChange, validateEmailChange } from '../domain/email-change.ts';
import { activate, askReset, createSecret, validateReset } from '../domain/two-factor.ts';
import { ok } from '../domain/tx.ts';
import { type AreaRoutes, type BaseCtx, callerOf } from '../http/context.ts';

const me = (ctx: BaseCtx) => callerOf(ctx).user.platformId;

/** Where the stores live: the configured site URL, else this server's own address. */
const siteUrl = (ctx: BaseCtx) => ctx.deps.config.siteUrl ?? `${ctx.req.protocol}://${ctx.req.get('host')}`;

export const accountRoutes = {
  getUserInfos: (ctx) => ok({ informations: ctx.read((tx) => accountInfos(tx, callerOf(ctx).user)) }),

  getUserBalance: (ctx) => ok({ balance: callerOf(ctx).user.balance }),

  getUserNotifications(ctx) {
    const opts = {
      unreadOnly: ctx.query.unreadOnly === true,
      limit: ctx.query.limit ?? 20,
    };
    return ok(ctx.read((tx) => notificationsOf(tx, me(ctx), opts)));
  },

  getUserGetContactMail: (ctx) => ok({ address: callerOf(ctx).user.email }),

  getUserGenerateCSVToken: (ctx) => ok({ token: csvToken(me(ctx), ctx.deps.random.hex(32), ctx.now) }),

  postUserClosePaymentAlert: (ctx) => ctx.run((tx) => closePaymentAlert(tx, me(ctx), ctx.body.id)),

  postUserClosePaymentReviews: (ctx) => ctx.run((tx) => closePaymentReviews(tx, me(ctx))),

  postUserSetAffiliates: (ctx) =>
    ctx.run((tx) => registerAffiliateClick(tx, { code: ctx.body.code, user: ctx.caller?.user.platformId, ip: ctx.ip })),

  postUserSetMailNotification: (ctx) => ctx.run((tx) => setMailNotifications(tx, me(ctx), ctx.body.notifications)),

  postUserSetMailNotificationStatus: (ctx) => ctx.run((tx) => setMailNotificationStatus(tx, me(ctx), ctx.body.enabled)),

  postUserSetPrivacySetting: (ctx) => ctx.run((tx) => setPrivacy(tx, me(ctx), ctx.body.settings)),

  postUserSetTradeUrl: (ctx) => ctx.run((tx) => setTradeUrl(tx, me(ctx), ctx.body.tradeUrl)),

  async postUserUpdateShortUrl(ctx) {
    const result = await ctx.run((tx) => updateShortUrl(tx, me(ctx), ctx.body.shortUrl, ctx.now));
    if (!result.ok) return result;
    const { shortUrl, message } = result.value;
    return ok({ shortUrl, fullUrl: `${siteUrl(ctx)}/u/${shortUrl}`, message });
  },

  // E-mail change (Connected + API + 2FA: the pipeline lets an API JWT through).
  postUserEmailChangeRequest: (ctx) =>
    ctx.run((tx) =>
      requestEmailChange(tx, {
        user: me(ctx),
        email: ctx.body.email,
        code: ctx.deps.random.digits(6),
        codeKey: ctx.deps.codeKey,
        now: ctx.now,
      }),
    ),

  postUserEmailChangeValidate: (ctx) =>
    ctx.run((tx) =>
      validateEmailChange(tx, {
        user: me(ctx),
        session: callerOf(ctx).session.id,
        code: ctx.body.code,
        codeKey: ctx.deps.codeKey,
        now: ctx.now,
      }),
    ),

  // Two-factor authentication, second variant (envelope A).
  getUser2FACreate(ctx) {
    const input = {
      user: me(ctx),
      secretBytes: Buffer.from(ctx.deps.random.hex(20), 'hex'),
      key: ctx.deps.random.hex(8),
      now: ctx.now,
      sealer: ctx.deps.sealer,
    };
    return ctx.run((tx) => createSecret(tx, input));
  },

  postUser2FAValidate: (ctx) =>
    ctx.run((tx) =>
      activate(tx, {
        user: me(ctx),
        key: ctx.body.secret,
        code: ctx.body.code,
        email: ctx.body.email,
        now: ctx.now,
        sealer: ctx.deps.sealer,
      }),
    ),

  postUserReset2FAAsk: (ctx) =>
    ctx.run((tx) =>
      askReset(tx, { user: me(ctx), code: ctx.deps.random.digits(6), codeKey: ctx.deps.codeKey, now: ctx.now }),
    ),

  postUserReset2FAValidate: (ctx) =>
    ctx.run((tx) =>
      validateReset(tx, {
        user: me(ctx),
        requestId: ctx.body.requestId,
        code: ctx.body.code,
        codeKey: ctx.deps.codeKey,
        now: ctx.now,
      }),
    ),
} satisfies AreaRoutes;
