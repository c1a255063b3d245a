// Every time rule at its boundary (issue 22): one second before, AT, and one second after, on the
// test clock. A deadline checked well before and well after passes an implementation that is off by
// one second at the exact boundary (`>` for `>=`); these catch it. One table, one row per rule: each
// side gets a subject of its own, prepared at the same pinned second, so no side consumes another's
// state; the boundary is read from what the target answered where it says it (`exp`, `bannedUntil`,
// `requestedAt`). At the boundary a rule's time is over: "24 hours must pass", "`bannedUntil` is the
// Unix time the ban ends", an `exp` "on or after which the JWT must not be accepted" (RFC 7519),
// a code "valid 24 hours", a window of 5 minutes. The document's "Conventions" settle the exact
// second of every period: one of N seconds that starts at t "covers t up to but not including
// t + N: at t + N it is over" (rows "updated within" N, a cache's lifetime, a rate-limit window),
// and a window reaching back from now "holds what happened after now - N". Where a length is still
// not stated in seconds (a year of 365 or 366 days), only the seconds around it are checked: every
// reading of it passes.
import { beforeAll, describe, it } from 'vitest';
import { content, jwtPayload, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, login, session } from '../src/kit/helpers.ts';
import { type Answer, assertThat, assertValue, call } from '../src/kit/http.ts';
import { sides } from '../src/kit/rule.ts';
import { activateTwoFactor } from '../src/kit/two-factor.ts';
import { getAs, postAs } from '../src/kit/user-calls.ts';
import { needsVariant } from '../src/kit/variants.ts';

beforeAll(resetIfPossible);

const DAY = 86_400;

/** A fresh user with two assets of a fresh item, for giveaways. */
async function giveawayCreator() {
  const me = await session();
  const item = await helpers.item({ name: `Boundary Crate ${me.platformId.slice(-6)}`, game: 440 });
  const ids: string[] = [];
  for (let i = 0; i < 2; i += 1) ids.push((await helpers.asset({ owner: me.platformId, itemId: item.id })).assetId);
  return { me, ids };
}

/** A private giveaway of one asset for an hour. */
const giveaway = (assetId: string) => ({ name: 'Boundary', maxEntries: 5, type: 1, duration: 3600, items: [assetId] });

/** The session rows of a `GET /user/ipList` answer. */
const sessionsOf = (a: Answer): { ip?: string; expire?: string }[] =>
  a.status === 200 ? (content(a)?.values ?? []) : [];

interface Outcome {
  want: string;
  ok: (a: Answer) => boolean;
}
const open: Outcome = { want: '200', ok: (a) => a.status === 200 };
const refused = (message: string): Outcome => ({
  want: `300 "${message}"`,
  ok: (a) => a.status === 300 && a.message === message,
});

interface TimeRule {
  operation: string;
  /** The rule in words, for the test name. */
  what: string;
  rules: string[];
  /** Prepares one subject with the clock at `base`; returns its boundary and the request that meets it. */
  arrange: (base: number) => Promise<{ boundary: number; act: () => Promise<Answer> }>;
  /** What a request one second before the boundary gets; at and after it gets `after`. */
  before: Outcome;
  after: Outcome;
}

