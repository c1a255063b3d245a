// Login sessions (seed: Authentication and session). A login creates a session whose ID is the
// JWT's `jti`; a token works only while its session exists, is not revoked and has not expired,
// so disconnecting a session stops its token at once.
import { TOKEN_LIFETIME_SECONDS } from '../auth/jwt.ts';
import { FORBIDDEN, LOGIN, SESSIONS } from './messages.ts';
import type { Session, User } from './state.ts';
import { fail, ok, type Tx } from './tx.ts';
import { hashApiKey, isBanned } from './users.ts';

export interface LoginInput {
  apiKey: string;
  ip: string;
  country: string;
  userAgent: string;
  blockedCountries: string[];
  jti: string;
  now: number;
}

/** Checks an API key and opens a session (403 `Invalid API key` / `Country blocked`). */
export function login(tx: Tx, input: LoginInput) {
  const key = tx.get('apiKeys', hashApiKey(input.apiKey));
  const user = key && tx.get('users', key.user);
  if (!user) return fail(LOGIN.invalidApiKey, 403);
  if (input.blockedCountries.includes(input.country)) return fail(LOGIN.countryBlocked, 403);
  if (isBanned(user, input.now)) return fail(FORBIDDEN, 403);
  const id = tx.nextId('sessions');
  const session: Session = {
    id,
    jti: input.jti,
    user: user.platformId,
    ip: input.ip,
    location: input.country,
    isp: 'Unknown',
    userAgent: input.userAgent,
    timestamp: input.now,
    expire: input.now + TOKEN_LIFETIME_SECONDS,
    revoked: false,
  };
  tx.put('sessions', id, session);
  tx.put('jtis', input.jti, { jti: input.jti, session: id });
  tx.put('users', user.platformId, { ...user, lastactivity: input.now });
  return ok({ user: tx.get('users', user.platformId) as User, session });
}

/** The live session of a token's `jti`, if any. */
export function liveSession(tx: Tx, jti: string, now: number): Session | undefined {
  const ref = tx.get('jtis', jti);
  const session = ref && tx.get('sessions', ref.session);
  return session && !session.revoked && session.expire > now ? session : undefined;
}

/** Revokes one of the user's sessions (`Session not found` for another user's or an unknown one). */
export function disconnectSession(tx: Tx, user: string, id: number) {
  const session = tx.get('sessions', id);
  if (!session || session.user !== user || session.revoked) return fail(SESSIONS.notFound);
  tx.put('sessions', id, { ...session, revoked: true });
  return ok(SESSIONS.disconnected);
}

/** Revokes every session of the user except `keep` (the current one). */
export function disconnectOthers(tx: Tx, user: string, keep: number): number {
  let n = 0;
  for (const s of tx.find('sessionsByUser', user)) {
    if (s.id !== keep && !s.revoked) {
      tx.put('sessions', s.id, { ...s, revoked: true });
      n += 1;
    }
  }
  return n;
}

export interface SessionPage {
  values: (Omit<Session, 'jti' | 'revoked' | 'timestamp' | 'expire'> & {
    current: boolean;
    timestamp: string;
    expire: string;
  })[];
  count: number;
}

/** The user's sessions, newest first; expired and revoked ones only with `expire` (seed: GET /user/ipList). */
export function listSessions(
  tx: Tx,
  user: string,
  current: number,
  opts: { page: number; perPage: number; includeExpired: boolean; now: number },
): SessionPage {
  const mine = tx
    .find('sessionsByUser', user)
    .filter((s) => opts.includeExpired || (!s.revoked && s.expire > opts.now))
    .sort((a, b) => b.timestamp - a.timestamp || b.id - a.id);
  const page = mine.slice(opts.page * opts.perPage, (opts.page + 1) * opts.perPage);
  return {
    count: mine.length,
    values: page.map((s) => ({
      id: s.id,
      ip: s.ip,
      user: s.user,
      location: s.location,
      isp: s.isp,
      current: s.id === current,
      userAgent: s.userAgent,
      timestamp: String(s.timestamp),
      expire: String(s.expire),
    })),
  };
}
