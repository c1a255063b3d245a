// Rate limits (seed: "Limits"): GET /item/prices 1 per 5 minutes per API key, and 429 answers with
// the four integer headers and `Rate limit exceeded. Retry after N seconds.`; the general ~600 per
// 60 s per user, route and method, on whichever routes of the document the target implements.
import { beforeAll, describe, it, type TestContext } from 'vitest';
import { needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { assertWindowEnds, helpers, login, session } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, call } from '../src/kit/http.ts';
import { inScope, isNotImplemented, notImplementedReason } from '../src/kit/not-implemented.ts';
import { buildRequest } from '../src/kit/requests.ts';
import { sides } from '../src/kit/rule.ts';
import { settings } from '../src/kit/settings.ts';
import { skip } from '../src/kit/skip.ts';
import {
  changesState,
  document,
  findOperation,
  isConnected,
  type Operation,
  operations,
} from '../src/oracle/document.ts';

beforeAll(resetIfPossible);

/** `GET /item/prices`' own limit (`x-rate-limit`): how many requests per how many seconds. */
const PRICES: { limit: number; window: number } = findOperation('GET', '/item/prices')?.op['x-rate-limit'];
/** The general limit as the document's "Rate limits" states it: "About 600 requests per 60-second window". */
const [, GENERAL = Number.NaN, WINDOW = Number.NaN] = (
  /About (\d+) requests per (\d+)-second window/.exec(document.info.description) ?? []
).map(Number);

type Me = { token: string; ip: string };

/**
 * The routes the general limit is tried on: Connected, not admin, without a limit of their own, and
 * whose documented request changes nothing or can be repeated (setting the same value again). The
 * ones the first tests of this suite used come first; any the target implements will do.
 */
const general = (o: Operation) => isConnected(o) && o.permission !== 'admin' && !o.op['x-rate-limit'];
const first = (names: string[]) => (a: Operation, b: Operation) =>
  (names.indexOf(a.name) + 1 || names.length + 1) - (names.indexOf(b.name) + 1 || names.length + 1);
const GET_ROUTES = operations
  .filter((o) => o.method === 'GET' && general(o) && !changesState(o))
  .sort(first(['GET /user/balance', 'GET /user/ipList']));
const POST_ROUTES = operations.filter(
  (o) =>
    general(o) &&
    ['POST /user/closePaymentReviews', 'POST /user/setMailNotificationStatus', 'POST /user/setPrivacySetting'].includes(
      o.name,
    ),
);

/**
 * The first `count` of `routes` that serve their documented request to `me` (one request each: it
 * counts in their windows). Skips the test naming the routes that answered 404 when fewer serve.
 */
async function routesServing(ctx: TestContext, me: Me, routes: Operation[], count: number) {
  const found: { o: Operation; send: (as: Me) => Promise<Answer> }[] = [];
  const missing: string[] = [];
  for (const o of routes) {
    if (found.length === count) break;
    if (!inScope(settings.operations, o.name)) continue;
    const built = buildRequest(o);
    const send = (as: Me) =>
      call(o.method, built.path, { query: built.query, json: built.json, token: as.token, ip: as.ip });
    const answer = await call(o.method, built.path, {
      query: built.query,
      json: built.json,
      token: me.token,
      ip: me.ip,
      on404: 'answer', // a route the target lacks is passed over: another one will do
    });
    if (answer.status === 200) found.push({ o, send });
    else if (isNotImplemented(answer.status)) missing.push(o.name);
  }
  if (found.length < count)
    skip(
      ctx,
      notImplementedReason(
        missing.join(', ') || 'no route',
        `find ${count} route(s) of the general limit to send ~${GENERAL} requests to`,
      ),
      { missing },
    );
  return found;
}