const TIME_RULES: TimeRule[] = [
  {
    operation: 'POST /cashout/process',
    what: '24 hours must pass between two cashout requests',
    rules: ['R-LIMIT-CASHOUT', 'R-MSG-CASHOUT-PROCESS'],
    arrange: async (base) => {
      const me = await session({ balance: 100_000, paymentMethods: ['provider_a'] });
      await helpers.setClock(base);
      const first = await postAs(me, '/cashout/process', { amount: 5000, method: 'provider_a' });
      assertThat(first, first.status === 200, 'the first request is accepted');
      await helpers.payment(content(first).cashoutId, 'completed');
      const history = await getAs(me, '/user/getCashoutHistory');
      const requestedAt = Number(content(history).cashouts[0]?.requestedAt);
      return {
        boundary: requestedAt + DAY,
        act: () => postAs(me, '/cashout/process', { amount: 5000, method: 'provider_a' }),
      };
    },
    before: refused('Cooldown period'),
    after: open,
  },
  {
    operation: 'GET /user/balance',
    what: 'a JWT is refused from its `exp` on',
    rules: ['R-LIMIT-TOKEN-LIFETIME', 'R-AUTH-EXPIRY', 'R-ERR-403'],
    arrange: async (base) => {
      await helpers.setClock(base);
      const me = await session();
      return { boundary: Number(jwtPayload(me.token).exp), act: () => getAs(me, '/user/balance') };
    },
    before: open,
    after: { want: '403 forbidden', ok: (a) => a.status === 403 },
  },
  {
    operation: 'POST /user/login',
    what: 'a ban ends at `bannedUntil`',
    rules: ['R-TRANS-BAN', 'R-MSG-ADMIN-BAN'],
    arrange: async (base) => {
      const admin = await session({ admin: true }, '198.51.100.81');
      const user = await session({}, '198.51.100.82');
      await helpers.setClock(base);
      const banned = await postAs(admin, '/admin/ban', { platformId: user.platformId, time: 3600, reason: 'Boundary' });
      assertThat(banned, banned.status === 200, 'the ban is recorded');
      return {
        boundary: Number(content(banned).bannedUntil),
        act: () => call('POST', '/user/login', { json: { apiKey: user.apiKey }, ip: user.ip }),
      };
    },
    before: { want: '403 "forbidden"', ok: (a) => a.status === 403 && a.message === 'forbidden' },
    after: open,
  },
  {
    operation: 'GET /admin/banList',
    what: 'a ban is `active` until its `until`',
    rules: ['R-ADMIN-BANLIST', 'R-TRANS-BAN'],
    arrange: async (base) => {
      const admin = await session({ admin: true }, '198.51.100.85');
      const user = await helpers.user();
      await helpers.setClock(base);
      const banned = await postAs(admin, '/admin/ban', { platformId: user.platformId, time: 3600, reason: 'Boundary' });
      assertThat(banned, banned.status === 200, 'the ban is recorded');
      return {
        boundary: Number(content(banned).bannedUntil),
        act: () => getAs(admin, '/admin/banList', { platformId: user.platformId }),
      };
    },
    before: { want: 'active', ok: (a) => a.status === 200 && content(a)?.bans?.[0]?.active === true },
    after: { want: 'not active', ok: (a) => a.status === 200 && content(a)?.bans?.[0]?.active === false },
  },
  {
    operation: 'POST /inventory/price',
    what: 'the trade hold of a game 730 asset ends at its `tradeHoldUntil`',
    rules: ['R-LIMIT-TRADE-HOLD', 'R-MSG-PRICE-HOLD'],
    arrange: async (base) => {
      const item = await helpers.item({ name: 'Boundary Rifle', game: 730 });
      const me = await session();
      const asset = await helpers.asset({ owner: me.platformId, itemId: item.id, tradeHoldUntil: base + 600 });
      return { boundary: base + 600, act: () => postAs(me, '/inventory/price', { ids: asset.assetId, price: 500 }) };
    },
    before: refused('This item will be locked for 7 days'),
    after: open,
  },
  {
    operation: 'GET /item/prices',
    what: 'one request per 5 minutes per API key',
    rules: ['R-LIMIT-PRICES-RATE'],
    arrange: async (base) => {
      const me = await session();
      await helpers.setClock(base);
      const first = await getAs(me, '/item/prices', { game: 440 });
      assertThat(first, first.status === 200, 'the first request is served');
      return { boundary: base + 300, act: () => getAs(me, '/item/prices', { game: 440 }) };
    },
    before: { want: '429', ok: (a) => a.status === 429 },
    after: open,
  },
  {
    operation: 'POST /user/updateShortUrl',
    what: 'the short URL changes once per 30 days',
    rules: ['R-LIMIT-SHORT-URL', 'R-MSG-SHORT-URL'],
    arrange: async (base) => {
      const me = await session();
      const name = `bnd-${me.platformId.slice(-8)}`;
      await helpers.setClock(base);
      const first = await postAs(me, '/user/updateShortUrl', { shortUrl: name });
      assertThat(first, first.status === 200, 'the first short URL is set');
      return { boundary: base + 30 * DAY, act: () => postAs(me, '/user/updateShortUrl', { shortUrl: `${name}-b` }) };
    },
    before: refused('Short URL can only be changed once per month'),
    after: open,
  },
  {
    operation: 'POST /user/email/change/request',
    what: 'one e-mail change request per 5 minutes',
    rules: ['R-LIMIT-EMAIL-CHANGE', 'R-MSG-EMAIL-CHANGE-REQUEST'],
    arrange: async (base) => {
      const me = await session();
      await helpers.setClock(base);
      const first = await postAs(me, '/user/email/change/request', { email: `first-${me.platformId}@example.com` });
      assertThat(first, first.status === 200, 'the first request is accepted');
      return {
        boundary: base + 300,
        act: () => postAs(me, '/user/email/change/request', { email: `second-${me.platformId}@example.com` }),
      };
    },
    before: refused('Too many requests'),
    after: open,
  },
  {
    operation: 'POST /user/email/change/validate',
    what: 'an e-mail change code is valid 24 hours',
    rules: ['R-LIMIT-EMAIL-CHANGE', 'R-MSG-EMAIL-CHANGE-VALIDATE'],
    arrange: async (base) => {
      const me = await session();
      const address = `code-${me.platformId}@example.com`;
      await helpers.setClock(base);
      const asked = await postAs(me, '/user/email/change/request', { email: address });
      assertThat(asked, asked.status === 200, 'the request is accepted');
      const code = String((await helpers.outbox('email', address)).at(-1)?.data?.code);
      return { boundary: base + DAY, act: () => postAs(me, '/user/email/change/validate', { code }) };
    },
    before: open,
    after: refused('Invalid or expired code'),
  },
  {
    operation: 'POST /giveaways/create',
    what: 'one giveaway per hour',
    rules: ['R-LIMIT-GIVEAWAYS', 'R-MSG-GIVEAWAYS-CREATE'],
    arrange: async (base) => {
      const { me, ids } = await giveawayCreator();
      await helpers.setClock(base);
      const first = await postAs(me, '/giveaways/create', giveaway(ids[0]!));
      assertThat(first, first.status === 200, 'the first giveaway is created');
      return { boundary: base + 3600, act: () => postAs(me, '/giveaways/create', giveaway(ids[1]!)) };
    },
    before: refused('Rate limit exceeded. Maximum 1 giveaway per hour'),
    after: open,
  },
  {
    operation: 'POST /giveaways/comment',
    what: 'one comment per 10 minutes',
    rules: ['R-LIMIT-GIVEAWAYS', 'R-MSG-GIVEAWAYS-COMMENT'],
    arrange: async (base) => {
      const { me, ids } = await giveawayCreator();
      const created = await postAs(me, '/giveaways/create', giveaway(ids[0]!));
      const url = content(created).giveaway.url;
      await helpers.setClock(base);
      const first = await postAs(me, '/giveaways/comment', { url, comment: 'first' });
      assertThat(first, first.status === 200, 'the first comment is posted');
      return { boundary: base + 600, act: () => postAs(me, '/giveaways/comment', { url, comment: 'second' }) };
    },
    before: refused('You can only post one comment every 10 minutes'),
    after: open,
  },
  {
    operation: 'GET /item/pricing/{item}',
    what: 'single-item pricing is cached 20 minutes',
    rules: ['R-LIMIT-PRICE-CACHE', 'R-PRICING'],
    arrange: async (base) => {
      const me = await session();
      const item = await helpers.item({ name: `Boundary Priced ${me.platformId.slice(-6)}`, game: 440 });
      await helpers.setClock(base);
      const first = await getAs(me, `/item/pricing/${item.id}`);
      assertThat(first, first.status === 200 && content(first).cached === false, 'the first request computes it');
      return { boundary: base + 20 * 60, act: () => getAs(me, `/item/pricing/${item.id}`) };
    },
    before: { want: 'cached', ok: (a) => a.status === 200 && content(a).cached === true },
    after: { want: 'recomputed (cached false)', ok: (a) => a.status === 200 && content(a).cached === false },
  },
  {
    operation: 'GET /item/pricing/bulk',
    what: 'bulk pricing reuses rows updated within 5 minutes',
    rules: ['R-LIMIT-PRICE-CACHE', 'R-PRICING-BULK-DUPLICATES'],
    arrange: async (base) => {
      const me = await session();
      const item = await helpers.item({ name: `Boundary Bulk ${me.platformId.slice(-6)}`, game: 440 });
      const ask = () => getAs(me, '/item/pricing/bulk', { items: String(item.id) });
      await helpers.setClock(base);
      const first = await ask();
      assertThat(first, first.status === 200 && content(first).refreshed_items === 1, 'the first request computes it');
      return { boundary: base + 5 * 60, act: ask };
    },
    before: { want: 'from the stored row', ok: (a) => a.status === 200 && content(a).items?.[0]?.from_cache === true },
    // Conventions: rows "updated within" N cover t up to but not including t + N.
    after: { want: 'recomputed', ok: (a) => a.status === 200 && content(a).items?.[0]?.from_cache === false },
  },
  {
    operation: 'POST /user/reset2FA/validate',
    what: 'a 2FA reset is valid 24 hours, until its `expiresAt`',
    rules: ['R-LIMIT-2FA-RESET', 'R-MSG-2FA-RESET-VALIDATE'],
    arrange: async (base) => {
      const me = await session();
      const backup = `reset-${me.platformId}@example.com`;
      await activateTwoFactor(me, backup);
      await helpers.setClock(base);
      const asked = await postAs(me, '/user/reset2FA/ask', {});
      needsVariant(asked, 'second'); // the 24-hour expiry is the second variant's
      const { requestId, expiresAt } = content(asked);
      const code = String((await helpers.outbox('email', backup)).at(-1)?.data?.code);
      return {
        boundary: Number(expiresAt),
        act: () => postAs(me, '/user/reset2FA/validate', { code, requestId }),
      };
    },
    before: open,
    after: refused('Invalid or expired code'),
  },
  {
    operation: 'GET /user/ipList',
    what: 'a session is left out from its `expire` on',
    rules: ['R-IPLIST', 'R-LIMIT-TOKEN-LIFETIME'],
    arrange: async (base) => {
      await helpers.setClock(base);
      const ending = await session({}, '198.51.100.91');
      const listed = await getAs(ending, '/user/ipList');
      const row = sessionsOf(listed).find((v) => v.ip === ending.ip);
      assertThat(listed, row !== undefined, 'the session is listed with its expiry');
      // Read from a session of the same user logged in at the time of reading, from another IP.
      const read = async () => {
        const me = { ...ending, ip: '198.51.100.92', token: await login(ending.apiKey, '198.51.100.92') };
        return getAs(me, '/user/ipList');
      };
      return { boundary: Number(row?.expire), act: read };
    },
    before: { want: 'listed', ok: (a) => a.status === 200 && sessionsOf(a).some((v) => v.ip === '198.51.100.91') },
    after: { want: 'left out', ok: (a) => a.status === 200 && !sessionsOf(a).some((v) => v.ip === '198.51.100.91') },
  },
  {
    operation: 'GET /giveaways/details/{url}',
    what: 'a giveaway ends at its `endsAt`',
    rules: ['R-GIVEAWAY-DETAILS', 'R-STATE-GIVEAWAY'],
    arrange: async () => {
      const { me, ids } = await giveawayCreator();
      const created = await postAs(me, '/giveaways/create', giveaway(ids[0]!));
      const { url, endsAt } = content(created).giveaway;
      return { boundary: Number(endsAt), act: () => getAs(me, `/giveaways/details/${url}`) };
    },
    before: { want: 'not ended', ok: (a) => a.status === 200 && content(a).giveaway?.ended === false },
    after: { want: 'ended', ok: (a) => a.status === 200 && content(a).giveaway?.ended === true },
  },
];

