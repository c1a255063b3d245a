// Login and sessions over HTTP (seed: "Authentication", "Endpoints > Authentication and session"):
// the login bodies and refusals, the JWT's claims, what makes a token stop working, and the
// session list. Client IPs are played with X-Forwarded-For (loopback is a trusted proxy).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME_SECONDS } from '../auth/jwt.ts';
import { FORBIDDEN, LOGIN, SESSIONS } from '../domain/messages.ts';
import { refusal, startTestServer, type TestServer } from './test-harness.fixture.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { MARKETPLACE_BLOCKED_COUNTRIES: 'KP' } });
});
afterAll(() => t.close());
beforeEach(() => t.reset());

const T = 1_800_000_000;
const DAY = 24 * 3600;

/** Logs in with `apiKey` from `ip`; the JWT. */
async function loginFrom(apiKey: string, ip: string): Promise<string> {
  const { data, response } = await t.api.POST('/user/login', { body: { apiKey }, headers: { 'x-forwarded-for': ip } });
  expect(response.status).toBe(200);
  return (data!.content as { jwt: string }).jwt;
}

/** Request options carrying a JWT from a client IP. */
const as = (jwt: string, ip = '10.0.0.1') => ({
  headers: { authorization: `Bearer ${jwt}`, 'x-forwarded-for': ip },
});

/** The status of a Connected route (GET /user/ipList) called with this token from `ip`. */
const statusWith = async (jwt: string, ip = '10.0.0.1') =>
  (await t.api.GET('/user/ipList', as(jwt, ip))).response.status;

const payloadOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));

/** A raw POST /user/login: status and body. */
async function rawLogin(contentType: string | undefined, body: string | undefined) {
  const res = await fetch(`${t.baseUrl}/user/login`, {
    method: 'POST',
    headers: contentType ? { 'content-type': contentType } : {},
    body,
  });
  return [res.status, await res.json()];
}

/** Every object key and string value in `value`, recursively. */
function* stringsIn(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (value && typeof value === 'object')
    for (const [key, v] of Object.entries(value)) {
      yield key;
      yield* stringsIn(v);
    }
}

describe('POST /user/login', () => {
  it('given a JSON body with a valid apiKey, answers a JWT in envelope A', async () => {
    const { apiKey } = await t.user();
    const { data, response } = await t.api.POST('/user/login', { body: { apiKey } });
    expect(response.status).toBe(200);
    expect(data).toEqual({
      err: false,
      success: true,
      content: { jwt: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) },
    });
  });

  it('given a form-urlencoded body, logs in the same way', async () => {
    const { apiKey, platformId } = await t.user();
    const { data, response } = await t.api.POST('/user/login', {
      body: { apiKey },
      bodySerializer: (body) => new URLSearchParams(body).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(200);
    expect(payloadOf((data!.content as { jwt: string }).jwt).sub).toBe(platformId);
  });

  it.each([
    ['a JSON body without it', 'application/json', '{}'],
    ['an empty JSON body', 'application/json', ''],
    ['a form body without it', 'application/x-www-form-urlencoded', 'other=1'],
    ['an empty form body', 'application/x-www-form-urlencoded', ''],
    ['no body at all', undefined, undefined],
  ])('given %s, answers 300 Missing required parameter: apiKey', async (_, contentType, body) => {
    expect(await rawLogin(contentType, body)).toEqual([
      300,
      { err: true, success: false, content: LOGIN.missingApiKey },
    ]);
  });

  it('given an unknown API key, answers 403 Invalid API key and opens no session', async () => {
    await t.user();
    const r = await t.api.POST('/user/login', { body: { apiKey: 'f'.repeat(48) } });
    expect(refusal(r)).toEqual([403, LOGIN.invalidApiKey]);
    expect(r.error).toEqual({ err: true, success: false, content: LOGIN.invalidApiKey });
    expect(Object.keys(t.deps.store.state.sessions)).toEqual([]);
  });

  it('given a client IP in a blocked country, answers 403 Country blocked; the same key works elsewhere', async () => {
    const { apiKey } = await t.user();
    await fetch(`${t.baseUrl}/test_helpers/geoip`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ip: '175.45.176.1', country: 'KP' }),
    });
    const r = await t.api.POST('/user/login', { body: { apiKey }, headers: { 'x-forwarded-for': '175.45.176.1' } });
    expect(refusal(r)).toEqual([403, LOGIN.countryBlocked]);
    expect(Object.keys(t.deps.store.state.sessions)).toEqual([]);
    expect(payloadOf(await loginFrom(apiKey, '10.0.0.1')).country).toBe('US');
  });

  it('signs the claims of the seed: iss API, exp 31 days after iat, bound to the client IP', async () => {
    const { apiKey, platformId } = await t.user();
    await t.clock({ set: T });
    const jwt = await loginFrom(apiKey, '10.0.0.1');
    expect(JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payloadOf(jwt)).toEqual({
      iss: 'API',
      sub: platformId,
      iat: T,
      exp: T + 31 * DAY,
      jti: expect.stringMatching(/^[0-9a-f]{32}$/),
      ip: '10.0.0.1',
      proxy: true,
      API: true,
      country: 'US',
      steamid: platformId,
      roles: ['user'],
      rolesHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(TOKEN_LIFETIME_SECONDS).toBe(31 * DAY);
  });

  it('gives an administrator the admin role, and takes the country from GeoIP', async () => {
    const user = await t.user();
    const admin = await t.user({ admin: true });
    await fetch(`${t.baseUrl}/test_helpers/geoip`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ip: '10.0.0.9', country: 'de' }),
    });
    const mine = payloadOf(await loginFrom(user.apiKey, '10.0.0.1'));
    const theirs = payloadOf(await loginFrom(admin.apiKey, '10.0.0.9'));
    expect(theirs).toMatchObject({ sub: admin.platformId, roles: ['user', 'admin'], country: 'DE' });
    expect(theirs.rolesHash).not.toBe(mine.rolesHash);
    expect(mine.jti).not.toBe(theirs.jti);
  });

  it('marks a direct connection (no proxy header) with proxy false and the socket address', async () => {
    const { apiKey } = await t.user();
    const claims = payloadOf(await t.login(apiKey));
    expect(claims).toMatchObject({ ip: '127.0.0.1', proxy: false });
  });

  it('never stores the API key in clear', async () => {
    const { apiKey } = await t.user();
    await loginFrom(apiKey, '10.0.0.1');
    const everything = [...stringsIn(t.deps.store.state)];
    expect(everything.length).toBeGreaterThan(10);
    expect(everything.filter((s) => s.includes(apiKey))).toEqual([]);
  });
});

