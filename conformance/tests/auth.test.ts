// Authentication and sessions (seed: "Authentication", "Authentication and session").
import { beforeAll, describe, it } from 'vitest';
import { jwtPayload, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { assertAnswer, assertConforms, assertThat, type Call, call, pinsMeaning } from '../src/kit/http.ts';
import { settings } from '../src/kit/settings.ts';
import { skip } from '../src/kit/skip.ts';

beforeAll(resetIfPossible);

/** The chunked logins' own client address: their refused attempts count against no other test's. */
const CHUNKED_IP = '192.0.2.71';

describe('POST /user/login', () => {
  it('Given an API key in a JSON or a form body, then a JWT with the seed claims is returned [R-AUTH-LOGIN, R-AUTH-CLAIMS, R-JSON-BODIES, R-USER-ID-STRING, R-LIMIT-TOKEN-LIFETIME]', async (ctx) => {
    await needsHelpers(ctx);
    const user = await helpers.user({ country: 'US' });
    await helpers.geoip('192.0.2.10', 'DE');
    for (const body of [{ json: { apiKey: user.apiKey } }, { form: { apiKey: user.apiKey } }]) {
      const before = await helpers.now();
      const answer = await call('POST', '/user/login', { ...body, ip: '192.0.2.10' });
      assertConforms(answer);
      assertThat(answer, answer.status === 200, 'login must succeed');
      const claims = jwtPayload((answer.body as { content: { jwt: string } }).content.jwt);
      const iat = claims.iat as number;
      const checks: [string, boolean][] = [
        ['iss is API', claims.iss === 'API'],
        ['sub is the platform ID', claims.sub === user.platformId],
        ['steamid is the platform ID', claims.steamid === user.platformId],
        ['API is true', claims.API === true],
        ['ip is the login IP', claims.ip === '192.0.2.10'],
        ['iat is now', Math.abs(iat - before) <= 5],
        ['exp is about 31 days after iat', Math.abs((claims.exp as number) - iat - 31 * 86400) <= 86400],
        ['jti is set', typeof claims.jti === 'string' && claims.jti !== ''],
        ['proxy is a boolean', typeof claims.proxy === 'boolean'],
        ['country is the one the login IP resolves to', claims.country === 'DE'],
        // Their contents are not shown by the seed: only their presence is checked.
        ['roles and rolesHash are present', 'roles' in claims && 'rolesHash' in claims],
      ];
      for (const [what, ok] of checks) assertThat(answer, ok, `claim: ${what}`);
    }
    pinsMeaning('POST /user/login jwt');
  });

  it('Given no apiKey, then 300 Missing required parameter: apiKey [R-MSG-LOGIN-MISSING, R-AUTH-LOGIN-ERRORS, R-ERR-300]', async (ctx) => {
    await needsHelpers(ctx);
    const answer = await call('POST', '/user/login', { json: {} });
    assertAnswer(answer, { status: 300, message: 'Missing required parameter: apiKey' }, 'the seed message');
  });

  it('Given an unknown API key, then 403 Invalid API key [R-MSG-LOGIN-REFUSED, R-AUTH-LOGIN-ERRORS]', async (ctx) => {
    await needsHelpers(ctx);
    const answer = await call('POST', '/user/login', { json: { apiKey: 'no-such-key-0000000000' } });
    assertAnswer(answer, { status: 403, message: 'Invalid API key' }, 'the seed message');
  });

  // A chunked body (no Content-Length, RFC 9112 section 6.1) is a body: a server that reads only a
  // counted one takes it for none (`Missing required parameter: apiKey`).
  it('Given the API key in a JSON or a form body sent chunked, then it is read as the same body with a length: an unknown key gets 403 Invalid API key, a good one a JWT [R-JSON-BODIES, R-AUTH-LOGIN, R-MSG-LOGIN-REFUSED]', async (ctx) => {
    await needsHelpers(ctx);
    const user = await helpers.user();
    const bodies = {
      json: (apiKey: string): Call => ({ json: { apiKey } }),
      form: (apiKey: string): Call => ({ form: { apiKey } }),
    };
    for (const [as, body] of Object.entries(bodies)) {
      const sent = (apiKey: string) => call('POST', '/user/login', { ...body(apiKey), chunked: true, ip: CHUNKED_IP });
      const refused = await sent('no-such-key-0000000000');
      assertAnswer(refused, { status: 403, message: 'Invalid API key' }, `an unknown key in a chunked ${as} body`);
      const answer = await sent(user.apiKey);
      assertConforms(answer);
      assertThat(answer, answer.status === 200, `a login with a chunked ${as} body must succeed`);
      const claims = jwtPayload((answer.body as { content: { jwt: string } }).content.jwt);
      assertThat(answer, claims.sub === user.platformId, 'the JWT is the user’s whose key was sent');
    }
  });

  it('Given a client in a blocked country, then 403 Country blocked [R-MSG-LOGIN-REFUSED, R-AUTH-LOGIN-ERRORS, R-ERR-403]', async (ctx) => {
    await needsHelpers(ctx);
    if (!settings.blockedCountry)
      return skip(ctx, 'which country the target blocks is not known (give --blocked-country)');
    const user = await helpers.user();
    await helpers.geoip('192.0.2.66', settings.blockedCountry);
    const answer = await call('POST', '/user/login', { json: { apiKey: user.apiKey }, ip: '192.0.2.66' });
    assertAnswer(answer, { status: 403, message: 'Country blocked' }, 'the seed message');
  });
});

describe('sessions', () => {
  it('GET /user/ipList pages the sessions, marks the current one and hides ended ones unless expire=true [R-IPLIST]', async (ctx) => {
    await needsHelpers(ctx);
    const user = await helpers.user();
    const tokens: string[] = [];
    // Three logins a minute apart, each from its own IP and client: each row its own login's values.
    const logins = new Map<string, { at: number; agent: string }>();
    for (const [i, ip] of ['192.0.2.21', '192.0.2.22', '192.0.2.23'].entries()) {
      const at = await helpers.pinClock();
      const agent = `conformance-client/${i + 1}.0`;
      const login = await call('POST', '/user/login', {
        json: { apiKey: user.apiKey },
        ip,
        headers: { 'user-agent': agent },
      });
      tokens.push((login.body as { content: { jwt: string } }).content.jwt);
      logins.set(ip, { at, agent });
      await helpers.advance(60);
    }
    type Row = {
      id: number;
      ip: string;
      current: boolean;
      user: string;
      userAgent: string;
      timestamp: string;
      expire: string;
    };
    type Page = { content: { values: Row[]; count: number } };
    const all = await call('GET', '/user/ipList', { token: tokens[2], ip: '192.0.2.23' });
    assertConforms(all);
    const page = (all.body as Page).content;
    assertThat(all, page.count === 3 && page.values.length === 3, 'three live sessions');
    const month = (r: Row) => (Number(r.expire) - Number(r.timestamp)) / 86_400;
    assertThat(
      all,
      page.values.every(
        (r) =>
          r.user === user.platformId &&
          r.timestamp === String(logins.get(r.ip)?.at) &&
          r.userAgent === logins.get(r.ip)?.agent &&
          month(r) >= 30 &&
          month(r) <= 32,
      ),
      `each row: the user, its own login's time and client, expiring about 31 days after that login (got ${JSON.stringify(page.values)})`,
    );
    pinsMeaning(
      'GET /user/ipList values',
      'GET /user/ipList values[].ip',
      'GET /user/ipList values[].user',
      'GET /user/ipList values[].current',
      'GET /user/ipList values[].userAgent',
      'GET /user/ipList values[].timestamp',
      'GET /user/ipList values[].expire',
      'GET /user/ipList count',
    );
    assertThat(
      all,
      page.values
        .filter((v) => v.current)
        .map((v) => v.ip)
        .join() === '192.0.2.23',
      'only the calling session is current',
    );
    for (const name of ['perPage', 'perpage']) {
      const small = await call('GET', '/user/ipList', {
        query: { [name]: 2, page: 1 },
        token: tokens[2],
        ip: '192.0.2.23',
      });
      const p = (small.body as Page).content;
      assertThat(small, p.values.length === 1 && p.count === 3, `${name}=2 page=1 holds the third session`);
    }
    const others = await call('GET', '/user/disconnectSession/all', { token: tokens[2], ip: '192.0.2.23' });
    assertThat(
      others,
      others.status === 200 &&
        (others.body as { content: { message: string } }).content.message === 'All sessions disconnected',
      'disconnecting the others succeeds, with the documented confirmation',
    );
    pinsMeaning('GET /user/disconnectSession/all message');
    const live = await call('GET', '/user/ipList', { token: tokens[2], ip: '192.0.2.23' });
    assertThat(live, (live.body as Page).content.count === 1, 'only the current session is left');
    const withEnded = await call('GET', '/user/ipList', {
      query: { expire: 'true' },
      token: tokens[2],
      ip: '192.0.2.23',
    });
    assertThat(withEnded, (withEnded.body as Page).content.count === 3, 'expire=true includes the ended sessions');
    const dead = await call('GET', '/user/ipList', { token: tokens[0], ip: '192.0.2.21' });
    assertThat(dead, dead.status === 403, "a disconnected session's token is refused");
  });

  it('GET /user/disconnectSession/{id} ends one of my sessions [R-DISCONNECT]', async (ctx) => {
    await needsHelpers(ctx);
    const a = await session({}, '192.0.2.31');
    const b = await call('POST', '/user/login', { json: { apiKey: a.apiKey }, ip: '192.0.2.32' });
    const tokenB = (b.body as { content: { jwt: string } }).content.jwt;
    const list = await call('GET', '/user/ipList', { token: a.token, ip: a.ip });
    const other = (list.body as { content: { values: { id: number; current: boolean }[] } }).content.values.find(
      (v) => !v.current,
    )!;
    const end = await call('GET', `/user/disconnectSession/${other.id}`, { token: a.token, ip: a.ip });
    assertConforms(end);
    assertThat(
      end,
      end.status === 200 && (end.body as { content: { message: string } }).content.message === 'Session disconnected',
      'my other session is ended, with the documented confirmation',
    );
    const refused = await call('GET', '/user/ipList', { token: tokenB, ip: '192.0.2.32' });
    assertThat(refused, refused.status === 403, 'its token is refused');
    // The row's id named that session: the calling one still works, until it disconnects itself.
    const still = await call('GET', '/user/ipList', { token: a.token, ip: a.ip });
    assertThat(still, still.status === 200, 'the session that ended the other is still live');
    const bye = await call('GET', '/user/disconnect', { token: a.token, ip: a.ip });
    assertConforms(bye);
    assertThat(bye, (bye.body as { content: { disconnect: boolean } }).content.disconnect === true, 'disconnect: true');
    const after = await call('GET', '/user/ipList', { token: a.token, ip: a.ip });
    assertThat(after, after.status === 403, 'and its own token is refused after /user/disconnect');
    pinsMeaning(
      'GET /user/ipList values[].id',
      'GET /user/disconnectSession/{id} message',
      'GET /user/disconnect disconnect',
    );
  });
});
