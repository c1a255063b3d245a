// Numeric limits of the seed ("Limits", "Messages by endpoint") at their boundary, from both sides
// (issue 32, ADR 0042): the largest (or smallest) value admitted is served with the documented
// success and the next one is refused with the documented envelope and message, each number and
// message read from the document (its schemas' bounds and `x-error-messages`), never a copy.
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { boundOf, fieldSchema, operationOf, pastBoundMessage } from '../src/kit/bounds.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, call } from '../src/kit/http.ts';
import { sides } from '../src/kit/rule.ts';
import { getAs as get, postAs as post } from '../src/kit/user-calls.ts';

beforeAll(resetIfPossible);

const refused = (a: Answer, message: string, what: string) =>
  assertThat(a, a.status === 300 && a.message === message, `${what}: ${message}`);

const COUNT = sides(['at the limit', 'past the limit'], 'R-LIMIT-BUYORDER-AMOUNT');

describe('buy order amounts and values', () => {
  const create = operationOf('POST', '/item/buyorder');
  const update = operationOf('POST', '/item/buyorder/update');
  const most = boundOf(create, 'amount', 'maximum');
  const mostUpdate = boundOf(update, 'amount', 'maximum');
  const highest = boundOf(create, 'value', 'maximum');
  const least = boundOf(create, 'value', 'minimum');
  const fewest = boundOf(create, 'amount', 'minimum');

  it(
    `Given a rich buyer, amount ${most} is accepted on create and ${most + 1} refused; update takes ${mostUpdate} and refuses ${mostUpdate + 1}; value ${highest} is accepted and ${highest + 1} refused; value ${least} and amount ${fewest} are accepted, ${least - 1} refused; bad numbers and a short balance answer their messages [R-LIMIT-BUYORDER-AMOUNT, R-MSG-BUYORDER-MAX, R-MSG-BUYORDER-NUMBERS, R-MSG-BUYORDER-UPDATE-BALANCE]`,
    COUNT,
    async (ctx) => {
      await needsHelpers(ctx);
      const key = await helpers.item({ name: 'Limit Key', game: 440 });
      const other = await helpers.item({ name: 'Limit Other Key', game: 440 });
      const dear = await helpers.item({ name: 'Limit Dear Key', game: 440 });
      const cheap = await helpers.item({ name: 'Limit Cheap Key', game: 440 });
      // Enough for every order below at once: the largest amount at value 1, the largest value once.
      const me = await session({ balance: most + highest + 10 * mostUpdate });
      const tooMany = pastBoundMessage(create, 'amount', 'maximum');
      refused(
        await post(me, '/item/buyorder', { itemid: key.id, value: 1, amount: most + 1 }),
        tooMany,
        `create above ${most}`,
      );
      const largest = await post(me, '/item/buyorder', { itemid: key.id, value: 1, amount: most });
      assertThat(largest, largest.status === 200, `create at ${most} is accepted`);
      refused(
        await post(me, '/item/buyorder/update', { itemid: key.id, value: 1, amount: mostUpdate + 1 }),
        pastBoundMessage(update, 'amount', 'maximum'),
        `update above ${mostUpdate}`,
      );
      const updated = await post(me, '/item/buyorder/update', { itemid: key.id, value: 1, amount: mostUpdate });
      assertThat(updated, updated.status === 200, `update at ${mostUpdate} is accepted`);
      refused(
        await post(me, '/item/buyorder', { itemid: dear.id, value: highest + 1, amount: 1 }),
        pastBoundMessage(create, 'value', 'maximum'),
        `value above ${highest}`,
      );
      const dearest = await post(me, '/item/buyorder', { itemid: dear.id, value: highest, amount: 1 });
      assertThat(dearest, dearest.status === 200, `value ${highest} is accepted`);
      const smallest = await post(me, '/item/buyorder', { itemid: cheap.id, value: least, amount: fewest });
      assertThat(smallest, smallest.status === 200, `value ${least} and amount ${fewest} are accepted`);
      for (const [body, what] of [
        [{ itemid: other.id, value: least - 1, amount: 1 }, `value ${least - 1}`],
        [{ itemid: other.id, value: -5, amount: 1 }, 'a negative value'],
        [{ itemid: other.id, value: 10, amount: fewest - 1 }, `amount ${fewest - 1}`],
        [{ itemid: other.id, value: 10 }, 'no amount'],
        [{ value: 10, amount: 1 }, 'no itemid'],
      ] as const)
        refused(await post(me, '/item/buyorder', body), 'Value/Amount/Itemid must be a (positive) number', what);
      refused(
        await post(me, '/item/buyorder/update', { itemid: key.id, value: highest, amount: 2 }),
        'Not enough balance',
        'an update the balance cannot cover',
      );
    },
  );
});

