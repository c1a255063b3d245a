// Planted faults of issue 32: answers of the documented shape whose meaning is a near miss (a total
// counting open requests, a count of orders for a count of units, a settled trade reported pending,
// an event left out, a period in the wrong unit, a slug read before an ID, a list by creation for
// one by activity), a test-helper promise broken (reset keeping rate-limit counters), a number
// checked from one side only (a general limit of 60 in 10 minutes), and a draw read from the wrong
// digits. Each is caught in suite.test.ts by the test its `grep` names; FAULTS (faults.ts) lists them.
import { createHmac } from 'node:crypto';
import {
  clockNow,
  type Fault,
  graphsPeriodAs,
  helperAnswers,
  type Json,
  map,
  newestCreatedFirst,
  rewriteContent,
  set,
} from './fault-kit.ts';

/** The 429 of a limit of `limit` requests in a window of `window` seconds opened at `start`, answered at `now`. */
function limited(limit: number, window: number, start: number, now: number) {
  const retry = Math.max(1, start + window - now);
  return {
    status: 429,
    headers: {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(start + window),
      'retry-after': String(retry),
    },
    body: { err: true, success: false, content: `Rate limit exceeded. Retry after ${retry} seconds.` },
  };
}

/** The items the test helpers created, by slug (slug -> ID). */
const itemSlugs = helperAnswers('slugs', '/test_helpers/items', (item) =>
  item?.url !== undefined ? [String(item.url), String(item.id)] : undefined,
);

/** The buy orders the test helpers placed, by item, price and owner (one per user and item). */
const helperOrders = helperAnswers('orders', '/test_helpers/buyorders', (_, sent) => [
  `${sent.itemId} ${sent.price} ${sent.owner}`,
  String(sent.amount),
]);

