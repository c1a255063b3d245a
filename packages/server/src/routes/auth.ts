// Login and sessions (seed: "Authentication and session"). The login's limits (its `x-rate-limit`:
// refused keys per IP, attempts per API key) are counted by the contract's OperationLimits, around
// this handler: it answers `Invalid API key`, and the limits count that answer.

import { signToken } from '../auth/jwt.ts';
import { SESSIONS } from '../domain/messages.ts';
import { disconnectOthers, disconnectSession, listSessions, login } from '../domain/sessions.ts';
import { ok } from '../domain/tx.ts';
import { type AreaRoutes, callerOf } from '../http/context.ts';
import { pageSize } from '../http/paging.ts';

export const authRoutes = {
  async postUserLogin(ctx) {
    const jti = ctx.deps.random.hex(16);
    const country = ctx.deps.geoip.country(ctx.ip);
    const result = await ctx.run((tx) =>
      login(tx, {
        apiKey: ctx.body.apiKey,
        ip: ctx.ip,
        country,
        userAgent: ctx.req.get('user-agent') ?? '',
        blockedCountries: ctx.deps.config.blockedCountries,
        jti,
        now: ctx.now,
      }),
    );
    if (!result.ok) return result;
    const { user } = result.value;
    const jwt = await signToken(ctx.deps.jwtSecret, {
      sub: user.platformId,
      jti,
      ip: ctx.ip,
      proxy: ctx.req.ips.length > 0,
      country,
      roles: user.admin ? ['user', 'admin'] : ['user'],
      now: ctx.now,
    });
    return ok({ jwt });
  },

  async getUserDisconnect(ctx) {
    const { session, user } = callerOf(ctx);
    await ctx.run((tx) => disconnectSession(tx, user.platformId, session.id));
    return ok({ disconnect: true });
  },

  async getUserDisconnectSessionAll(ctx) {
    const { session, user } = callerOf(ctx);
    await ctx.run((tx) => ok(disconnectOthers(tx, user.platformId, session.id)));
    return ok({ message: SESSIONS.allDisconnected });
  },

  async getUserDisconnectSessionId(ctx) {
    const { user } = callerOf(ctx);
    const result = await ctx.run((tx) => disconnectSession(tx, user.platformId, ctx.params.id));
    return result.ok ? ok({ message: result.value }) : result;
  },

  getUserIpList(ctx) {
    const { session, user } = callerOf(ctx);
    const options = {
      page: ctx.query.page ?? 0,
      // The seed accepts the page size as `perPage` or `perpage`.
      perPage: pageSize(ctx, ['perPage', 'perpage']),
      includeExpired: ctx.query.expire === 'true',
      now: ctx.now,
    };
    return ok(ctx.read((tx) => listSessions(tx, user.platformId, session.id, options)));
  },
} satisfies AreaRoutes;