describe('time rules one second before, at and one second after the boundary', () => {
  for (const r of TIME_RULES) {
    const checked = [
      ['one second before', -1, r.before],
      ['at', 0, r.after],
      ['one second after', 1, r.after],
    ] as const;
    it(
      `${r.operation}: ${r.what}: one second before ${r.before.want}, at the boundary and one second after ${r.after.want} [${r.rules.join(', ')}]`,
      sides(['before', 'at', 'after'], ...r.rules),
      async (ctx) => {
        await needsHelpers(ctx);
        const base = await helpers.pinClock();
        // A subject per side, prepared at the same second: no side consumes another's state.
        const subjects = [];
        for (let i = 0; i < checked.length; i += 1) subjects.push(await r.arrange(base));
        for (const [i, [side, delta, want]] of checked.entries()) {
          const { boundary, act } = subjects[i]!;
          await helpers.setClock(boundary + delta);
          const answer = await act();
          assertThat(answer, want.ok(answer), `${r.what}: ${side} the boundary (${boundary}) expected ${want.want}`);
        }
      },
    );
  }
});

/**
 * The price list's two clocks (`GET /public/price`): the list is refreshed every 3 minutes, and
 * `update=1` forces a refresh at most once per minute per IP (the document's `x-rate-limit`). The
 * list is one for everybody, so the sides run one after another, each on a clock 1000 seconds on
 * and from an IP of its own, each starting with a forced refresh at its base: `lastUpdate` says
 * whether the answer was refreshed.
 */