export const MEANING_FAULTS: Record<string, Fault> = {
  'cashout-total-counts-open': {
    kind: 'meaning',
    description: 'GET /user/getCashoutHistory sums every request not failed or cancelled into totalCashedOut',
    grep: 'an open request beside it not counted',
    response: rewriteContent('/user/getCashoutHistory', (page) => {
      if (Array.isArray(page.cashouts) && typeof page.totalCashedOut === 'number')
        page.totalCashedOut = page.cashouts
          .filter((c: Json) => ['pending', 'processing', 'completed'].includes(c.status))
          .reduce((sum: number, c: Json) => sum + c.amount, 0);
    }),
  },
  'instant-sell-counts-orders': {
    kind: 'meaning',
    description: 'GET /instantsell/{game} counts the buy orders at the best bid instead of the units they want',
    grep: 'lists the asset at the highest bid with the quantity wanted at it',
    response: (x, memory) => {
      // The buy orders the test helpers placed (the proxy sees no other way), counted at the bid.
      const orders = [...helperOrders(x, memory).keys()];
      const rows = /^\/instantsell\/\d+$/.test(x.path) ? x.body?.content?.informations?.rows : undefined;
      if (Array.isArray(rows))
        for (const row of rows) {
          const count = orders.filter((key) => key.startsWith(`${row.item_id} ${row.instantPrice} `)).length;
          if (count) row.buyOrderCount = count;
        }
    },
  },
  'failed-deposit-reported-pending': {
    kind: 'meaning',
    description: 'GET /deposit/tradeStatus reports a deposit the platform declined or failed as pending (0)',
    grep: 'Given a declined or failed deposit, the status is -1',
    response: rewriteContent(/^\/deposit\/tradeStatus\//, (status) => {
      if (status.status === -1) Object.assign(status, { status: 0, statusText: 'pending' });
    }),
  },
  'unban-without-notice': {
    kind: 'meaning',
    description: 'POST /admin/ban with time 0 (an unban) sends no moderation-channel notice',
    grep: 'the moderation channel receives a notice of each',
    response: rewriteContent('/test_helpers/outbox', (c) => {
      if (Array.isArray(c.messages))
        c.messages = c.messages.filter((m: Json) => !(m.channel === 'moderation' && m.data?.time === 0));
    }),
  },
  'sales-graph-1y-weekly': {
    kind: 'meaning',
    description: 'GET /item/salesGraph/{item} answers period 1Y in weekly rows (as 5Y) instead of daily ones',
    grep: '1Y have a row per day',
    request: graphsPeriodAs('1Y', '5Y'),
  },
  'item-slug-before-id': {
    kind: 'meaning',
    description: 'GET /item/details/{item} tries a numeric item as a slug before trying it as an ID',
    grep: 'answers by ID and by URL slug',
    request: (r, memory) => {
      const ref = r.url.pathname.match(/^\/item\/details\/([^/]+)$/)?.[1];
      const id = ref ? map(memory, 'slugs').get(ref) : undefined;
      if (id) r.url.pathname = `/item/details/${id}`;
    },
    response: (x, memory) => {
      itemSlugs(x, memory);
    },
  },
  'support-list-by-creation': {
    kind: 'meaning',
    description: 'GET /support/list lists tickets newest created first instead of most recent activity first',
    grep: 'a reply on the older one lists it first',
    response: rewriteContent('/support/list', (c) => {
      if (Array.isArray(c.list)) c.list.sort(newestCreatedFirst);
    }),
  },
  'reset-keeps-rate-limits': {
    kind: 'helper',
    description: 'POST /test_helpers/reset keeps the rate-limit counters (an IP limited at login stays limited)',
    grep: 'rate-limit counters, caches, the outbox and the catalogue are emptied',
    response: (x, memory) => {
      // The login limit per IP, kept across resets: an IP once answered 429 is answered 429 again.
      const limitedIps = set(memory, 'limited ips');
      const ip = x.headers['x-forwarded-for'];
      if (x.path !== '/user/login' || !ip) return;
      if (x.status === 429) limitedIps.add(ip);
      else if (limitedIps.has(ip)) {
        const now = clockNow(x, memory) || Math.floor(Date.now() / 1000);
        const answer = limited(20, 300, now, now);
        x.status = answer.status;
        x.body = answer.body;
        Object.assign(x.responseHeaders, answer.headers);
      }
    },
  },
  'general-limit-60-per-10-minutes': {
    kind: 'limit',
    description: 'the general rate limit is 60 requests per 10 minutes per user, route and method (not ~600 per 60 s)',
    grep: 'every one is served and the next one is limited',
    response: (x, memory) => {
      if (!x.user || x.path.startsWith('/test_helpers/') || x.status !== 200) return;
      const now = clockNow(x, memory) || Math.floor(Date.now() / 1000);
      const windows = map(memory, 'windows');
      const key = `${x.user} ${x.method} ${x.path}`;
      const [start, count] = (windows.get(key) ?? `${now} 0`).split(' ').map(Number) as [number, number];
      const fresh = now >= start + 600;
      const seen = fresh ? 1 : count + 1;
      windows.set(key, `${fresh ? now : start} ${seen}`);
      if (seen <= 60) return;
      const answer = limited(60, 600, fresh ? now : start, now);
      x.status = answer.status;
      x.body = answer.body;
      Object.assign(x.responseHeaders, answer.headers);
    },
  },
  'draw-wrong-digits': {
    kind: 'chance',
    description:
      'the giveaway winner index is read from the last 8 hex digits of the HMAC instead of the first 8 (winner shown accordingly)',
    grep: 'every winner index is the one the revealed seed draws',
    response: (x) => {
      const data = x.path.startsWith('/giveaways/details/') ? x.body?.data : undefined;
      const fairness = data?.giveaway?.fairness;
      const people: Json[] | undefined = data?.participants;
      if (typeof fairness?.serverSeed !== 'string' || !Array.isArray(people) || !people.length) return;
      const hmac = createHmac('sha256', fairness.serverSeed).update(String(data.giveaway.url)).digest('hex');
      const index = Number.parseInt(hmac.slice(-8), 16) % people.length;
      const byJoin = [...people].sort((a, b) => a.joined - b.joined);
      fairness.winnerIndex = index;
      data.giveaway.winner = { ...data.giveaway.winner, platformId: byJoin[index].platformId };
    },
  },
  'last-sale-net-of-fee': {
    kind: 'meaning',
    description:
      "GET /item/pricing/{item} and /bulk show the last sale's price net of the 5 % seller fee (what the seller got), not the price it sold at",
    grep: 'show the later sale, gross, at its time',
    response: rewriteContent(/^\/item\/pricing\/[^/]+$/, (content) => {
      for (const row of Array.isArray(content.items) ? content.items : [content]) {
        const last = row?.pricing?.last_sale;
        if (typeof last?.price === 'number') last.price = Math.floor((last.price * 95) / 100);
      }
    }),
  },
  'pricing-updated-at-answer': {
    kind: 'meaning',
    description:
      'GET /item/pricing/{item} served from the cache shows last_updated as the time of the answer, not the time the row was computed',
    grep: 'show the later sale, gross, at its time',
    response: (x, memory) => {
      const now = clockNow(x, memory);
      const content = /^\/item\/pricing\/\d+$/.test(x.path) ? x.body?.content : undefined;
      if (content?.cached !== true || !Number.isFinite(now)) return;
      content.last_updated = new Date(now * 1000).toISOString().slice(0, 19).replace('T', ' ');
    },
  },
  'buyorder-rows-without-item-extras': {
    kind: 'meaning',
    description:
      "GET /user/getBuyorder joins only some item fields: hero, weapon and featured are their empty defaults instead of the item's",
    grep: 'differ in every Item field',
    response: rewriteContent('/user/getBuyorder', (page) => {
      for (const row of Array.isArray(page.values) ? page.values : [])
        Object.assign(row, { hero: null, weapon: '', featured: 0 });
    }),
  },
};
