// Rules keyed on an identity (seed: "Limits", "Buy order", "Cashout", "Giveaways", "E-mail
// change"), each tested from both sides of its key: a second session of the same API key or user
// (from another IP) is bound by the rule, and another key or user is not. A test with one session
// cannot tell a limit per API key from one per session or per IP, nor one per user from a global
// one.
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, call } from '../src/kit/http.ts';
import { getAs as get, postAs as post } from '../src/kit/user-calls.ts';
import { balancePage, compactPrices, variantOf } from '../src/kit/variants.ts';
import type { Json } from '../src/oracle/document.ts';

beforeAll(resetIfPossible);

type Me = Awaited<ReturnType<typeof session>>;
const HOUR = 3600;
const DAY = 24 * HOUR;

/** A second session of `me`'s API key, logged in from `ip`. */
async function secondSession(me: Me, ip: string): Promise<Me> {
  const login = await call('POST', '/user/login', { json: { apiKey: me.apiKey }, ip });
  assertThat(login, login.status === 200, 'the API key logs in a second time');
  return { ...me, ip, token: content(login).jwt as string };
}

const refused = (a: Answer, message: string, what: string) =>
  assertThat(a, a.status === 300 && a.message === message, `${what}: ${message}`);

describe('GET /item/prices: 1 request per 5 minutes per API key', () => {
  it('Given a call with one API key, a second session of that key from another IP is limited, and another key is served [R-LIMIT-PRICES-RATE]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session({}, '198.51.100.31');
    const first = await call('GET', '/item/prices', { query: { game: 440 }, token: me.token, ip: me.ip });
    assertThat(first, first.status === 200, 'the first call of the key is served');
    const twin = await secondSession(me, '198.51.100.32');
    const again = await call('GET', '/item/prices', { query: { game: 440 }, token: twin.token, ip: twin.ip });
    assertConforms(again);
    assertThat(again, again.status === 429, 'the same API key through a new session and IP is still limited');
    const other = await session({}, me.ip);
    const theirs = await call('GET', '/item/prices', { query: { game: 440 }, token: other.token, ip: other.ip });
    assertThat(theirs, theirs.status === 200, 'another API key from the same IP has its own window');
  });
});

/** An item of `game` listed at 700 cents, and `list` to list it again at another price (a change a refresh shows). */
async function listedItem(name: string, game: Parameters<typeof helpers.item>[0]['game']) {
  const item = await helpers.item({ name, game });
  const seller = await helpers.user();
  const list = (price: number) => helpers.asset({ owner: seller.platformId, itemId: item.id, state: 1, price });
  await list(700);
  return { item, list };
}

describe('price lists: update=1 once per minute per IP', () => {
  /** The lowest listing price of `itemId` in each list, as it reads the list. */
  const lists = [
    {
      path: '/infos/prices/buyorderAndLowestSales',
      game: 440,
      lowest: (c: Json, itemId: number) => compactPrices(c)?.find((p) => p.item_id === itemId)?.lowest_sale_price,
    },
    {
      path: '/public/price',
      game: 730,
      lowest: (c: Json, itemId: number) =>
        (c.prices as { itemId: number; sellPrice: number }[]).find((p) => p.itemId === itemId)?.sellPrice,
    },
  ] as const;

  it.for(lists)(
    'Given a refresh of $path from one IP, a second refresh from it within the minute is served from the cache, and another IP refreshes [R-LIMIT-PRICE-LIST-CACHE]',
    async ({ path, game, lowest }, ctx) => {
      await needsHelpers(ctx);
      const { item, list } = await listedItem(`Scope Price List ${game}`, game);
      const refresh = async (ip: string) => {
        const answer = await call('GET', path, { query: { update: 1, ...(game === 730 ? { game } : {}) }, ip });
        assertConforms(answer);
        assertThat(answer, answer.status === 200, 'the list is served');
        return { answer, price: lowest(content(answer), item.id) };
      };
      // Each list has IPs of its own: the windows of one list's test do not reach the other's.
      const [one, two] = game === 440 ? ['198.51.100.41', '198.51.100.42'] : ['198.51.100.43', '198.51.100.44'];
      const fresh = await refresh(one);
      assertThat(fresh.answer, fresh.price === 700, 'update=1 shows the listing at 700');
      await list(650);
      const limited = await refresh(one);
      assertThat(limited.answer, limited.price === 700, 'the same IP within the minute gets the cached list (700)');
      const elsewhere = await refresh(two);
      assertThat(elsewhere.answer, elsewhere.price === 650, 'another IP forces its own refresh (650)');
    },
  );

  // Only `update=1` is limited (the document's `counts: requests with update=1`): reading the list
  // without it forces nothing, so it leaves the IP's minute unused.
  it.for(lists)(
    'Given reads of $path without update=1 from one IP, then its first update=1 within the minute still refreshes [R-LIMIT-PRICE-LIST-CACHE]',
    async ({ path, game, lowest }, ctx) => {
      await needsHelpers(ctx);
      const { item, list } = await listedItem(`Scope Plain Read ${game}`, game);
      const ip = game === 440 ? '198.51.100.47' : '198.51.100.48';
      const query = game === 730 ? { game } : {};
      for (const n of [1, 2]) {
        const plain = await call('GET', path, { query, ip });
        assertThat(plain, plain.status === 200, `plain read ${n} is served`);
      }
      await list(650);
      const forced = await call('GET', path, { query: { ...query, update: 1 }, ip });
      assertConforms(forced);
      assertThat(forced, forced.status === 200, 'the list is served');
      const price = lowest(content(forced), item.id);
      assertThat(forced, price === 650, `the first update=1 of the IP refreshes: 650 (got ${price})`);
    },
  );
});

