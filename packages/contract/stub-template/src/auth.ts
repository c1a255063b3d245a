// The authentication hook the gate calls before an operation's permission level is checked: who
// sends this request? Here, a bearer token of a login session in the store, bound to the login IP
// and valid about 31 days (seed: Authentication). `issueToken` is what a login handler calls: a
// JWT with the seed's claims (seed: JWT claims), signed with a secret drawn at start. Replace the
// secret with one from your configuration, and add revocation, before anyone logs in for real.
import { createHmac, randomBytes } from 'node:crypto';
import type { Request } from 'express';
import type { Session, Store, User } from './store.ts';

/** Who calls: the gate's permission levels read `user.admin`. */
export interface Caller {
  user: User;
  session: Session;
}

/** Seconds a login session lasts. */
export const TOKEN_LIFETIME = 31 * 24 * 3600;
const secret = randomBytes(32);
const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A signed token for `user` logged in from `ip`, which resolved to `country` (`ctx.geoip`), kept as
 * a session in the store. The seed does not show what `roles` and `rolesHash` hold: empty here.
 */
export function issueToken(store: Store, user: User, ip: string, now: number, country: string): string {
  const expires = now + TOKEN_LIFETIME;
  const claims = {
    iss: 'API',
    sub: user.platformId,
    steamid: user.platformId,
    API: true,
    ip,
    proxy: false,
    country,
    iat: now,
    exp: expires,
    jti: randomBytes(16).toString('hex'),
    roles: [],
    rolesHash: '',
  };
  const unsigned = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(claims)}`;
  const token = `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
  store.addSession({ token, platformId: user.platformId, ip, expires });
  return token;
}

/** The caller of a request (undefined: nobody the API knows). */
export function identify(req: Request, store: Store, now: number): Caller | undefined {
  const token = /^Bearer (\S+)$/.exec(req.get('authorization') ?? '')?.[1];
  const session = token === undefined ? undefined : store.session(token);
  if (!session || session.expires <= now || session.ip !== req.ip) return undefined;
  const user = store.userByPlatformId(session.platformId);
  return user && { user, session };
}
