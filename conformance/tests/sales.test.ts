// Sales as the public reads show them (seed: "Sales graph rows", GET /item/salesGraph/{item},
// GET /public/sales): sales recorded by listing assets into a buy order, at clock times this file
// sets, then read back by day, by week and in the anonymized public feed.
import { createHash } from 'node:crypto';
import { beforeAll, describe, it } from 'vitest';
import { content, getOk as get, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { assertThat, call, pinsMeaning } from '../src/kit/http.ts';
import { sides } from '../src/kit/rule.ts';
import type { Json } from '../src/oracle/document.ts';

beforeAll(resetIfPossible);

/** A user with a session who sells assets into a buy order: every sale is recorded at its price. */
async function market(itemId: number) {
  const seller = await session();
  const buyer = await helpers.user({ balance: 100_000 });
  await helpers.buyOrder({ owner: buyer.platformId, itemId, price: 1000, amount: 50 });
  return {
    seller,
    buyer,
    /** Lists one new asset at `price`, at or under the order: it sells at once, at `price`. */
    sell: async (price: number) => {
      const asset = await helpers.asset({ owner: seller.platformId, itemId, state: 0 });
      const answer = await call('POST', '/inventory/price', {
        json: { ids: asset.assetId, price },
        token: seller.token,
        ip: seller.ip,
      });
      assertThat(answer, answer.status === 200, 'the asset sells into the buy order');
    },
  };
}

const DAY = 86_400;
const day = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);

describe('GET /item/salesGraph/{item}', () => {
  it('Given sales on two days of one week and one day of the next, then 1M, 3M, 6M and 1Y have a row per day and 5Y and ALL a row per week [R-SALES-GRAPH-PERIODS]', async (ctx) => {
    await needsHelpers(ctx);
    // Noon UTC on the next Wednesday: the same calendar day and week in any time zone of the server.
    const now = await helpers.now();
    const wednesday = Math.floor(now / DAY) * DAY + ((3 - new Date(now * 1000).getUTCDay() + 7) % 7 || 7) * DAY;
    await helpers.setClock(wednesday + DAY / 2);
    const item = await helpers.item({ name: 'Graphed Key', game: 440 });
    const { seller, sell } = await market(item.id);
    await sell(150);
    await sell(180);
    await helpers.advance(DAY); // Thursday
    await sell(200);
    await helpers.advance(7 * DAY); // Thursday of the next week
    await sell(90);
    const monday = wednesday - 2 * DAY;

    // Every period's unit: the daily ones (1M to 1Y) and the weekly ones (5Y, ALL); two sales on one
    // day, and three in one week, tell a day from a week.
    pinsMeaning(
      'GET /item/salesGraph/{item} values',
      'GET /item/salesGraph/{item} values[].date',
      'GET /item/salesGraph/{item} values[].price',
      'GET /item/salesGraph/{item} values[].nb',
      'GET /item/salesGraph/{item} values[].first_date',
      'GET /item/salesGraph/{item} values[].week',
      'GET /item/salesGraph/{item} values[].total_price',
      'GET /item/salesGraph/{item} values[].total_nb',
    );
    const wantDays = [`${day(wednesday)}:330:2`, `${day(wednesday + DAY)}:200:1`, `${day(wednesday + 8 * DAY)}:90:1`];
    for (const period of ['1M', '3M', '6M', '1Y']) {
      const daily = await get(`/item/salesGraph/${item.id}`, { period }, seller.token, seller.ip);
      const days = (content(daily).values as { date: string; price: number; nb: number }[])
        .filter((r) => r.nb > 0)
        .sort((x, y) => x.date.localeCompare(y.date))
        .map((r) => `${r.date.slice(0, 10)}:${r.price}:${r.nb}`);
      assertThat(daily, days.join() === wantDays.join(), `${period}: daily rows ${wantDays.join(', ')}`);
    }

    for (const period of ['5Y', 'ALL']) {
      const weekly = await get(`/item/salesGraph/${item.id}`, { period }, seller.token, seller.ip);
      const weeks = (
        content(weekly).values as { first_date: string; week: string; total_price: number; total_nb: number }[]
      )
        .filter((r) => r.total_nb > 0)
        .sort((x, y) => x.first_date.localeCompare(y.first_date));
      const wantWeeks = [`${day(monday)}:530:3`, `${day(monday + 7 * DAY)}:90:1`];
      assertThat(
        weekly,
        weeks.map((r) => `${r.first_date.slice(0, 10)}:${r.total_price}:${r.total_nb}`).join() === wantWeeks.join(),
        `weekly rows (first_date the Monday) ${wantWeeks.join(', ')}`,
      );
      assertThat(weekly, weeks[0]?.week !== weeks[1]?.week, 'the two weeks have different week numbers');
    }
  });
});