describe('GET /public/price: update=1 once per minute per IP, whoever calls', () => {
  // The document keys this limit on the IP, and the route takes a JWT when one is sent: two users
  // behind one IP share its minute, and one user from two IPs has two (a key per user or per token
  // serves the second user a refresh).
  it('Given a refresh by a user with a JWT from one IP, another user with a JWT from that IP within the minute gets the cached list, and the first user from another IP refreshes [R-LIMIT-PRICE-LIST-CACHE]', async (ctx) => {
    await needsHelpers(ctx);
    const { item, list } = await listedItem('Scope Public Price Signed', 570);
    const me = await session({}, '198.51.100.45');
    const other = await session({}, '198.51.100.45');
    const refresh = async (as: Me) => {
      const answer = await call('GET', '/public/price', {
        query: { update: 1, game: 570 },
        token: as.token,
        ip: as.ip,
      });
      assertConforms(answer);
      assertThat(answer, answer.status === 200, 'the list is served');
      const prices = content(answer).prices as { itemId: number; sellPrice: number }[];
      return { answer, price: prices.find((p) => p.itemId === item.id)?.sellPrice };
    };
    const fresh = await refresh(me);
    assertThat(fresh.answer, fresh.price === 700, 'update=1 shows the listing at 700');
    await list(650);
    const shared = await refresh(other);
    assertThat(
      shared.answer,
      shared.price === 700,
      'another user from the same IP within the minute gets the cached list (700)',
    );
    const twin = await secondSession(me, '198.51.100.46');
    const elsewhere = await refresh(twin);
    assertThat(elsewhere.answer, elsewhere.price === 650, 'the first user from another IP forces a refresh (650)');
  });
});

describe('one buy order per user and item', () => {
  it('Given my order on an item, another user places one on the same item, and my second one is refused [R-BUYORDER-UNIQUE]', async (ctx) => {
    await needsHelpers(ctx);
    const item = await helpers.item({ name: 'Scope Order Key', game: 440 });
    const me = await session({ balance: 1000 });
    const other = await session({ balance: 1000 });
    const mine = await post(me, '/item/buyorder', { itemid: item.id, value: 100, amount: 1 });
    assertThat(mine, mine.status === 200, 'my order is inserted');
    const theirs = await post(other, '/item/buyorder', { itemid: item.id, value: 120, amount: 1 });
    assertThat(theirs, theirs.status === 200, 'another user has an order of their own on the same item');
    const twin = await secondSession(me, '198.51.100.51');
    refused(
      await post(twin, '/item/buyorder', { itemid: item.id, value: 90, amount: 1 }),
      'You already have buy order on this item please remove them in your profile page!',
      'my second session is still me',
    );
  });
});

