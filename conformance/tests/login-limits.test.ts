// Login attempts (POST /user/login, its `x-rate-limit` rules, this document's limits): refused keys
// per IP and attempts per API key, each answered 429 with the seed's message and four headers once
// over, while other IPs and keys still log in; a login refused (429, or 431 for too many header
// fields) opens no session. The numbers are read from the document.
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { assertWindowEnds, helpers, session } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, call, setUpOk } from '../src/kit/http.ts';
import { sides } from '../src/kit/rule.ts';
import { skip } from '../src/kit/skip.ts';
import { postAs } from '../src/kit/user-calls.ts';
import { findOperation, protocolErrors } from '../src/oracle/document.ts';

beforeAll(resetIfPossible);

interface Rule {
  limit: number;
  window: number;
  scope: string;
}
const rules: Rule[] = [findOperation('POST', '/user/login')?.op['x-rate-limit'] ?? []].flat();
const rule = (scope: string) => rules.find((r) => r.scope === scope);

/** The document's answer to a request head of too many fields (`x-protocol-errors`), and how many are too many. */
const TOO_MANY = protocolErrors.find((p) => p.status === 431);
const FIELDS = Number(/more than (\d+) header fields/.exec(TOO_MANY?.condition ?? '')?.[1]);

const login = (apiKey: string, ip: string) => call('POST', '/user/login', { json: { apiKey }, ip });

function assertLimited(answer: Answer, limit: number, why: string): void {
  assertConforms(answer);
  assertThat(answer, answer.status === 429, why);
  const retry = Number(answer.headers['retry-after']);
  assertThat(
    answer,
    answer.message === `Rate limit exceeded. Retry after ${retry} seconds.` &&
      Number(answer.headers['x-ratelimit-limit']) === limit &&
      Number(answer.headers['x-ratelimit-remaining']) === 0 &&
      retry >= 1,
    'the seed message, limit and remaining 0 in the headers',
  );
}

