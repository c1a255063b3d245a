// Every list with a documented order, from every side (issue 22): at least three records created in
// an order that differs from the sort order come back in the documented order, and each paging
// parameter the document names pages them: the first page, a middle one, the last, and one past the
// end (empty). One table, one row per list; each row sets up its records and says the order.
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { type Answer, assertThat, call } from '../src/kit/http.ts';
import { sellerProceeds } from '../src/kit/money.ts';
import { sides } from '../src/kit/rule.ts';
import { getAs, postAs } from '../src/kit/user-calls.ts';

beforeAll(resetIfPossible);

type Me = Awaited<ReturnType<typeof session>>;
// biome-ignore lint/suspicious/noExplicitAny: rows are read field by field
type Row = any;

interface ListCase {
  /** The documented order, in words. */
  order: string;
  rule: string;
  /** The paging parameters the document names for the page size. */
  sizes: string[];
  /** Creates the records (out of order) and says who reads which path, and the keys in order. */
  arrange: () => Promise<{ me?: Me; path: string; expected: string[] }>;
  rows: (a: Answer) => Row[];
  key: (row: Row) => string;
}

/** Moves the clock one second on, so "newest first" has distinct times to sort by. */
const tick = () => helpers.advance(1);

/** A buyer's order of `amount` at 1000 on an item, filled by a seller pricing one asset at each of `prices`. */
async function sales(prices: number[]) {
  const item = await helpers.item({ name: `Ordered Sales ${prices.join('-')}`, game: 440 });
  const buyer = await session({ balance: 100_000 }, '198.51.100.61');
  const seller = await session({}, '198.51.100.62');
  await postAs(buyer, '/item/buyorder', { itemid: item.id, value: 1000, amount: prices.length });
  for (const price of prices) {
    const asset = await helpers.asset({ owner: seller.platformId, itemId: item.id });
    await tick();
    await postAs(seller, '/inventory/price', { ids: asset.assetId, price });
  }
  return { buyer, seller };
}

/** A user's four withdrawals of one asset each, a second apart: the asset IDs, oldest first. */
async function withdrawals(name: string) {
  const me = await session();
  const item = await helpers.item({ name, game: 440 });
  const ids: string[] = [];
  for (let i = 0; i < 4; i += 1) {
    const asset = await helpers.asset({ owner: me.platformId, itemId: item.id });
    await tick();
    await postAs(me, '/inventory/withdraw', { ids: asset.assetId });
    ids.push(asset.assetId);
  }
  return { me, ids };
}

