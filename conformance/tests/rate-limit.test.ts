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
import { changesState, isConnected, type Operation, operations } from '../src/oracle/document.ts';

beforeAll(resetIfPossible);

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
        `find ${count} route(s) of the general limit to send ~600 requests to`,
      ),
      { missing },
    );
  return found;
}

describe('GET /item/prices rate limit', () => {
  it('Given one call, when a second comes within 5 minutes, then 429 with its headers; after the window it works again [R-LIMIT-PRICES-RATE, R-LIMIT-429-HEADERS, R-ERR-429]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const first = await call('GET', '/item/prices', { query: { game: 440 }, token: me.token, ip: me.ip });
    assertThat(first, first.status === 200, 'the first call is served');
    const now = await helpers.now();
    const second = await call('GET', '/item/prices', { query: { game: 440 }, token: me.token, ip: me.ip });
    assertConforms(second);
    assertThat(second, second.status === 429, 'the second call within 5 minutes is limited');
    const retry = Number(second.headers['retry-after']);
    const reset = Number(second.headers['x-ratelimit-reset']);
    assertThat(
      second,
      second.message === `Rate limit exceeded. Retry after ${retry} seconds.`,
      'the message names Retry-After',
    );
    assertThat(
      second,
      Number(second.headers['x-ratelimit-limit']) === 1 && Number(second.headers['x-ratelimit-remaining']) === 0,
      'limit 1, remaining 0',
    );
    assertThat(
      second,
      Math.abs(reset - now - retry) <= 2 && retry <= 300 && retry >= 295,
      'Reset is now + Retry-After, within the 5-minute window',
    );
    await helpers.advance(300);
    const later = await call('GET', '/item/prices', { query: { game: 440 }, token: me.token, ip: me.ip });
    assertThat(later, later.status === 200, 'a new window serves again');
  });

  it(
    'Given ~600 requests in 60 s on one route, every one is served and the next one is limited for every session of that user, and not on another route nor for another user; one second before its `X-RateLimit-Reset` still limited, at it and one second after served [R-LIMIT-TYPICAL-RATE, R-LIMIT-429-HEADERS]',
    sides(['before', 'at', 'after'], 'R-LIMIT-TYPICAL-RATE'),
    async (ctx) => {
      await needsHelpers(ctx);
      if (settings.level !== 'all') return skip(ctx, 'sends 601 requests: runs with --level all only');
      const me = await session({}, '198.51.100.21');
      // The window opens with the first request on the route (the one finding it), on a clock set
      // to a whole second: its end is then at most 60 s later, whatever the target's window kind.
      const opened = await helpers.pinClock();
      const [route, another] = await routesServing(ctx, me, GET_ROUTES, 2);
      // The limit is per user, route and method: a second session of the user from another IP
      // shares the window (a limit per token or per IP would serve it).
      const twin = { token: await login(me.apiKey, '198.51.100.22'), ip: '198.51.100.22' };
      const other = await session({}, me.ip);
      // One request went to each route already, finding them. Every one up to the 600th is served:
      // a smaller limit (60 in 10 minutes, say) refuses one of them.
      const refusedBelow: number[] = [];
      for (let sent = 1; sent < 600; sent += 50) {
        const batch = await Promise.all(Array.from({ length: Math.min(50, 600 - sent) }, () => route!.send(me)));
        batch.forEach((a, i) => {
          if (a.status !== 200) refusedBelow.push(sent + 1 + i);
        });
        if (refusedBelow.length) {
          const first = batch.find((a) => a.status !== 200)!;
          assertThat(first, false, `request ${refusedBelow[0]} of 600 in the window is served`);
        }
      }
      const over = await another!.send(me);
      assertThat(over, over.status === 200, `another route (${another!.o.name}) keeps its own window`);
      const limited = await route!.send(me);
      assertConforms(limited);
      assertThat(limited, limited.status === 429, `the 601st request on ${route!.o.name} is limited`);
      const shared = await route!.send(twin);
      assertConforms(shared);
      assertThat(shared, shared.status === 429, "the user's second session (another IP) shares the window");
      const theirs = await route!.send(other);
      assertThat(theirs, theirs.status === 200, 'another user from the same IP has a window of their own');
      // The window resets when the target says (`X-RateLimit-Reset`, Unix seconds), within 60 s of
      // its first request: a longer window (10 minutes) says a later reset.
      const end = Number(limited.headers['x-ratelimit-reset']);
      assertThat(
        limited,
        Number(limited.headers['x-ratelimit-limit']) >= 600 && end > opened && end <= opened + 60,
        `X-RateLimit-Limit 600 or more and X-RateLimit-Reset within 60 s of the window's first request at ${opened} (got ${limited.headers['x-ratelimit-limit']}, ${end})`,
      );
      await assertWindowEnds(end, () => route!.send(me), 'X-RateLimit-Reset');
    },
  );

  it('Given ~600 POST requests in 60 s on one route, then the next POST is limited too (the limit counts GET and POST) [R-LIMIT-TYPICAL-RATE]', async (ctx) => {
    await needsHelpers(ctx);
    if (settings.level !== 'all') return skip(ctx, 'sends 601 requests: runs with --level all only');
    const me = await session({}, '198.51.100.23');
    const [route] = await routesServing(ctx, me, POST_ROUTES, 1);
    const [read] = await routesServing(ctx, me, GET_ROUTES, 1);
    for (let sent = 1; sent < 600; sent += 50)
      await Promise.all(Array.from({ length: Math.min(50, 600 - sent) }, () => route!.send(me)));
    const limited = await route!.send(me);
    assertConforms(limited);
    assertThat(limited, limited.status === 429, `the 601st POST on ${route!.o.name} is limited`);
    const other = await read!.send(me);
    assertThat(other, other.status === 200, `a GET of another route (${read!.o.name}) keeps its own window`);
  });
});