describe('POST /user/login attempts', () => {
  it(
    "Given as many refused keys from one IP as the limit, then the next attempt from it, a third of the window later, is 429 naming the window's end, even with a good key; one second before the window ends still 429, at its end and one second after it logs in [R-LIMIT-LOGIN-IP, R-LIMIT-429-HEADERS]",
    // At the limit: the last refused key the IP may send is still answered 403, not 429.
    sides(['before', 'at', 'after', 'at the limit', 'past the limit'], 'R-LIMIT-LOGIN-IP'),
    async (ctx) => {
      await needsHelpers(ctx);
      const perIp = rule('ip');
      if (!perIp) return skip(ctx, 'the document sets no per-IP login limit');
      const user = await helpers.user();
      // The IP's window counts from its first refused key (the document): it ends `window` seconds
      // on. The test clock runs, and on a loaded machine the first key may arrive a few seconds after
      // `before`: its time is known to lie between the clock read before and after it.
      const before = await helpers.pinClock();
      let firstBy = before;
      for (let i = 0; i < perIp.limit; i++) {
        const refused = await login(`not-a-key-${i}`, '203.0.113.40');
        assertThat(refused, refused.status === 403, `refused key ${i + 1} is 403 Invalid API key`);
        if (i === 0) firstBy = await helpers.now();
      }
      // Later in the window, the 429 still names the window's end: `X-RateLimit-Reset` (the Unix time
      // the window resets, seed) is the first refused key's time plus the window, and `Retry-After`
      // the seconds left until then, not a window opened by this attempt.
      await helpers.advance(Math.floor(perIp.window / 3));
      const sent = await helpers.now();
      const limited = await login(user.apiKey, '203.0.113.40');
      const answered = await helpers.now();
      assertLimited(limited, perIp.limit, 'the IP is over its refused keys');
      const end = Number(limited.headers['x-ratelimit-reset']);
      const retry = Number(limited.headers['retry-after']);
      assertThat(
        limited,
        end >= before + perIp.window &&
          end <= firstBy + perIp.window &&
          retry >= end - answered - 1 &&
          retry <= end - sent + 1,
        `X-RateLimit-Reset is the window's end, ${perIp.window} s after the first refused key (sent between ${before} and ${firstBy}), and Retry-After the seconds left until it (got ${end}, ${retry})`,
      );
      const elsewhere = await login(user.apiKey, '203.0.113.41');
      assertThat(elsewhere, elsewhere.status === 200, 'another IP still logs in');
      // A limited attempt and a good key are not refused keys: neither moves the window.
      await assertWindowEnds(end, () => login(user.apiKey, '203.0.113.40'), "the end of the IP's window");
    },
  );

  it(
    "Given as many logins with one API key as the limit, each served, then the next one is 429 from any IP, its window ending at most the window's length after the first; one second before its `X-RateLimit-Reset` still 429, at it and one second after it logs in [R-LIMIT-LOGIN-KEY]",
    sides(['before', 'at', 'after', 'at the limit', 'past the limit'], 'R-LIMIT-LOGIN-KEY'),
    async (ctx) => {
      await needsHelpers(ctx);
      const perKey = rule('apiKey');
      if (!perKey) return skip(ctx, 'the document sets no per-key login limit');
      const user = await helpers.user();
      const other = await helpers.user();
      // The window holds the key's first attempt, whatever its kind (from the first attempt, fixed,
      // sliding): it ends at most `window` seconds after that attempt, known to lie before `firstBy`.
      await loginUpTo(1, user.apiKey, '198.18.0');
      const firstBy = await helpers.now();
      await loginUpTo(perKey.limit - 1, user.apiKey, '198.18.7');
      const limited = await login(user.apiKey, '198.18.1.1');
      assertLimited(limited, perKey.limit, 'the key is over its attempts');
      const end = Number(limited.headers['x-ratelimit-reset']);
      assertThat(
        limited,
        end <= firstBy + perKey.window,
        `the key's window ends at most ${perKey.window} s after its first attempt (by ${firstBy}; got X-RateLimit-Reset ${end})`,
      );
      const another = await login(other.apiKey, '198.18.1.1');
      assertThat(another, another.status === 200, 'another key still logs in');
      // Where the key's window starts the document does not say: it ends when the target says.
      await assertWindowEnds(end, () => login(user.apiKey, '198.18.1.2'), 'X-RateLimit-Reset');
    },
  );

  it('Given as many good logins from one IP as its limit of refused keys, then refused keys up to that limit are still answered Invalid API key and only the next attempt is 429: the IP counts refused keys, not attempts', async (ctx) => {
    await needsHelpers(ctx);
    const perIp = rule('ip');
    if (!perIp) return skip(ctx, 'the document sets no per-IP login limit');
    const ip = '203.0.113.60';
    // Good keys spread over users so that no key reaches its own limit (`every attempt with this API key`).
    const perUser = Math.max(1, (rule('apiKey')?.limit ?? perIp.limit + 1) - 1);
    let user = await helpers.user();
    for (let i = 0; i < perIp.limit; i++) {
      if (i > 0 && i % perUser === 0) user = await helpers.user();
      const ok = await login(user.apiKey, ip);
      assertThat(ok, ok.status === 200, `good login ${i + 1} of ${perIp.limit} from one IP is served`);
    }
    for (let i = 0; i < perIp.limit; i++) {
      const refused = await login(`not-a-key-${i}`, ip);
      assertThat(
        refused,
        refused.status === 403,
        `refused key ${i + 1} of ${perIp.limit} after ${perIp.limit} good logins is 403 Invalid API key, not 429: good logins are no refused keys`,
      );
    }
    assertLimited(await login(user.apiKey, ip), perIp.limit, `the IP is over its ${perIp.limit} refused keys`);
  });

  // The IP's refused keys are the login's own count: a request to another operation from the IP,
  // even one another rule keyed by IP counts (a price list's `update=1`, once per minute per IP),
  // takes none of them.
  it('Given a refresh of the compact price list (update=1) from one IP, then refused keys from it up to its limit are still answered Invalid API key and only the next attempt is 429: another rule of the IP counts apart', async (ctx) => {
    await needsHelpers(ctx);
    const perIp = rule('ip');
    if (!perIp) return skip(ctx, 'the document sets no per-IP login limit');
    const ip = '203.0.113.63';
    const refresh = await call('GET', '/infos/prices/buyorderAndLowestSales', { query: { update: 1 }, ip });
    assertThat(refresh, refresh.status === 200, 'the refresh of the compact list is served');
    await assertAllRefusedKeysLeft(perIp.limit, ip, 'a price-list refresh');
  });

  // The IP's rule counts the attempts answered `Invalid API key` (its `counts`), not every refused
  // login: a banned account's logins, answered `forbidden` (POST /user/login's messages), are no
  // refused keys. Its own test: it needs an admin's ban (POST /admin/ban).
  it('Given as many logins of a banned account from one IP as its limit of refused keys, all answered forbidden, then refused keys up to that limit are still answered Invalid API key and only the next attempt is 429: the IP counts refused keys, not refusals', async (ctx) => {
    await needsHelpers(ctx);
    const perIp = rule('ip');
    if (!perIp) return skip(ctx, 'the document sets no per-IP login limit');
    const ip = '203.0.113.62';
    const admin = await session({ admin: true });
    // Banned keys spread over users so that no key reaches its own limit (`every attempt with this API key`).
    const perUser = Math.max(1, (rule('apiKey')?.limit ?? perIp.limit + 1) - 1);
    const bannedUser = async () => {
      const user = await helpers.user();
      setUpOk(await postAs(admin, '/admin/ban', { platformId: user.platformId, time: 3600, reason: 'Limits' }));
      return user;
    };
    let user = await bannedUser();
    for (let i = 0; i < perIp.limit; i++) {
      if (i > 0 && i % perUser === 0) user = await bannedUser();
      const banned = await login(user.apiKey, ip);
      assertThat(
        banned,
        banned.status === 403 && banned.message === 'forbidden',
        `login ${i + 1} of ${perIp.limit} of a banned account is 403 forbidden`,
      );
    }
    await assertAllRefusedKeysLeft(perIp.limit, ip, `${perIp.limit} banned logins`);
  });

  // Its own test: it reads the sessions (GET /user/ipList), which a target may not have yet, and
  // the limit's own rules above are told without it.
  it('Given as many logins with one API key as the limit, then the login answered 429 opens no session', async (ctx) => {
    await needsHelpers(ctx);
    const perKey = rule('apiKey');
    if (!perKey) return skip(ctx, 'the document sets no per-key login limit');
    const user = await helpers.user();
    const last = await loginUpTo(perKey.limit, user.apiKey, '198.18.2');
    const before = await sessionsOf(last);
    const limited = await login(user.apiKey, '198.18.3.1');
    assertLimited(limited, perKey.limit, 'the key is over its attempts');
    const after = await sessionsOf(last);
    assertThat(
      after.list,
      after.count === before.count,
      `a login answered 429 opens no session (${before.count} sessions before it)`,
    );
  });

  // The same for the IP's limit, which a server counts before it reads the body (the per-key one
  // after): a good key refused 429 there must not log in either.
  it('Given as many refused keys from one IP as its limit, then a good login from it answered 429 opens no session', async (ctx) => {
    await needsHelpers(ctx);
    const perIp = rule('ip');
    if (!perIp) return skip(ctx, 'the document sets no per-IP login limit');
    const user = await helpers.user();
    const last = await loginUpTo(1, user.apiKey, '198.18.4');
    const before = await sessionsOf(last);
    const ip = '203.0.113.61';
    for (let i = 0; i < perIp.limit; i++) await login(`not-a-key-${i}`, ip);
    const limited = await login(user.apiKey, ip);
    assertLimited(limited, perIp.limit, `the IP is over its ${perIp.limit} refused keys`);
    const after = await sessionsOf(last);
    assertThat(
      after.list,
      after.count === before.count,
      `a login answered 429 opens no session (${before.count} sessions before it)`,
    );
  });

  // A request refused before it is read is not carried out either: the document's "more than 100
  // header fields" answer (431, its `x-protocol-errors`: number and message read from there), sent
  // to a login with a good key. Both sides of the count, as the request reaches the target: exactly
  // 100 fields on the wire (with the client's own: host, connection, content-length, accept) are
  // served and open a session, exactly 101 are refused.
  it(
    `Given a good login with ${FIELDS} header fields, then it is served and opens a session; with ${FIELDS + 1}, it is answered 431 and opens no session [R-LIMIT-HEADER-FIELDS]`,
    sides(['at the limit', 'past the limit'], 'R-LIMIT-HEADER-FIELDS'),
    async (ctx) => {
      await needsHelpers(ctx);
      if (!(Number.isSafeInteger(FIELDS) && TOO_MANY)) return skip(ctx, 'the document states no header field limit');
      const user = await helpers.user();
      const last = await loginUpTo(1, user.apiKey, '198.18.5');
      const before = await sessionsOf(last);
      const loginWith = (fields: number, ip: string) =>
        call('POST', '/user/login', { json: { apiKey: user.apiKey }, ip, fields });
      const served = await loginWith(FIELDS, '198.18.6.1');
      assertThat(
        served,
        served.status === 200,
        `${FIELDS} header fields are not more than ${FIELDS}: the login is served`,
      );
      const between = await sessionsOf(last);
      assertThat(
        between.list,
        between.count === before.count + 1,
        `the login served with ${FIELDS} header fields opens a session (${before.count} sessions before it)`,
      );
      const refused = await loginWith(FIELDS + 1, '198.18.6.2');
      assertThat(
        refused,
        refused.status === 431 && refused.message === TOO_MANY.message,
        `more than ${FIELDS} header fields: 431 ${TOO_MANY.message}`,
      );
      const after = await sessionsOf(last);
      assertThat(
        after.list,
        after.count === between.count,
        `a login answered 431 opens no session (${between.count} sessions before it)`,
      );
    },
  );
});