describe('cashouts: one open request and 24 hours between requests, per user', () => {
  it("Given another user's open request, mine is accepted; my second session is refused while mine is open [R-LIMIT-CASHOUT, R-MSG-CASHOUT-PROCESS]", async (ctx) => {
    await needsHelpers(ctx);
    const other = await session({ balance: 100_000, paymentMethods: ['provider_a'] });
    const me = await session({ balance: 100_000, paymentMethods: ['provider_a'] });
    const theirs = await post(other, '/cashout/process', { amount: 5000, method: 'provider_a' });
    assertThat(theirs, theirs.status === 200, "another user's request is open");
    const mine = await post(me, '/cashout/process', { amount: 5000, method: 'provider_a' });
    assertThat(mine, mine.status === 200, "another user's open request does not hold mine back");
    const twin = await secondSession(me, '198.51.100.61');
    refused(
      await post(twin, '/cashout/process', { amount: 5000, method: 'provider_a' }),
      'Pending cashout exists',
      'my second session sees my open request',
    );
    await helpers.payment(content(mine).cashoutId as number, 'completed');
    refused(
      await post(twin, '/cashout/process', { amount: 5000, method: 'provider_a' }),
      'Cooldown period',
      'my second session is bound by my 24 hours',
    );
    await helpers.advance(DAY);
    const next = await post(twin, '/cashout/process', { amount: 5000, method: 'provider_a' });
    assertThat(next, next.status === 200, '24 hours later either session may ask again');
  });
});

describe('e-mail change: 1 request per 5 minutes, per user', () => {
  it('Given a request, my second session is refused within 5 minutes and another user is not [R-LIMIT-EMAIL-CHANGE, R-MSG-EMAIL-CHANGE-REQUEST]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session({ email: 'scope-me@example.com' });
    const other = await session({ email: 'scope-other@example.com' });
    const first = await post(me, '/user/email/change/request', { email: 'scope-me-new@example.com' });
    assertThat(first, first.status === 200, 'my request is created');
    const twin = await secondSession(me, '198.51.100.71');
    refused(
      await post(twin, '/user/email/change/request', { email: 'scope-me-newer@example.com' }),
      'Too many requests',
      'my second session shares my 5 minutes',
    );
    const theirs = await post(other, '/user/email/change/request', { email: 'scope-other-new@example.com' });
    assertThat(theirs, theirs.status === 200, 'another user has their own 5 minutes');
  });
});

describe('giveaways: 1 created per hour and 1 comment per 10 minutes, per user', () => {
  const giveaway = (items: string[]) => ({
    name: 'Scope giveaway',
    maxEntries: 5,
    type: 1,
    duration: HOUR,
    items,
  });
  async function creator(count: number) {
    const me = await session();
    const item = await helpers.item({ name: `Scope Giveaway Crate ${count}-${Date.now()}`, game: 440 });
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await helpers.asset({ owner: me.platformId, itemId: item.id })).assetId);
    return { me, ids };
  }

  it('Given my giveaway of this hour, another user creates one and my second session is refused [R-LIMIT-GIVEAWAYS, R-MSG-GIVEAWAYS-CREATE]', async (ctx) => {
    await needsHelpers(ctx);
    const a = await creator(2);
    const b = await creator(1);
    const mine = await post(a.me, '/giveaways/create', giveaway([a.ids[0]!]));
    assertThat(mine, mine.status === 200, 'my giveaway is created');
    const theirs = await post(b.me, '/giveaways/create', giveaway([b.ids[0]!]));
    assertThat(theirs, theirs.status === 200, 'another user creates theirs within my hour');
    const twin = await secondSession(a.me, '198.51.100.81');
    refused(
      await post(twin, '/giveaways/create', giveaway([a.ids[1]!])),
      'Rate limit exceeded. Maximum 1 giveaway per hour',
      'my second session shares my hour',
    );
  });

  it('Given my comment, another user comments at once and my second session waits 10 minutes, on another giveaway too [R-LIMIT-GIVEAWAYS, R-MSG-GIVEAWAYS-COMMENT]', async (ctx) => {
    await needsHelpers(ctx);
    const a = await creator(1);
    const b = await creator(1);
    const first = content(await post(a.me, '/giveaways/create', giveaway(a.ids))).giveaway.url as string;
    const second = content(await post(b.me, '/giveaways/create', giveaway(b.ids))).giveaway.url as string;
    const said = await post(a.me, '/giveaways/comment', { url: first, comment: 'first' });
    assertThat(said, said.status === 200, 'my comment is posted');
    const theirs = await post(b.me, '/giveaways/comment', { url: first, comment: 'mine too' });
    assertThat(theirs, theirs.status === 200, 'another user comments within my 10 minutes');
    const twin = await secondSession(a.me, '198.51.100.82');
    refused(
      await post(twin, '/giveaways/comment', { url: second, comment: 'elsewhere' }),
      'You can only post one comment every 10 minutes',
      'my second session, on another giveaway, shares my 10 minutes',
    );
  });
});