describe('GET /item/prices rate limit', () => {
  it(
    `Given ${PRICES.limit} call(s), when one more comes within ${PRICES.window} seconds, then 429 with its headers; after the window it works again [R-LIMIT-PRICES-RATE, R-LIMIT-429-HEADERS, R-ERR-429]`,
    sides(['at the limit', 'past the limit'], 'R-LIMIT-PRICES-RATE'),
    async (ctx) => {
      await needsHelpers(ctx);
      const me = await session();
      const prices = () => call('GET', '/item/prices', { query: { game: 440 }, token: me.token, ip: me.ip });
      for (let n = 1; n <= PRICES.limit; n += 1) {
        const served = await prices();
        assertThat(served, served.status === 200, `call ${n} of ${PRICES.limit} in the window is served`);
      }
      const now = await helpers.now();
      const second = await prices();
      assertConforms(second);
      assertThat(second, second.status === 429, `call ${PRICES.limit + 1} within ${PRICES.window} seconds is limited`);
      const retry = Number(second.headers['retry-after']);
      const reset = Number(second.headers['x-ratelimit-reset']);
      assertThat(
        second,
        second.message === `Rate limit exceeded. Retry after ${retry} seconds.`,
        'the message names Retry-After',
      );
      assertThat(
        second,
        Number(second.headers['x-ratelimit-limit']) === PRICES.limit &&
          Number(second.headers['x-ratelimit-remaining']) === 0,
        `limit ${PRICES.limit}, remaining 0`,
      );
      assertThat(
        second,
        Math.abs(reset - now - retry) <= 2 && retry <= PRICES.window && retry >= PRICES.window - 5,
        `Reset is now + Retry-After, within the ${PRICES.window}-second window`,
      );
      await helpers.advance(PRICES.window);
      const later = await prices();
      assertThat(later, later.status === 200, 'a new window serves again');
    },
  );

  it(
    `Given ~${GENERAL} requests in ${WINDOW} s on one route, every one is served and the next one is limited for every session of that user, and not on another route nor for another user; one second before its \`X-RateLimit-Reset\` still limited, at it and one second after served [R-LIMIT-TYPICAL-RATE, R-LIMIT-429-HEADERS]`,
    sides(['before', 'at', 'after', 'at the limit', 'past the limit'], 'R-LIMIT-TYPICAL-RATE'),
    async (ctx) => {
      await needsHelpers(ctx);
      if (settings.level !== 'all') return skip(ctx, `sends ${GENERAL + 1} requests: runs with --level all only`);
      const me = await session({}, '198.51.100.21');
      // The window opens with the first request on the route (the one finding it), on a clock set
      // to a whole second: its end is then at most WINDOW s later, whatever the target's window kind.
      const opened = await helpers.pinClock();
      const [route, another] = await routesServing(ctx, me, GET_ROUTES, 2);
      // The limit is per user, route and method: a second session of the user from another IP
      // shares the window (a limit per token or per IP would serve it).
      const twin = { token: await login(me.apiKey, '198.51.100.22'), ip: '198.51.100.22' };
      const other = await session({}, me.ip);
      // One request went to each route already, finding them. Every one up to the GENERAL-th is served:
      // a smaller limit (60 in 10 minutes, say) refuses one of them.
      const refusedBelow: number[] = [];
      for (let sent = 1; sent < GENERAL; sent += 50) {
        const batch = await Promise.all(Array.from({ length: Math.min(50, GENERAL - sent) }, () => route!.send(me)));
        batch.forEach((a, i) => {
          if (a.status !== 200) refusedBelow.push(sent + 1 + i);
        });
        if (refusedBelow.length) {
          const first = batch.find((a) => a.status !== 200)!;
          assertThat(first, false, `request ${refusedBelow[0]} of ${GENERAL} in the window is served`);
        }
      }
      const over = await another!.send(me);
      assertThat(over, over.status === 200, `another route (${another!.o.name}) keeps its own window`);
      const limited = await route!.send(me);
      assertConforms(limited);
      assertThat(limited, limited.status === 429, `request ${GENERAL + 1} on ${route!.o.name} is limited`);
      const shared = await route!.send(twin);
      assertConforms(shared);
      assertThat(shared, shared.status === 429, "the user's second session (another IP) shares the window");
      const theirs = await route!.send(other);
      assertThat(theirs, theirs.status === 200, 'another user from the same IP has a window of their own');
      // The window resets when the target says (`X-RateLimit-Reset`, Unix seconds), within WINDOW s of
      // its first request: a longer window (10 minutes) says a later reset.
      const end = Number(limited.headers['x-ratelimit-reset']);
      assertThat(
        limited,
        Number(limited.headers['x-ratelimit-limit']) >= GENERAL && end > opened && end <= opened + WINDOW,
        `X-RateLimit-Limit ${GENERAL} or more and X-RateLimit-Reset within ${WINDOW} s of the window's first request at ${opened} (got ${limited.headers['x-ratelimit-limit']}, ${end})`,
      );
      await assertWindowEnds(end, () => route!.send(me), 'X-RateLimit-Reset');
    },
  );

  it(`Given ~${GENERAL} POST requests in ${WINDOW} s on one route, then the next POST is limited too (the limit counts GET and POST) [R-LIMIT-TYPICAL-RATE]`, async (ctx) => {
    await needsHelpers(ctx);
    if (settings.level !== 'all') return skip(ctx, `sends ${GENERAL + 1} requests: runs with --level all only`);
    const me = await session({}, '198.51.100.23');
    const [route] = await routesServing(ctx, me, POST_ROUTES, 1);
    const [read] = await routesServing(ctx, me, GET_ROUTES, 1);
    for (let sent = 1; sent < GENERAL; sent += 50)
      await Promise.all(Array.from({ length: Math.min(50, GENERAL - sent) }, () => route!.send(me)));
    const limited = await route!.send(me);
    assertConforms(limited);
    assertThat(limited, limited.status === 429, `POST ${GENERAL + 1} on ${route!.o.name} is limited`);
    const other = await read!.send(me);
    assertThat(other, other.status === 200, `a GET of another route (${read!.o.name}) keeps its own window`);
  });
});