const PRICE_LIST_CLOCKS = [
  // Conventions: a cache's lifetime and a rate-limit window are over at t + N, so a list exactly
  // 3 minutes old is refreshed, and so is one forced exactly a minute after the last forced refresh.
  { what: 'the list is refreshed every 3 minutes', period: 3 * 60, query: {} as Record<string, number> },
  { what: '`update=1` forces a refresh once per minute per IP', period: 60, query: { update: 1 } },
];

describe('the price list cache one second before, at and one second after its boundary', () => {
  it(
    'GET /public/price: the list is refreshed every 3 minutes and `update=1` refreshes once per minute per IP: one second before served from the cache, at the end of the 3 minutes or the minute and one second after refreshed [R-LIMIT-PRICE-LIST-CACHE, R-PUBLIC-PRICE]',
    sides(['before', 'at', 'after'], 'R-LIMIT-PRICE-LIST-CACHE'),
    async (ctx) => {
      await needsHelpers(ctx);
      let base = await helpers.pinClock();
      for (const [n, clock] of PRICE_LIST_CLOCKS.entries())
        for (const [i, [side, delta]] of (
          [
            ['one second before', -1],
            ['at', 0],
            ['one second after', 1],
          ] as const
        ).entries()) {
          base += 1000;
          const ip = `198.51.100.${180 + n * 3 + i}`;
          const list = (query: Record<string, number>) => call('GET', '/public/price', { query, ip });
          await helpers.setClock(base);
          const forced = await list({ update: 1 });
          assertValue(forced, content(forced)?.lastUpdate, base, 'a forced refresh from a fresh IP refreshes the list');
          const boundary = base + clock.period;
          await helpers.setClock(boundary + delta);
          const answer = await list(clock.query);
          const want = delta < 0 ? base : boundary + delta;
          assertValue(
            answer,
            content(answer)?.lastUpdate,
            want,
            `${clock.what}: ${side} ${boundary} the list's lastUpdate (${delta < 0 ? 'served from the cache' : 'refreshed'})`,
          );
        }
    },
  );
});