describe('short URL: changeable once per month, per user', () => {
  it('Given my short URL set today, another user sets theirs and my second session is refused [R-LIMIT-SHORT-URL]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const other = await session();
    const stamp = Date.now().toString(36);
    const set = await post(me, '/user/updateShortUrl', { shortUrl: `me-${stamp}` });
    assertThat(set, set.status === 200, 'my short URL is set');
    const theirs = await post(other, '/user/updateShortUrl', { shortUrl: `them-${stamp}` });
    assertThat(theirs, theirs.status === 200, 'another user sets theirs the same day');
    const twin = await secondSession(me, '198.51.100.91');
    const again = await post(twin, '/user/updateShortUrl', { shortUrl: `me2-${stamp}` });
    assertThat(again, again.status === 300, 'my second session is bound by my month');
  });
});

describe("histories: the caller's own records only", () => {
  it("Given two sales between two other pairs of users, each history, summary and ledger holds only the caller's own [R-SALES-HISTORY, R-TRANSACTION-HISTORY, R-BALANCE-HISTORY, R-SALES-SUMMARY]", async (ctx) => {
    await needsHelpers(ctx);
    /** A sale of a fresh item at `price` from a new seller to a new buyer, through the buyer's order. */
    const sale = async (price: number) => {
      const item = await helpers.item({ name: `Scope Ledger ${price}`, game: 440 });
      const buyer = await session({ balance: 10_000 });
      const seller = await session();
      await helpers.buyOrder({ owner: buyer.platformId, itemId: item.id, price, amount: 1 });
      const asset = await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 0 });
      const sold = await post(seller, '/inventory/price', { ids: asset.assetId, price });
      assertThat(sold, sold.status === 200, `the asset sells at ${price}`);
      return { buyer, seller };
    };
    const first = await sale(500);
    const second = await sale(700);
    for (const [{ buyer, seller }, price] of [
      [first, 500],
      [second, 700],
    ] as const) {
      const sales = await get(seller, '/user/getSalesHistory');
      const rows = content(sales).sales as { price: number }[];
      assertThat(sales, rows.map((r) => r.price).join() === String(price), `the seller at ${price} sees one sale`);
      const summary = await get(seller, '/user/getSalesInfos');
      const counted = variantOf(summary) === 'first' ? content(summary).totalSales === 1 : content(summary).nb === 0;
      assertThat(summary, counted, `the seller at ${price} counts one sale (or, {nb, price, user}: none on sale)`);
      const purchases = await get(buyer, '/user/getPurchaseHistory');
      const bought = content(purchases).purchases as { price: number }[];
      assertThat(
        purchases,
        bought.map((r) => r.price).join() === String(price),
        `the buyer at ${price} sees one purchase`,
      );
      const ledger = await get(seller, '/user/getBalanceHistory', { count: 100 });
      const amounts = balancePage(content(ledger)).values.map((e) => e.amount);
      assertThat(ledger, amounts.join() === String(Math.floor((price * 95) / 100)), `the seller's ledger: one credit`);
      const unified = await get(buyer, '/user/getTransactionHistory', { limit: 100 });
      const events = (content(unified).transactions as { kind: string; amount: number }[]).filter(
        (e) => e.kind === 'purchase',
      );
      assertThat(unified, events.map((e) => e.amount).join() === String(-price), `the buyer's purchases: -${price}`);
    }
  });
});