const LISTS: Record<string, ListCase> = {
  'GET /item/listing/{item}': {
    order: 'price ascending',
    rule: 'R-LISTINGS',
    sizes: ['count'],
    arrange: async () => {
      const item = await helpers.item({ name: 'Ordered Listings', game: 440 });
      const seller = await session();
      for (const price of [300, 100, 400, 200])
        await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 1, price });
      return { path: `/item/listing/${item.id}`, expected: ['100', '200', '300', '400'] };
    },
    rows: (a) => content(a),
    key: (r) => String(r.price),
  },
  'GET /user/getBuyorder': {
    order: 'buy order ID descending',
    rule: 'R-BUYORDER-LIST-FILTERS',
    sizes: ['count'],
    arrange: async () => {
      const me = await session({ balance: 10_000 });
      const prices = [300, 100, 400, 200];
      for (const [i, value] of prices.entries()) {
        const item = await helpers.item({ name: `Ordered Order ${i}`, game: 440 });
        await postAs(me, '/item/buyorder', { itemid: item.id, value, amount: 1 });
      }
      return { me, path: '/user/getBuyorder', expected: ['200', '400', '100', '300'] };
    },
    rows: (a) => content(a).values,
    key: (r) => String(r.price),
  },
  'GET /user/getBalanceHistory': {
    order: 'newest first',
    rule: 'R-BALANCE-HISTORY',
    sizes: ['count', 'limit'],
    arrange: async () => {
      const me = await session({ balance: 10_000 });
      for (const [i, value] of [300, 100, 400].entries()) {
        const item = await helpers.item({ name: `Ordered Ledger ${i}`, game: 440 });
        await tick();
        await postAs(me, '/item/buyorder', { itemid: item.id, value, amount: 1 });
      }
      return { me, path: '/user/getBalanceHistory', expected: ['-400', '-100', '-300', '10000'] };
    },
    rows: (a) => content(a).values ?? content(a).transactions,
    key: (r) => String(r.amount),
  },
  'GET /user/getCashoutHistory': {
    order: 'newest first',
    rule: 'R-CASHOUT-HISTORY',
    sizes: ['count', 'perpage', 'limit'],
    arrange: async () => {
      const me = await session({ balance: 100_000, paymentMethods: ['provider_a'] });
      for (const amount of [6000, 5000, 7000, 5500]) {
        const asked = await postAs(me, '/cashout/process', { amount, method: 'provider_a' });
        assertThat(asked, asked.status === 200, `a cashout of ${amount} is accepted`);
        await helpers.payment(content(asked).cashoutId, 'completed');
        await helpers.advance(86_400);
      }
      return { me, path: '/user/getCashoutHistory', expected: ['5500', '7000', '5000', '6000'] };
    },
    rows: (a) => content(a).cashouts,
    key: (r) => String(r.amount),
  },
  'GET /user/getSalesHistory': {
    order: 'newest first',
    rule: 'R-SALES-HISTORY',
    sizes: ['perPage'],
    arrange: async () => {
      const { seller } = await sales([700, 300, 900, 500]);
      return { me: seller, path: '/user/getSalesHistory', expected: ['500', '900', '300', '700'] };
    },
    rows: (a) => content(a).sales,
    key: (r) => String(r.price),
  },
  'GET /user/getPurchaseHistory': {
    order: 'newest first',
    rule: 'R-SALES-HISTORY',
    sizes: ['count'],
    arrange: async () => {
      const { buyer } = await sales([600, 200, 800, 400]);
      return { me: buyer, path: '/user/getPurchaseHistory', expected: ['400', '800', '200', '600'] };
    },
    rows: (a) => content(a).purchases,
    key: (r) => String(r.price),
  },
  'GET /user/getTransactionHistory': {
    order: 'newest first',
    rule: 'R-TRANSACTION-HISTORY',
    sizes: ['limit'],
    arrange: async () => {
      const prices = [700, 300, 900, 500];
      const { seller } = await sales(prices);
      // Each sale's effect on the balance: the seller's floor(95 %).
      const expected = prices.map((p) => String(sellerProceeds(p))).reverse();
      return { me: seller, path: '/user/getTransactionHistory', expected };
    },
    rows: (a) => content(a).transactions,
    key: (r) => String(r.amount),
  },
  'GET /trades/active': {
    order: 'newest first',
    rule: 'R-STATE-TRADE',
    sizes: ['count'],
    arrange: async () => {
      const { me, ids } = await withdrawals('Ordered Trades');
      return { me, path: '/trades/active', expected: ids.reverse() };
    },
    rows: (a) => content(a).trades,
    key: (r) => String(r.assets?.[0]?.assetId),
  },
  'GET /trades/all': {
    order: 'newest first',
    rule: 'R-STATE-TRADE',
    sizes: ['count'],
    arrange: async () => {
      const { me, ids } = await withdrawals('Ordered All Trades');
      // Settled trades stay in the list: the second is completed, the fourth fails.
      const offers = await helpers.offers(me.platformId);
      await helpers.settleOffer(offers[1]!.tradeId, 'accept');
      await helpers.settleOffer(offers[3]!.tradeId, 'fail');
      return { me, path: '/trades/all', expected: ids.reverse() };
    },
    rows: (a) => content(a).trades,
    key: (r) => String(r.assets?.[0]?.assetId),
  },
  'GET /giveaways/joinedList': {
    order: 'most recently joined first',
    rule: 'R-GIVEAWAY-LISTS',
    sizes: [],
    arrange: async () => {
      const urls: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const creator = await session();
        const item = await helpers.item({ name: `Ordered Giveaway ${i}`, game: 440 });
        const asset = await helpers.asset({ owner: creator.platformId, itemId: item.id });
        const body = { name: `Ordered ${i}`, maxEntries: 5, type: 1, duration: 86_400, items: [asset.assetId] };
        const created = await postAs(creator, '/giveaways/create', body);
        assertThat(created, created.status === 200, 'the giveaway is created');
        urls.push(content(created).giveaway.url);
      }
      const me = await session();
      // Joined in another order than created: second, third, first.
      const joined = [urls[1]!, urls[2]!, urls[0]!];
      for (const url of joined) {
        await tick();
        await postAs(me, `/giveaways/join/${url}`, {});
      }
      return { me, path: '/giveaways/joinedList', expected: joined.reverse() };
    },
    rows: (a) => content(a).list,
    key: (r) => String(r.url),
  },
  'GET /giveaways/my': {
    order: 'newest first',
    rule: 'R-GIVEAWAY-LISTS',
    sizes: [],
    arrange: async () => {
      const me = await session();
      const item = await helpers.item({ name: 'Ordered Own Giveaway', game: 440 });
      // Names out of alphabetical order; one giveaway per hour, each lasting a day.
      const names = ['second', 'third', 'first'];
      for (const name of names) {
        const asset = await helpers.asset({ owner: me.platformId, itemId: item.id });
        const body = { name, maxEntries: 5, type: 1, duration: 86_400, items: [asset.assetId] };
        const created = await postAs(me, '/giveaways/create', body);
        assertThat(created, created.status === 200, `the giveaway ${name} is created`);
        await helpers.advance(3600);
      }
      return { me, path: '/giveaways/my', expected: names.reverse() };
    },
    rows: (a) => content(a).list,
    key: (r) => String(r.name),
  },
  'GET /support/messages/{ticket}': {
    order: 'oldest first',
    rule: 'R-SUPPORT-TICKETS',
    sizes: [],
    arrange: async () => {
      const me = await session();
      const created = await postAs(me, '/support/create', {
        subject: 'Ordered',
        description: 'first: the description',
        topic: 'trading',
        concern: 'deposit',
      });
      assertThat(created, created.status === 200, 'the ticket is opened');
      const ticket = content(created).ticket;
      // Texts out of alphabetical order: a list sorted by text would differ.
      const texts = ['c second', 'a third', 'b fourth'];
      for (const text of texts) {
        await tick();
        await postAs(me, '/support/post', { content: text, ticket });
      }
      return { me, path: `/support/messages/${ticket}`, expected: ['first: the description', ...texts] };
    },
    rows: (a) => content(a).messages,
    key: (r) => String(r.content),
  },
  'GET /admin/banList': {
    order: 'newest first',
    rule: 'R-ADMIN-BANLIST',
    sizes: [],
    arrange: async () => {
      const admin = await session({ admin: true });
      const user = await helpers.user();
      const reasons = ['first', 'second', 'third', 'fourth'];
      for (const reason of reasons) {
        await tick();
        await postAs(admin, '/admin/ban', { platformId: user.platformId, time: 3600, reason });
      }
      return { me: admin, path: `/admin/banList?platformId=${user.platformId}`, expected: [...reasons].reverse() };
    },
    rows: (a) => content(a).bans,
    key: (r) => String(r.reason),
  },
  'GET /user/ipList': {
    order: 'newest login first',
    rule: 'R-IPLIST',
    sizes: ['perPage', 'perpage'],
    arrange: async () => {
      const user = await helpers.user();
      const ips = ['198.51.100.71', '198.51.100.73', '198.51.100.72', '198.51.100.74'];
      let token = '';
      for (const ip of ips) {
        await tick();
        const login = await call('POST', '/user/login', { json: { apiKey: user.apiKey }, ip });
        token = content(login).jwt;
      }
      return {
        me: { ...user, ip: ips.at(-1)!, token },
        path: '/user/ipList',
        expected: [...ips].reverse(),
      };
    },
    rows: (a) => content(a).values,
    key: (r) => String(r.ip),
  },
};