describe('what a token is worth', () => {
  it('works only from the IP it was issued to', async () => {
    const { apiKey } = await t.user();
    const jwt = await loginFrom(apiKey, '10.0.0.1');
    expect(await statusWith(jwt, '10.0.0.1')).toBe(200);
    expect(refusal(await t.api.GET('/user/ipList', as(jwt, '10.0.0.2')))).toEqual([403, FORBIDDEN]);
  });

  it('expires 31 days after login', async () => {
    const { apiKey } = await t.user();
    await t.clock({ set: T });
    const jwt = await loginFrom(apiKey, '10.0.0.1');
    await t.clock({ set: T + 31 * DAY - 1 });
    expect(await statusWith(jwt)).toBe(200);
    await t.clock({ set: T + 31 * DAY + 1 });
    expect(refusal(await t.api.GET('/user/ipList', as(jwt)))).toEqual([403, FORBIDDEN]);
  });

  it('is refused when tampered with, re-signed with alg none, or not a JWT', async () => {
    const { apiKey } = await t.user();
    const other = await t.user({ admin: true });
    const jwt = await loginFrom(apiKey, '10.0.0.1');
    const [header, , signature] = jwt.split('.');
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const claims = payloadOf(jwt);
    const forged = [
      `${header}.${b64({ ...claims, sub: other.platformId })}.${signature}`,
      `${header}.${b64({ ...claims, ip: '10.0.0.2' })}.${signature}`,
      `${header}.${b64({ ...claims, exp: claims.exp + DAY })}.${signature}`,
      `${jwt.slice(0, -2)}${jwt.endsWith('AA') ? 'BB' : 'AA'}`,
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      'not-a-jwt',
    ];
    for (const token of forged)
      expect(refusal(await t.api.GET('/user/ipList', as(token))), token).toEqual([403, FORBIDDEN]);
    const noScheme = await t.api.GET('/user/ipList', {
      headers: { authorization: jwt, 'x-forwarded-for': '10.0.0.1' },
    });
    expect(refusal(noScheme)).toEqual([403, FORBIDDEN]);
    expect(await statusWith(jwt)).toBe(200);
  });

  it('stops working after GET /user/disconnect; other sessions of the user go on', async () => {
    const { apiKey } = await t.user();
    const first = await loginFrom(apiKey, '10.0.0.1');
    const second = await loginFrom(apiKey, '10.0.0.1');
    const { data, response } = await t.api.GET('/user/disconnect', as(first));
    expect(response.status).toBe(200);
    expect(data).toEqual({ err: false, success: true, content: { disconnect: true } });
    expect(await statusWith(first)).toBe(403);
    expect(await statusWith(second)).toBe(200);
  });
});

