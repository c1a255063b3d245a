// Who the bearer of a request is, for the permission levels (permission.ts). Connected routes
// need a valid JWT whose session is live and whose IP is the caller's; admin routes also need an
// administrator. Every refusal is 403 with content `forbidden`. API-only routes accept a JWT when
// one is sent (admins then see more), and ignore a bad one.
import { verifyToken } from '../auth/jwt.ts';
import { liveSession } from '../domain/sessions.ts';
import { Tx } from '../domain/tx.ts';
import { isBanned } from '../domain/users.ts';
import type { Caller } from './context.ts';
import type { ServerDeps } from './deps.ts';

/** The caller a bearer token identifies from `ip` at `now`, or undefined. */
export async function identify(
  deps: ServerDeps,
  authorization: string | undefined,
  ip: string,
  now: number,
): Promise<Caller | undefined> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const claims = await verifyToken(deps.jwtSecret, match[1]!, now);
  if (!claims || claims.ip !== ip) return undefined;
  const tx = new Tx(deps.store.state);
  const session = liveSession(tx, claims.jti, now);
  const user = tx.get('users', claims.sub);
  if (!session || !user || session.user !== user.platformId || isBanned(user, now)) return undefined;
  return { user, session, claims };
}