describe('page sizes and list limits', () => {
  const listing = operationOf('GET', '/item/listing/{item}');
  const cap = boundOf(listing, 'count', 'maximum');
  const byDefault = fieldSchema(listing, 'count')?.default as number;

  it(
    `Given ${cap + 1} listings, a page without count holds ${byDefault}, count ${cap} holds ${cap} and count ${cap + 1} is refused [R-LIMIT-LISTING-PAGE, R-LISTINGS]`,
    sides(['at the limit', 'past the limit'], 'R-LIMIT-LISTING-PAGE'),
    async (ctx) => {
      await needsHelpers(ctx);
      const item = await helpers.item({ name: 'Limit Listing Crate', game: 440 });
      const seller = await helpers.user();
      for (let i = 0; i <= cap; i++)
        await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 1, price: 100 + i });
      const rows = (a: Answer) => (a.status === 200 ? (content(a) as unknown[]).length : -1);
      const page = await call('GET', `/item/listing/${item.id}`);
      assertConforms(page);
      assertThat(page, rows(page) === byDefault, `the default page size is ${byDefault}`);
      const full = await call('GET', `/item/listing/${item.id}`, { query: { count: cap } });
      assertConforms(full);
      assertThat(full, rows(full) === cap, `count ${cap}, the cap, is served with ${cap} of ${cap + 1} listings`);
      const over = await call('GET', `/item/listing/${item.id}`, { query: { count: cap + 1 } });
      refused(over, pastBoundMessage(listing, 'count', 'maximum'), `count ${cap + 1}, above the cap`);
    },
  );

  /** Bulk pricing's cap is its pattern's repetition (`^[^,]*(,[^,]*){0,99}$`: 100 IDs). */
  const bulk = operationOf('GET', '/item/pricing/bulk');
  const bulkCap = Number(/\{0,(\d+)\}\)?\$$/.exec(fieldSchema(bulk, 'items')?.pattern ?? '')?.[1]) + 1;

  // One test per documented page or list cap, each titled with its rule (rules.test.ts reads the
  // tags from this source: [R-LIMIT-BULK-PRICING, R-LIMIT-SALES-DATA, R-LIMIT-HISTORY-PAGES] and
  // [R-IPLIST, R-PUBLIC-SALES-FILTERS]).
  interface Cap {
    /** The Limits rule of the cap, and a business rule stating the same number. */
    rules: string[];
    path: string;
    name: string;
    /** The largest value admitted, as the document states it. */
    most: number;
    message: string;
    /** The query value for `n` (a count, or a list of `n` IDs). */
    value?: (n: number, item: number) => string | number;
  }
  const caps: Cap[] = [
    {
      rules: ['R-LIMIT-BULK-PRICING'],
      path: '/item/pricing/bulk',
      name: 'items',
      most: bulkCap,
      message: pastBoundMessage(bulk, 'items', 'pattern'),
      value: (n, item) => Array.from({ length: n }, () => item).join(','),
    },
    ...(
      [
        [['R-LIMIT-SALES-DATA', 'R-PUBLIC-SALES-FILTERS'], '/public/sales', 'limit'],
        [['R-LIMIT-BUYORDER-LISTING'], '/user/getBuyorder', 'count'],
        [['R-LIMIT-HISTORY-PAGES', 'R-IPLIST'], '/user/ipList', 'perPage'],
        [['R-LIMIT-HISTORY-PAGES', 'R-IPLIST'], '/user/ipList', 'perpage'],
        [['R-LIMIT-HISTORY-PAGES'], '/user/getCashoutHistory', 'count'],
        [['R-LIMIT-HISTORY-PAGES'], '/user/getCashoutHistory', 'perpage'],
        [['R-LIMIT-HISTORY-PAGES'], '/user/getCashoutHistory', 'limit'],
        [['R-LIMIT-HISTORY-PAGES'], '/user/getBalanceHistory', 'count'],
        [['R-LIMIT-HISTORY-PAGES'], '/user/getBalanceHistory', 'limit'],
        [['R-LIMIT-HISTORY-PAGES'], '/user/getPurchaseHistory', 'count'],
        [['R-LIMIT-HISTORY-PAGES'], '/user/getSalesHistory', 'perPage'],
        [['R-LIMIT-HISTORY-PAGES'], '/user/getTransactionHistory', 'limit'],
      ] as const
    ).map(([rules, path, name]) => {
      const o = operationOf('GET', path);
      return {
        rules: [...rules],
        path,
        name,
        most: boundOf(o, name, 'maximum'),
        message: pastBoundMessage(o, name, 'maximum'),
      };
    }),
  ];

  for (const c of caps)
    it(
      `Given the documented maximum of ${c.path} \`${c.name}\` (${c.most}), it is served and ${c.most + 1} is refused with its message [${c.rules.join(', ')}]`,
      sides(['at the limit', 'past the limit'], ...c.rules),
      async (ctx) => {
        await needsHelpers(ctx);
        const item = await helpers.item({ name: 'Limit Bulk Crate', game: 440 });
        const me = await session();
        const value = (n: number) => c.value?.(n, item.id) ?? n;
        const ok = await get(me, c.path, { [c.name]: value(c.most) });
        assertThat(ok, ok.status === 200, `${c.path}: ${c.name} ${c.most}, the maximum, is served`);
        refused(
          await get(me, c.path, { [c.name]: value(c.most + 1) }),
          c.message,
          `${c.path}: ${c.name} ${c.most + 1}`,
        );
      },
    );

  const search = operationOf('GET', '/user/getBuyorder');
  const shortest = boundOf(search, 'search', 'minLength');
  it(
    `Given buy orders, a search term of ${shortest} characters is served and one of ${shortest - 1} refused [R-LIMIT-BUYORDER-LISTING, R-BUYORDER-LIST-FILTERS]`,
    sides(['at the limit', 'past the limit'], 'R-LIMIT-BUYORDER-LISTING', 'R-BUYORDER-LIST-FILTERS'),
    async (ctx) => {
      await needsHelpers(ctx);
      const name = 'Limit Searched Key';
      const item = await helpers.item({ name, game: 440 });
      const me = await session({ balance: 1000 });
      const order = await post(me, '/item/buyorder', { itemid: item.id, value: 10, amount: 1 });
      assertThat(order, order.status === 200, 'set-up: a buy order');
      const term = name.slice(0, shortest);
      const found = await get(me, '/user/getBuyorder', { search: term });
      assertThat(
        found,
        found.status === 200 && (content(found).values as { name: string }[]).some((v) => v.name === name),
        `a search term of ${shortest} characters ("${term}") is served and finds the order`,
      );
      refused(
        await get(me, '/user/getBuyorder', { search: term.slice(0, shortest - 1) }),
        pastBoundMessage(search, 'search', 'minLength'),
        `a search term of ${shortest - 1} characters`,
      );
    },
  );
});