/** `limit` refused keys from `ip` (after `what`) are each answered Invalid API key, and only the next attempt is 429. */
async function assertAllRefusedKeysLeft(limit: number, ip: string, what: string): Promise<void> {
  for (let i = 0; i < limit; i++) {
    const refused = await login(`not-a-key-${i}`, ip);
    assertThat(
      refused,
      refused.status === 403 && refused.message === 'Invalid API key',
      `refused key ${i + 1} of ${limit} after ${what} is 403 Invalid API key, not 429: what came before took none of the IP's refused keys`,
    );
  }
  assertLimited(await login('not-a-key-last', ip), limit, `the IP is over its ${limit} refused keys`);
}

/** The sessions of the user `caller` is logged in as (GET /user/ipList), and their count. */
async function sessionsOf(caller: { token: string; ip: string }): Promise<{ list: Answer; count: number }> {
  const list = await call('GET', '/user/ipList', caller);
  assertThat(list, list.status === 200, 'the sessions are listed');
  return { list, count: content(list).count as number };
}

/** `count` logins with one key, each from its own IP under `prefix`: the last one's JWT and IP. */
async function loginUpTo(count: number, apiKey: string, prefix: string): Promise<{ token: string; ip: string }> {
  let last = { token: '', ip: '' };
  for (let i = 0; i < count; i++) {
    const ip = `${prefix}.${i + 1}`;
    const ok = await login(apiKey, ip);
    assertThat(ok, ok.status === 200, `login ${i + 1} succeeds`);
    last = { token: content(ok).jwt as string, ip };
  }
  return last;
}
