// Login and sessions (seed: "Authentication and session").

import { createHash } from 'node:crypto';
import { signToken } from '../auth/jwt.ts';
import { LOGIN, SESSIONS } from '../domain/messages.ts';
import { disconnectOthers, disconnectSession, listSessions, login } from '../domain/sessions.ts';
import { ok } from '../domain/tx.ts';
import { type AreaRoutes, type Ctx, callerOf } from '../http/context.ts';
import { pageSize } from '../http/paging.ts';
import { rateLimitedReply } from '../http/rate-limited.ts';
import type { Verdict } from '../rate-limit.ts';

/**
 * The login limits of the document (`x-rate-limit` of POST /user/login): failed attempts per IP,
 * checked before the attempt and counted when the key is refused, and every attempt per API key
 * (by its hash: the limiter keeps no key). Over either, the seed's 429 with its headers.
 */
async function loginLimited(ctx: Ctx<'postUserLogin'>): Promise<Verdict | undefined> {
  const rules = ctx.op.rateLimits;
  const perIp = rules.find((r) => r.scope === 'ip');
  if (perIp) {
    const verdict = await ctx.deps.limiter.peek(`login:ip:${ctx.ip}`, perIp.limit, perIp.window);
    if (!verdict.allowed) return verdict;
  }
  const perKey = rules.find((r) => r.scope === 'apiKey');
  if (perKey && typeof ctx.body.apiKey === 'string') {
    const key = createHash('sha256').update(ctx.body.apiKey).digest('hex');
    const verdict = await ctx.deps.limiter.hit(`login:key:${key}`, perKey.limit, perKey.window);
    if (!verdict.allowed) return verdict;
  }
  return undefined;
}

export const authRoutes = {
  async postUserLogin(ctx) {
    const limited = await loginLimited(ctx);
    if (limited) return rateLimitedReply(ctx.req.res!, limited);
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
    if (!result.ok) {
      const perIp = ctx.op.rateLimits.find((r) => r.scope === 'ip');
      if (perIp && result.error === LOGIN.invalidApiKey)
        await ctx.deps.limiter.hit(`login:ip:${ctx.ip}`, perIp.limit, perIp.window);
      return result;
    }
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