describe('GET /user/disconnectSession/all and /{id}', () => {
  it('all: keeps the current session and ends every other one of the user only', async () => {
    const me = await t.user();
    const someoneElse = await t.user();
    const [current, phone, laptop] = [
      await loginFrom(me.apiKey, '10.0.0.1'),
      await loginFrom(me.apiKey, '10.0.0.2'),
      await loginFrom(me.apiKey, '10.0.0.3'),
    ];
    const theirs = await loginFrom(someoneElse.apiKey, '10.0.0.4');
    const { data } = await t.api.GET('/user/disconnectSession/all', as(current));
    expect(data).toEqual({ err: false, success: true, content: { message: SESSIONS.allDisconnected } });
    expect(await statusWith(current, '10.0.0.1')).toBe(200);
    expect(await statusWith(phone, '10.0.0.2')).toBe(403);
    expect(await statusWith(laptop, '10.0.0.3')).toBe(403);
    expect(await statusWith(theirs, '10.0.0.4')).toBe(200);
  });

  it("{id}: ends one of the caller's sessions, and answers 300 Session not found for anyone else's", async () => {
    const me = await t.user();
    const someoneElse = await t.user();
    const current = await loginFrom(me.apiKey, '10.0.0.1');
    const spare = await loginFrom(me.apiKey, '10.0.0.1');
    const theirs = await loginFrom(someoneElse.apiKey, '10.0.0.1');
    const idOf = (jwt: string) =>
      Object.values(t.deps.store.state.sessions).find((s) => s.jti === payloadOf(jwt).jti)!.id;
    const disconnect = (id: number) =>
      t.api.GET('/user/disconnectSession/{id}', { params: { path: { id } }, ...as(current) });

    expect(refusal(await disconnect(idOf(theirs)))).toEqual([300, SESSIONS.notFound]);
    expect(await statusWith(theirs)).toBe(200);
    expect(refusal(await disconnect(999))).toEqual([300, SESSIONS.notFound]);

    const { data } = await disconnect(idOf(spare));
    expect(data).toEqual({ err: false, success: true, content: { message: SESSIONS.disconnected } });
    expect(await statusWith(spare)).toBe(403);
    expect(await statusWith(current)).toBe(200);
    expect(refusal(await disconnect(idOf(spare)))).toEqual([300, SESSIONS.notFound]);
  });
});

describe('GET /user/ipList', () => {
  type Query = { page?: number; perPage?: number; perpage?: number; expire?: 'true' | 'false' };
  const list = async (jwt: string, query: Query = {}) => {
    const { data, response } = await t.api.GET('/user/ipList', { params: { query }, ...as(jwt) });
    expect(response.status).toBe(200);
    return data!.content as { count: number; values: { id: number; current: boolean; timestamp?: string }[] };
  };

  it('lists the sessions newest first, 10 a page, marking the current one', async () => {
    const { apiKey, platformId } = await t.user();
    await t.clock({ set: T });
    for (let i = 0; i < 11; i += 1) await loginFrom(apiKey, `10.0.1.${i}`);
    const current = await loginFrom(apiKey, '10.0.0.1');
    const first = await list(current);
    expect(first.count).toBe(12);
    expect(first.values).toHaveLength(10);
    // The login's time: T, or a later second when a busy machine let the set clock tick on.
    const at = Number(first.values[0]?.timestamp);
    expect(at).toBeGreaterThanOrEqual(T);
    expect(at).toBeLessThanOrEqual(await t.now());
    expect(first.values[0]).toEqual({
      id: 12,
      ip: '10.0.0.1',
      user: platformId,
      location: 'US',
      isp: 'Unknown',
      current: true,
      userAgent: expect.any(String),
      timestamp: String(at),
      expire: String(at + 31 * DAY),
    });
    expect(first.values.map((v) => v.id)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(first.values.filter((v) => v.current)).toHaveLength(1);
    const second = await list(current, { page: 1 });
    expect(second).toMatchObject({
      count: 12,
      values: [
        { id: 2, current: false },
        { id: 1, current: false },
      ],
    });
  });

  it('takes the page size as perPage or perpage, perPage first', async () => {
    const { apiKey } = await t.user();
    for (let i = 0; i < 5; i += 1) await loginFrom(apiKey, '10.0.0.1');
    const jwt = await loginFrom(apiKey, '10.0.0.1');
    expect((await list(jwt, { perPage: 4 })).values).toHaveLength(4);
    expect((await list(jwt, { perpage: 3 })).values).toHaveLength(3);
    expect((await list(jwt, { perPage: 2, perpage: 5 })).values).toHaveLength(2);
    expect((await list(jwt, { perpage: 2, page: 2 })).values.map((v) => v.id)).toEqual([2, 1]);
  });

  it('shows revoked and expired sessions only with expire=true, and counts accordingly', async () => {
    const { apiKey } = await t.user();
    await t.clock({ set: T });
    const old = await loginFrom(apiKey, '10.0.0.1'); // expires at T + 31 days
    const revoked = await loginFrom(apiKey, '10.0.0.1');
    await t.clock({ set: T + 2 * DAY });
    const current = await loginFrom(apiKey, '10.0.0.1');
    const revokedId = payloadOf(revoked).jti;
    const id = Object.values(t.deps.store.state.sessions).find((s) => s.jti === revokedId)!.id;
    await t.api.GET('/user/disconnectSession/{id}', { params: { path: { id } }, ...as(current) });
    expect(await statusWith(old)).toBe(200);
    await t.clock({ set: T + 32 * DAY });
    expect(await statusWith(old)).toBe(403);

    const active = await list(current);
    expect(active).toMatchObject({ count: 1, values: [{ id: 3, current: true }] });
    expect(await list(current, { expire: 'false' })).toEqual(active);
    const all = await list(current, { expire: 'true' });
    expect(all.count).toBe(3);
    expect(all.values.map((v) => [v.id, v.current])).toEqual([
      [3, true],
      [2, false],
      [1, false],
    ]);
  });
});
