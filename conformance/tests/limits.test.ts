// Numeric limits of the seed ("Limits", "Messages by endpoint") at their boundary: the largest
// value accepted and the next one refused, and the defaults the seed states.
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, call } from '../src/kit/http.ts';
import { getAs as get, postAs as post } from '../src/kit/user-calls.ts';

beforeAll(resetIfPossible);

const refused = (a: Answer, message: string, what: string) =>
  assertThat(a, a.status === 300 && a.message === message, `${what}: ${message}`);

describe('buy order amounts and values', () => {
  it('Given a rich buyer, amount 499999 is accepted on create and 500000 refused; update takes 4999 and refuses 5000; bad numbers and a short balance answer their messages [R-LIMIT-BUYORDER-AMOUNT, R-MSG-BUYORDER-MAX, R-MSG-BUYORDER-NUMBERS, R-MSG-BUYORDER-UPDATE-BALANCE]', async (ctx) => {
    await needsHelpers(ctx);
    const key = await helpers.item({ name: 'Limit Key', game: 440 });
    const other = await helpers.item({ name: 'Limit Other Key', game: 440 });
    const me = await session({ balance: 1_000_000 });
    refused(
      await post(me, '/item/buyorder', { itemid: key.id, value: 1, amount: 500_000 }),
      'Max 5000 items',
      'create above 499999',
    );
    const most = await post(me, '/item/buyorder', { itemid: key.id, value: 1, amount: 499_999 });
    assertThat(most, most.status === 200, 'create at 499999 is accepted');
    refused(
      await post(me, '/item/buyorder/update', { itemid: key.id, value: 1, amount: 5000 }),
      'Max 5000 items',
      'update above 4999',
    );
    const update = await post(me, '/item/buyorder/update', { itemid: key.id, value: 1, amount: 4999 });
    assertThat(update, update.status === 200, 'update at 4999 is accepted');
    for (const [body, what] of [
      [{ itemid: other.id, value: 0, amount: 1 }, 'value 0'],
      [{ itemid: other.id, value: -5, amount: 1 }, 'a negative value'],
      [{ itemid: other.id, value: 10, amount: 0 }, 'amount 0'],
      [{ itemid: other.id, value: 10 }, 'no amount'],
      [{ value: 10, amount: 1 }, 'no itemid'],
    ] as const)
      refused(await post(me, '/item/buyorder', body), 'Value/Amount/Itemid must be a (positive) number', what);
    refused(
      await post(me, '/item/buyorder/update', { itemid: key.id, value: 1_000_000, amount: 2 }),
      'Not enough balance',
      'an update the balance cannot cover',
    );
  });
});

describe('page sizes and list limits', () => {
  it('Given 11 listings, a page without count holds 10 [R-LIMIT-LISTING-PAGE, R-LISTINGS]', async (ctx) => {
    await needsHelpers(ctx);
    const item = await helpers.item({ name: 'Limit Listing Crate', game: 440 });
    const seller = await helpers.user();
    for (let i = 0; i < 11; i++)
      await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 1, price: 100 + i });
    const page = await call('GET', `/item/listing/${item.id}`);
    assertConforms(page);
    assertThat(page, (content(page) as unknown[]).length === 10, 'the default page size is 10');
  });

  it('Given the documented maxima, 100 bulk item IDs, 1000 public sales, 1000 buy order rows and 50 sessions are accepted, one more is refused [R-LIMIT-BULK-PRICING, R-LIMIT-SALES-DATA, R-LIMIT-BUYORDER-LISTING, R-LIMIT-HISTORY-PAGES]', async (ctx) => {
    await needsHelpers(ctx);
    const item = await helpers.item({ name: 'Limit Bulk Crate', game: 440 });
    const me = await session();
    const ids = (n: number) => Array.from({ length: n }, () => item.id).join(',');
    for (const [path, name, most] of [
      ['/item/pricing/bulk', 'items', ids(100)],
      ['/public/sales', 'limit', 1000],
      ['/user/getBuyorder', 'count', 1000],
      ['/user/ipList', 'perPage', 50],
      ['/user/getCashoutHistory', 'limit', 50],
    ] as const) {
      const ok = await get(me, path, { [name]: most });
      assertThat(ok, ok.status === 200, `${path}: ${name} at the maximum is accepted`);
      const over = await get(me, path, { [name]: typeof most === 'number' ? most + 1 : ids(101) });
      assertThat(over, over.status === 300, `${path}: ${name} above the maximum is refused`);
    }
  });
});
