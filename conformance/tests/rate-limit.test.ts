// Rate limits (seed: "Limits"): GET /item/prices 1 per 5 minutes per API key, and 429 answers with
// the four integer headers and `Rate limit exceeded. Retry after N seconds.`
import { beforeAll, describe, it } from 'vitest';
import { needsHelpers, resetIfPossible } from '../src/behavior.ts';
import { helpers, session } from '../src/helpers.ts';
import { assertConforms, assertThat, call } from '../src/http.ts';
import { settings } from '../src/settings.ts';
import { skip } from '../src/skip.ts';

beforeAll(resetIfPossible);

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

  it('Given ~600 requests in 60 s on one route, then the next one is limited for every session of that user, and not on another route nor for another user [R-LIMIT-TYPICAL-RATE, R-LIMIT-429-HEADERS]', async (ctx) => {
    await needsHelpers(ctx);
    if (settings.level !== 'all') return skip(ctx, 'sends 601 requests: runs with --level all only');
    const me = await session({}, '198.51.100.21');
    // The limit is per user, route and method: a second session of the user from another IP
    // shares the window (a limit per token or per IP would serve it).
    const login = await call('POST', '/user/login', { json: { apiKey: me.apiKey }, ip: '198.51.100.22' });
    const twin = { token: (login.body as { content: { jwt: string } }).content.jwt, ip: '198.51.100.22' };
    const other = await session({}, me.ip);
    for (let sent = 0; sent < 600; sent += 50) {
      await Promise.all(Array.from({ length: 50 }, () => call('GET', '/user/balance', { token: me.token, ip: me.ip })));
    }
    const over = await call('GET', '/user/ipList', { token: me.token, ip: me.ip });
    assertThat(over, over.status === 200, 'another route keeps its own window');
    const limited = await call('GET', '/user/balance', { token: me.token, ip: me.ip });
    assertConforms(limited);
    assertThat(limited, limited.status === 429, 'the 601st request on the route is limited');
    const shared = await call('GET', '/user/balance', { token: twin.token, ip: twin.ip });
    assertConforms(shared);
    assertThat(shared, shared.status === 429, "the user's second session (another IP) shares the window");
    const theirs = await call('GET', '/user/balance', { token: other.token, ip: other.ip });
    assertThat(theirs, theirs.status === 200, 'another user from the same IP has a window of their own');
  });

  it('Given ~600 POST requests in 60 s on one route, then the next POST is limited too (the limit counts GET and POST) [R-LIMIT-TYPICAL-RATE]', async (ctx) => {
    await needsHelpers(ctx);
    if (settings.level !== 'all') return skip(ctx, 'sends 601 requests: runs with --level all only');
    const me = await session({}, '198.51.100.23');
    // Closing payment reviews changes nothing when there are none: a POST that can be repeated.
    const close = () => call('POST', '/user/closePaymentReviews', { json: {}, token: me.token, ip: me.ip });
    for (let sent = 0; sent < 600; sent += 50) await Promise.all(Array.from({ length: 50 }, close));
    const limited = await close();
    assertConforms(limited);
    assertThat(limited, limited.status === 429, 'the 601st POST on the route is limited');
    const read = await call('GET', '/user/balance', { token: me.token, ip: me.ip });
    assertThat(read, read.status === 200, 'a GET of another route keeps its own window');
  });
});