type Seller = Awaited<ReturnType<typeof session>>;

interface Window {
  days: number;
  /**
   * The longest reading of the window, when the document does not state its length in seconds
   * (a year: 365 days, or 366 across a 29 February): the sale is outside from there on.
   */
  longest?: number;
  /** The reads that keep the sale inside the window: each says how many of the seller's sales it counts. */
  reads: { what: string; count: (me: Seller) => Promise<{ answer: Answer; count?: number }> }[];
}

const salesIn = (range: string) => ({
  what: `GET /user/getSalesHistory?range=${range}`,
  count: async (me: Seller) => {
    const answer = await getAs(me, '/user/getSalesHistory', { range });
    return { answer, count: content(answer)?.total };
  },
});

/** The windows of the document's `range` values and the summary's "last 30 days". */
const WINDOWS: Window[] = [
  { days: 7, reads: [salesIn('7d')] },
  {
    days: 30,
    reads: [
      salesIn('30d'),
      {
        what: 'GET /user/getSalesInfos last30DaysSales',
        count: async (me) => {
          const answer = await getAs(me, '/user/getSalesInfos');
          // The other description of the summary has no 30-day count: nothing to compare.
          return { answer, count: content(answer)?.last30DaysSales };
        },
      },
    ],
  },
  { days: 90, reads: [salesIn('90d')] },
  // The document says "year", not a number of seconds: 365 days, or 366 in a leap year. Its exact
  // second stays open; the sale counts one second before 365 days and not from 366 days on.
  { days: 365, longest: 366, reads: [salesIn('1y')] },
];

/** A seller (from `ip`) with one sale on the pinned clock, and the sale's time as their history gives it. */
async function oneSale(ip: string): Promise<{ seller: Seller; at: number }> {
  const seller = await session({}, ip);
  const buyer = await helpers.user({ balance: 5000 });
  const item = await helpers.item({ name: `Windowed Sale ${seller.platformId.slice(-6)}`, game: 440 });
  await helpers.buyOrder({ owner: buyer.platformId, itemId: item.id, price: 1000, amount: 1 });
  const asset = await helpers.asset({ owner: seller.platformId, itemId: item.id });
  await helpers.pinClock();
  const sold = await postAs(seller, '/inventory/price', { ids: asset.assetId, price: 1000 });
  assertThat(sold, sold.status === 200, 'the asset sells into the order');
  const history = await getAs(seller, '/user/getSalesHistory');
  const at = Number(content(history)?.sales?.[0]?.timestamp);
  assertThat(history, Number.isInteger(at), 'the sale is listed with its time');
  return { seller, at };
}