/** Which side of the paging `page` is, in a list whose last page is `last`. */
const pageName = (page: number, last: number): string =>
  page === 0 ? 'the first page' : page > last ? 'past the end' : page === last ? 'the last page' : 'a middle page';

const read = (me: Me | undefined, path: string, query: Record<string, number> = {}) =>
  me ? getAs(me, path, query) : call('GET', path, { query });

describe('lists in their documented order, paged', () => {
  for (const [operation, list] of Object.entries(LISTS))
    it(
      `${operation}: records created out of order come ${list.order}${list.sizes.length ? `; ${list.sizes.map((s) => `\`${s}\``).join(', ')} page them (first, middle, last, past the end)` : ''} [${list.rule}]`,
      list.sizes.length
        ? sides(['order', 'first page', 'middle page', 'last page', 'past the end'], list.rule, 'R-LIMIT-HISTORY-PAGES')
        : sides(['order'], list.rule),
      async (ctx) => {
        await needsHelpers(ctx);
        const { me, path, expected } = await list.arrange();
        const all = await read(me, path, list.sizes.length ? { [list.sizes[0]!]: 50 } : {});
        const keys = (all.status === 200 ? (list.rows(all) ?? []) : []).map(list.key);
        assertThat(
          all,
          JSON.stringify(keys) === JSON.stringify(expected),
          `${operation} lists ${list.order}: expected ${expected.join(', ')}; received ${keys.join(', ')}`,
        );
        for (const size of list.sizes)
          for (const page of [0, 1, expected.length - 1, expected.length]) {
            const answer = await read(me, path, { [size]: 1, page });
            const got = (answer.status === 200 ? (list.rows(answer) ?? []) : []).map(list.key);
            const want = expected.slice(page, page + 1);
            const which = pageName(page, expected.length - 1);
            assertThat(
              answer,
              answer.status === 200 && JSON.stringify(got) === JSON.stringify(want),
              `${operation} with ${size}=1, page=${page} (${which}): expected [${want.join(', ')}]; received [${got.join(', ')}]`,
            );
          }
      },
    );
});

