import { describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME_SECONDS } from '../auth/jwt.ts';
import { FORBIDDEN, LOGIN, SESSIONS } from './messages.ts';
import { disconnectOthers, disconnectSession, type LoginInput, listSessions, liveSession, login } from './sessions.ts';
import { testState } from './test-state.fixture.ts';

const NOW = 1_700_000_000;

/** A state with Alice (key `key-<id>`) and Bob, and a login helper with defaults. */
function world() {
  const s = testState(NOW);
  const alice = s.user();
  const bob = s.user();
  let jti = 0;
  const signIn = (over: Partial<LoginInput> = {}) =>
    login(s.tx, {
      apiKey: `key-${alice.platformId}`,
      ip: '10.0.0.1',
      country: 'US',
      userAgent: 'test',
      blockedCountries: [],
      jti: `jti-${++jti}`,
      now: NOW,
      ...over,
    });
  return { s, alice, bob, signIn };
}

describe('login', () => {
  it('opens a session bound to the IP, findable by its jti, expiring with the token', () => {
    const { s, alice, signIn } = world();
    const result = signIn({ now: NOW + 5 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.session).toMatchObject({
      user: alice.platformId,
      ip: '10.0.0.1',
      location: 'US',
      timestamp: NOW + 5,
      expire: NOW + 5 + TOKEN_LIFETIME_SECONDS,
      revoked: false,
    });
    expect(result.value.user.lastactivity).toBe(NOW + 5);
    expect(liveSession(s.tx, 'jti-1', NOW + 5)?.id).toBe(result.value.session.id);
  });

  it.each<[string, Partial<LoginInput>, unknown]>([
    ['an unknown key', { apiKey: 'nope' }, LOGIN.invalidApiKey],
    ['a blocked country', { country: 'KP', blockedCountries: ['KP'] }, LOGIN.countryBlocked],
  ])('refuses %s with 403', (_name, over, error) => {
    expect(world().signIn(over)).toEqual({ ok: false, error, status: 403 });
  });

  it('refuses a banned user until the ban ends', () => {
    const { s, alice, signIn } = world();
    s.tx.put('users', alice.platformId, { ...alice, banUntil: NOW + 60 });
    expect(signIn()).toEqual({ ok: false, error: FORBIDDEN, status: 403 });
    expect(signIn({ now: NOW + 60 }).ok).toBe(true);
  });
});

describe('liveSession', () => {
  it.each([
    ['live', 0, false, true],
    ['expired', TOKEN_LIFETIME_SECONDS, false, false],
    ['revoked', 0, true, false],
  ])('finds a %s session: %s', (_name, later, revoke, found) => {
    const { s, alice, signIn } = world();
    const r = signIn();
    if (!r.ok) throw new Error('login');
    if (revoke) disconnectSession(s.tx, alice.platformId, r.value.session.id);
    expect(liveSession(s.tx, 'jti-1', NOW + later) !== undefined).toBe(found);
  });
});

describe('disconnecting sessions', () => {
  it('revokes one of the caller’s own sessions, once', () => {
    const { s, alice, signIn } = world();
    const r = signIn();
    if (!r.ok) throw new Error('login');
    const id = r.value.session.id;
    expect(disconnectSession(s.tx, alice.platformId, id)).toEqual({ ok: true, value: SESSIONS.disconnected });
    expect(disconnectSession(s.tx, alice.platformId, id)).toEqual({ ok: false, error: SESSIONS.notFound });
  });

  it.each([
    ['another user’s session', true],
    ['an unknown session', false],
  ])('answers Session not found for %s', (_name, exists) => {
    const { s, bob, signIn } = world();
    const r = signIn();
    const id = exists && r.ok ? r.value.session.id : 999;
    expect(disconnectSession(s.tx, bob.platformId, id)).toEqual({ ok: false, error: SESSIONS.notFound });
    if (exists) expect(liveSession(s.tx, 'jti-1', NOW)).toBeDefined();
  });

  it('revokes every other session of the user and keeps the current one', () => {
    const { s, alice, bob, signIn } = world();
    const ids = [signIn(), signIn(), signIn()].map((r) => (r.ok ? r.value.session.id : 0));
    const bobs = signIn({ apiKey: `key-${bob.platformId}` });
    expect(disconnectOthers(s.tx, alice.platformId, ids[1]!)).toBe(2);
    expect(['jti-1', 'jti-2', 'jti-3', 'jti-4'].map((j) => liveSession(s.tx, j, NOW) !== undefined)).toEqual([
      false,
      true,
      false,
      true,
    ]);
    expect(bobs.ok).toBe(true);
  });
});

describe('listSessions', () => {
  /** Alice logs in at NOW, NOW+1, ... NOW+4; the first is revoked, the second expired by `at`. */
  function five() {
    const w = world();
    const ids = [0, 1, 2, 3, 4].map((i) => {
      const r = w.signIn({ now: NOW + i });
      return r.ok ? r.value.session.id : 0;
    });
    disconnectSession(w.s.tx, w.alice.platformId, ids[0]!);
    const second = w.s.tx.get('sessions', ids[1]!)!;
    w.s.tx.put('sessions', ids[1]!, { ...second, expire: NOW + 10 });
    return { ...w, ids };
  }

  it.each([
    ['live ones, newest first', { page: 0, perPage: 10, includeExpired: false }, [4, 3, 2], 3],
    ['with expired and revoked', { page: 0, perPage: 10, includeExpired: true }, [4, 3, 2, 1, 0], 5],
    ['a second page', { page: 1, perPage: 2, includeExpired: true }, [2, 1], 5],
    ['past the end', { page: 3, perPage: 2, includeExpired: true }, [], 5],
  ])('lists %s', (_name, opts, want, count) => {
    const { s, alice, ids } = five();
    const page = listSessions(s.tx, alice.platformId, ids[3]!, { ...opts, now: NOW + 20 });
    expect(page.count).toBe(count);
    expect(page.values.map((v) => v.id)).toEqual(want.map((i) => ids[i]));
  });

  it('marks the current session and shows times as strings, never the jti', () => {
    const { s, alice, ids } = five();
    const opts = { page: 0, perPage: 1, includeExpired: false, now: NOW };
    const [row] = listSessions(s.tx, alice.platformId, ids[4]!, opts).values;
    expect(row).toEqual({
      id: ids[4],
      ip: '10.0.0.1',
      user: alice.platformId,
      location: 'US',
      isp: 'Unknown',
      current: true,
      userAgent: 'test',
      timestamp: String(NOW + 4),
      expire: String(NOW + 4 + TOKEN_LIFETIME_SECONDS),
    });
  });
});