/** The seller with a fresh JWT at the clock's time (a JWT lives about 31 days). */
const loggedIn = async (seller: Seller): Promise<Seller> => ({
  ...seller,
  token: await login(seller.apiKey, seller.ip),
});

// Windows reaching back from now ("the last 7 days"). Conventions: such a window "holds what
// happened after now - N", so a sale exactly N seconds old is out of it. The sale counts one second
// inside its window and not at its end nor one second outside it (for a year, at and after its
// longest reading).
describe('windows one second inside, at their end and one second outside', () => {
  it(
    'GET /user/getSalesHistory: `range` 7d, 30d, 90d and 1y and the summary of the last 30 days count a sale one second inside their window and not at its end nor one second outside it [R-SALES-HISTORY, R-SALES-SUMMARY]',
    sides(['before', 'at', 'after'], 'R-SALES-HISTORY', 'R-SALES-SUMMARY'),
    async (ctx) => {
      await needsHelpers(ctx);
      const { seller, at } = await oneSale('198.51.100.83');
      for (const { days, longest = days, reads } of WINDOWS)
        for (const [side, end, delta, want] of [
          ['one second inside', days, -1, 1],
          ['at the end of', longest, 0, 0],
          ['one second outside', longest, 1, 0],
        ] as const) {
          await helpers.setClock(at + end * DAY + delta);
          const me = await loggedIn(seller);
          for (const read of reads) {
            const { answer, count } = await read.count(me);
            if (count === undefined && read.what.includes('getSalesInfos')) continue;
            assertValue(
              answer,
              count,
              want,
              `${read.what} ${side} its ${end} days (sale at ${at}, clock at ${at + end * DAY + delta})`,
            );
          }
        }
    },
  );
});

// The sales chart's windows (`GET /user/getSalesChartInfos`): the last 7 days (`1W`), 30 days (`1M`,
// and without `period`) and 365 days (`1Y`), drawn as "one row per day of the window". The day
// rows are days of a time zone the document does not state, so where a window of whole days
// starts is open by up to a day: one of 7 days may start at today's midnight 6 days back, or hold
// the seconds after now - 7 days and the 8 days they touch. A sale N - 1 days old is inside every
// reading and one N + 1 days old outside every reading: those two seconds are checked.
const CHART_WINDOWS = [
  { days: 7, periods: ['1W'] },
  { days: 30, periods: ['1M', undefined] },
  { days: 365, periods: ['1Y'] },
];

describe('the sales chart windows a day inside and a day outside', () => {
  it(
    'GET /user/getSalesChartInfos: `period` 1W, 1M, 1Y and the default 30 days count a sale N - 1 days old in their statistics and rows and not one N + 1 days old (the days of the rows have no stated time zone) [R-SALES-CHART]',
    sides(['before', 'after'], 'R-SALES-CHART'),
    async (ctx) => {
      await needsHelpers(ctx);
      const { seller, at } = await oneSale('198.51.100.84');
      // The clock only moves forward: each window's two sides, the shorter windows first.
      for (const { days, periods } of CHART_WINDOWS)
        for (const [side, shift, want] of [
          ['a day inside', -1, 1],
          ['a day outside', 1, 0],
        ] as const) {
          const clock = at + (days + shift) * DAY;
          await helpers.setClock(clock);
          const me = await loggedIn(seller);
          for (const period of periods) {
            const answer = await getAs(me, '/user/getSalesChartInfos', period ? { period } : {});
            const rows = (content(answer)?.values ?? []) as { sales?: number }[];
            const inRows = rows.reduce((n, r) => n + Number(r.sales ?? 0), 0);
            const what = `period ${period ?? 'absent (the last 30 days)'} ${side} its ${days} days (sale at ${at}, clock at ${clock})`;
            assertValue(answer, content(answer)?.statistics?.totalSales, want, `${what}: statistics.totalSales`);
            assertValue(answer, inRows, want, `${what}: the sales of the rows`);
          }
        }
    },
  );
});