/** The document's page size of the giveaway lists (fixed: no parameter sets it). */
const GIVEAWAY_PAGE = 20;
const DAY = 86_400;

/** Reads the first, a middle, the last page of a giveaway list and one past the end, and compares the names. */
async function giveawayPages(me: Me, path: string, order: string, expected: string[]): Promise<void> {
  const last = Math.ceil(expected.length / GIVEAWAY_PAGE) - 1;
  for (const page of [0, 1, last, last + 1]) {
    const answer = await getAs(me, path, { page });
    const got = ((answer.status === 200 ? content(answer)?.list : undefined) ?? []).map((g: Row) => String(g.name));
    const want = expected.slice(page * GIVEAWAY_PAGE, (page + 1) * GIVEAWAY_PAGE);
    assertThat(
      answer,
      JSON.stringify(got) === JSON.stringify(want) && content(answer)?.count === expected.length,
      `${path} page=${page} (${pageName(page, last)}) lists ${order}, ${GIVEAWAY_PAGE} a page, count ${expected.length}: expected [${want.join(', ')}]; received [${got.join(', ')}], count ${content(answer)?.count}`,
    );
  }
}

// The public lists hold every user's giveaways: the other giveaways of this file are private, so
// these 41 are the only public ones, and the only ones of their creator.
describe('giveaway lists in their documented order, 20 a page', () => {
  it(
    'GET /giveaways, /giveaways/my, /giveaways/history, /giveaways/history/my: 41 public giveaways created an hour apart, each ending before the one created before it, come newest first while active and most recently ended first once ended, 20 a page (first, middle, last, past the end) [R-GIVEAWAY-LISTS]',
    sides(['order', 'first page', 'middle page', 'last page', 'past the end'], 'R-GIVEAWAY-LISTS'),
    async (ctx) => {
      await needsHelpers(ctx);
      const me = await session();
      const item = await helpers.item({ name: 'Paged Giveaway', game: 440 });
      const names: string[] = [];
      for (let i = 0; i < 2 * GIVEAWAY_PAGE + 1; i += 1) {
        const asset = await helpers.asset({ owner: me.platformId, itemId: item.id });
        // One per hour; giveaway i ends 7 days minus i hours after the first was created.
        const body = {
          name: `paged ${i}`,
          maxEntries: 100,
          type: 0,
          duration: 7 * DAY - i * 7200,
          items: [asset.assetId],
        };
        const created = await postAs(me, '/giveaways/create', body);
        assertThat(created, created.status === 200, `the giveaway ${body.name} is created`);
        names.push(body.name);
        await helpers.advance(3600);
      }
      const newestFirst = [...names].reverse();
      await giveawayPages(me, '/giveaways', 'newest first', newestFirst);
      await giveawayPages(me, '/giveaways/my', 'newest first', newestFirst);
      // Past every end (the first created ends last, 7 days after it was created).
      await helpers.advance(7 * DAY);
      await giveawayPages(me, '/giveaways/history', 'most recently ended first', names);
      await giveawayPages(me, '/giveaways/history/my', 'most recently ended first', names);
    },
  );
});