describe('GET /item/salesGraph/{item} period', () => {
  it('Given sales 400, 200, 40 and 0 days ago, each period holds the sales of its window: 1M and 3M, 6M, 1Y, 5Y and ALL [R-SALES-GRAPH-PERIODS]', async (ctx) => {
    await needsHelpers(ctx);
    const item = await helpers.item({ name: 'Period Key', game: 440 });
    // Each sale has a market of its own: a seller's JWT (about 31 days) does not outlive the gaps.
    let last = await market(item.id);
    for (const [price, daysLater] of [
      [1, 200],
      [10, 160],
      [100, 40],
      [1000, 0],
    ] as const) {
      await last.sell(price);
      if (daysLater) {
        await helpers.advance(daysLater * DAY);
        last = await market(item.id);
      }
    }
    const totalOf = async (period: string) => {
      const answer = await get(`/item/salesGraph/${item.id}`, { period }, last.seller.token, last.seller.ip);
      const rows = content(answer).values as { price?: number; total_price?: number }[];
      return { answer, sum: rows.reduce((n, r) => n + (r.price ?? r.total_price ?? 0), 0) };
    };
    for (const [period, want] of [
      ['1M', 1000],
      ['3M', 1100],
      ['6M', 1100],
      ['1Y', 1110],
      ['5Y', 1111],
      ['ALL', 1111],
    ] as const) {
      const { answer, sum } = await totalOf(period);
      assertThat(answer, sum === want, `${period} sums the sales of its window: ${want}`);
    }
  });
});

describe('GET /public/sales', () => {
  it(
    'Given three sales, then the feed lists them newest first with anonymized IDs, and limit and since narrow it: since one second before a sale keeps it, since at it and one second after drop it [R-PUBLIC-SALES-FILTERS]',
    sides(['order', 'before', 'at', 'after'], 'R-PUBLIC-SALES-FILTERS'),
    async (ctx) => {
      await needsHelpers(ctx);
      const start = await helpers.now();
      await helpers.advance(10);
      const item = await helpers.item({ name: 'Feed Sword', game: 570 });
      const { seller, buyer, sell } = await market(item.id);
      const times: number[] = [];
      for (const price of [310, 320, 330]) {
        times.push(await helpers.pinClock());
        await sell(price);
        await helpers.advance(10);
      }
      const produced = await helpers.now();
      const feed = await get('/public/sales', { game: 570, since: start });
      const sales = content(feed).sales as Json[];
      assertThat(
        feed,
        sales.map((s) => `${s.itemId}:${s.price}`).join() === [330, 320, 310].map((p) => `${item.id}:${p}`).join() &&
          content(feed).count === 3,
        'the three sales since the start, newest first',
      );
      const anonymous = (id: string) => createHash('sha256').update(id).digest('hex').slice(0, 8);
      assertThat(
        feed,
        sales.every((s) => s.seller !== seller.platformId && s.buyer !== buyer.platformId),
        'seller and buyer are not the platform IDs',
      );
      assertThat(
        feed,
        sales.every((s) => s.seller === anonymous(seller.platformId) && s.buyer === anonymous(buyer.platformId)),
        'seller and buyer are the documented anonymous tokens (SHA-256 prefix)',
      );
      // Each sale at its own time, with its item's name and game; the feed made now, after the last sale.
      assertThat(
        feed,
        sales.map((s) => `${s.timestamp}:${s.itemName}:${s.game}`).join() ===
          times
            .slice()
            .reverse()
            .map((t) => `${t}:Feed Sword:570`)
            .join() &&
          content(feed).lastUpdate >= produced &&
          content(feed).lastUpdate <= (await helpers.now()),
        `each sale at its time, named, game 570; lastUpdate the time of the read (got ${JSON.stringify(content(feed))})`,
      );
      const limited = await get('/public/sales', { game: 570, since: start, limit: 2 });
      assertThat(
        limited,
        (content(limited).sales as Json[]).map((s) => s.price).join() === '330,320' && content(limited).count === 2,
        'limit=2 keeps the two newest; count counts what the page holds',
      );
      pinsMeaning(
        'GET /public/sales sales',
        'GET /public/sales sales[].itemId',
        'GET /public/sales sales[].itemName',
        'GET /public/sales sales[].game',
        'GET /public/sales sales[].price',
        'GET /public/sales sales[].timestamp',
        'GET /public/sales sales[].seller',
        'GET /public/sales sales[].buyer',
        'GET /public/sales count',
        'GET /public/sales lastUpdate',
      );
      // "only later sales": a sale at `since` itself is not later. The sales are 10 seconds apart.
      for (const [side, delta, want] of [
        ['one second before', -1, '330,320'],
        ['at', 0, '330'],
        ['one second after', 1, '330'],
      ] as const) {
        const later = await get('/public/sales', { game: 570, since: Number(sales[1].timestamp) + delta });
        const prices = (content(later).sales as Json[]).map((s) => s.price).join();
        assertThat(
          later,
          prices === want,
          `since ${side} the 320 sale (${sales[1].timestamp}) keeps ${want}; received ${prices}`,
        );
      }
    },
  );
});
