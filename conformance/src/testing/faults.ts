// Planted faults: a proxy in front of a correct implementation that breaks one rule of the contract
// on the way through. The project's tests run the suite through each one and require it to fail:
// a suite that cannot catch these would pass a broken backend.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HELPER_ANSWER } from '../kit/not-implemented.ts';
import {
  clockNow,
  type Fault,
  graphsPeriodAs,
  helperAnswers,
  type Json,
  type Memory,
  map,
  newestCreatedFirst,
  type Outgoing,
  ok,
  type ProxiedExchange,
  refusal,
  rewriteContent,
  set,
} from './fault-kit.ts';
import { MEANING_FAULTS } from './faults-meaning.ts';

export type { Fault } from './fault-kit.ts';

/** The states of the assets the test helpers created (asset ID -> state). */
const assetStates = helperAnswers('states', '/test_helpers/assets', (asset) => [
  String(asset?.assetId),
  String(asset?.state),
]);

/** The last outcome the payments helper gave each cashout (cashout ID -> outcome). */
const paymentOutcomes = helperAnswers('payments', /^\/test_helpers\/payments\/\d+$/, (_, sent, x) => [
  x.path.slice('/test_helpers/payments/'.length),
  String(sent.outcome),
]);

/** The statuses of the trades the trade lists showed the proxy (trade ID -> status). */
function tradeStatuses(x: ProxiedExchange, memory: Memory): Map<string, string> {
  const statuses = map(memory, 'statuses');
  if ((x.path === '/trades/active' || x.path === '/trades/all') && Array.isArray(x.body?.content?.trades))
    for (const t of x.body.content.trades) statuses.set(String(t.id), String(t.status));
  return statuses;
}

/** The assets the test helpers created with a trade hold (asset ID -> its end). */
const heldAssets = helperAnswers('held', '/test_helpers/assets', (asset, sent) =>
  sent.tradeHoldUntil ? [String(asset?.assetId), String(sent.tradeHoldUntil)] : undefined,
);

/** The response rewrite of an implementation listing `field` of `path`'s content in reverse. */
const reversed = (path: string, field: string) =>
  rewriteContent(path, (c) => {
    if (Array.isArray(c[field])) c[field].reverse();
  });

/** The request rewrite of an implementation that ignores the query parameter `param` of `path`. */
const ignoresQuery =
  (path: string, param: string) =>
  (r: Outgoing): void => {
    if (r.url.pathname === path) r.url.searchParams.delete(param);
  };

/**
 * A refusal turned into a success the first time each `key` of the exchange meets it: an
 * implementation keying the rule on that identity (a session, a giveaway) instead of the seed's.
 */
function keyedOn(
  x: ProxiedExchange,
  memory: Memory,
  name: string,
  key: string,
  refused: boolean,
  forged: () => { status: number; body: Json },
): void {
  const met = set(memory, name);
  if (x.status === 200) met.add(key);
  else if (refused && !met.has(key)) {
    met.add(key);
    Object.assign(x, forged());
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'])
      delete x.responseHeaders[h];
  }
}

/**
 * The answer computed exactly `ttl` seconds before `now` under `key`, when there is one (a cache
 * that still holds at its end: `<=` for `<`); otherwise `fresh` is remembered as computed now.
 */
function keptAtEnd(memory: Memory, key: string, now: number, ttl: number, fresh: Json): Json | undefined {
  const computed = map(memory, 'computed');
  const before = computed.has(key) ? JSON.parse(computed.get(key)!) : undefined;
  if (before?.at + ttl === now) return before.value;
  computed.set(key, JSON.stringify({ at: now, value: fresh }));
  return undefined;
}

/**
 * Adds `cents` to what `GET /user/balance` shows `user` from now on (money an implementation wrongly
 * gives or keeps), and shows each user's sum so far on this exchange when it reads a balance.
 */
function shiftBalance(x: ProxiedExchange, memory: Memory, user?: string, cents = 0): void {
  const extra = map(memory, 'balance shifts');
  if (user && cents) extra.set(user, String(Number(extra.get(user) ?? 0) + cents));
  if (x.path === '/user/balance' && x.user && extra.has(x.user) && typeof x.body?.content?.balance === 'number')
    x.body.content.balance += Number(extra.get(x.user));
}

/** What the buy orders the helper placed reserve (owner and item -> cents). */
const helperReservations = helperAnswers('reserved', '/test_helpers/buyorders', (_, sent) => [
  `${sent.owner} ${sent.itemId}`,
  String(Number(sent.price) * Number(sent.amount)),
]);

const isAdminPath = (path: string) => path.startsWith('/admin/') || path.startsWith('/giveaways/deleteComment/');

/** The cashout's answer with its fee (2% for provider_a, 1.5% otherwise) rounded by `round`, not up. */
const cashoutFeeRounded = (round: (fee: number) => number) =>
  rewriteContent('/cashout/process', (result) => {
    if (typeof result.fee === 'number' && typeof result.amount === 'number')
      result.fee = round((result.amount * (result.method === 'provider_a' ? 20 : 15)) / 1000);
  });

/** Who holds each asset (asset ID -> platform ID): the helper's owner, then what inventory reads show. */
const assetHolders = helperAnswers('holders', '/test_helpers/assets', (asset, sent) => [
  String(asset?.assetId),
  String(sent.owner),
]);

/** Each user's last session as the proxy saw it logged in (platform ID -> its headers). */
function learnSessions(x: ProxiedExchange, memory: Memory): void {
  const sessions = map(memory, 'sessions');
  if (x.path === '/test_helpers/reset') sessions.clear();
  const jwt = x.path === '/user/login' && x.status === 200 ? x.body?.content?.jwt : undefined;
  const subject = typeof jwt === 'string' ? subjectOf(`Bearer ${jwt}`) : undefined;
  if (!subject) return;
  const ip = x.headers['x-forwarded-for'];
  sessions.set(subject, JSON.stringify({ authorization: `Bearer ${jwt}`, ...(ip ? { 'x-forwarded-for': ip } : {}) }));
}

/** The sessions, and who holds each asset: the helper's owner, then what the inventory reads show. */
function learnHolders(x: ProxiedExchange, memory: Memory): void {
  learnSessions(x, memory);
  const holders = assetHolders(x, memory);
  if (
    ['/inventory/onInventory', '/inventory/onSale'].includes(x.path) &&
    x.user &&
    Array.isArray(x.body?.content?.items)
  )
    for (const row of x.body.content.items) for (const id of String(row.ids).split(',')) holders.set(id, x.user);
}

/** Sends the request as `holder` (their last session) when the caller is someone else. */
function sendAs(r: Outgoing, memory: Memory, holder: string): void {
  const session = map(memory, 'sessions').get(holder);
  if (session && holder !== subjectOf(r.headers.authorization)) Object.assign(r.headers, JSON.parse(session));
}

/** Sends the request as the one holder of every asset of `ids`, when there is one. */
function sendAsHolder(r: Outgoing, memory: Memory, ids: string[]): void {
  const holders = new Set(ids.map((id) => map(memory, 'holders').get(id.trim())));
  const [holder] = holders;
  if (holders.size === 1 && holder) sendAs(r, memory, holder);
}

export const FAULTS: Record<string, Fault> = {
  'wrong-message': {
    description: 'business errors carry another message than the documented one',
    grep: 'negative data: POST /user/login',
    response: (x) => {
      if (x.status === 300 && typeof x.body?.content === 'string') x.body.content = 'Something went wrong';
    },
  },
  'missing-field': {
    description: 'the listing count answer lacks its count field',
    grep: 'listings',
    response: (x) => {
      if (x.path.startsWith('/item/listing/count/') && x.body?.content) delete x.body.content.count;
    },
  },
  'wrong-sort-order': {
    description: 'listings come most expensive first',
    grep: 'listings',
    response: rewriteContent(/^\/item\/listing\/\d+/, (c) => {
      if (Array.isArray(c)) c.reverse();
    }),
  },
  'wrong-price': {
    description: 'pricing reports the lowest listing one cent off',
    grep: 'pricing',
    response: (x) => {
      if (x.path.startsWith('/item/pricing/') && x.body?.content?.pricing)
        x.body.content.pricing.lowest_sale_price += 1;
    },
  },
  'no-ip-binding': {
    description: 'tokens work from any IP (the proxy hides the client address)',
    grep: 'other-IP token',
    request: (r) => {
      r.headers['x-forwarded-for'] = '203.0.113.250';
    },
  },
  'no-rate-limit-headers': {
    description: '429 answers lack the rate-limit headers',
    grep: 'rate limit',
    response: (x) => {
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'])
        delete x.responseHeaders[h];
    },
  },
  'admin-route-open': {
    description: 'admin routes answer non-admins',
    grep: 'refuses a non-admin',
    response: (x) => {
      if (isAdminPath(x.path) && x.status === 403) {
        x.status = 200;
        x.body = { status: 'success', data: {} };
      }
    },
  },
  'closed-ticket-open': {
    description: 'a closed support ticket still takes messages (the refusal is answered as a success)',
    grep: 'closed ticket',
    response: (x) => {
      if (x.body?.message === 'Cannot send message: ticket is closed') {
        x.status = 200;
        x.body = { status: 'success', data: { message: 'Message sent', ticket: 1 } };
      }
    },
  },
  'wrong-totp-secret': {
    description: '2FA create shows a secret other than the one the server checks codes against',
    grep: 'TOTP code activates',
    response: rewriteContent('/user/2FA/create', (secret) => {
      if (typeof secret.base32 === 'string') secret.base32 = `${secret.base32.slice(1)}A`;
    }),
  },
  'unverifiable-draw': {
    description: 'an ended giveaway reveals a seed other than the one committed at creation',
    grep: 'the revealed seed draws',
    response: (x) => {
      const fairness = x.path.startsWith('/giveaways/details/') ? x.body?.data?.giveaway?.fairness : undefined;
      if (typeof fairness?.serverSeed === 'string') fairness.serverSeed = [...fairness.serverSeed].reverse().join('');
    },
  },
  'deposit-key-ignored': {
    description: 'a deposit with a tampered deposit key is accepted (the refusal is answered as a success)',
    grep: 'tampered key is refused',
    response: (x) => {
      if (x.path === '/deposit/trade' && String(x.body?.content).startsWith('invalid deposit key for assetId:')) {
        x.status = 200;
        x.body = { err: false, success: true, content: { id: 1 } };
      }
    },
  },
  'wrong-fee': {
    description: 'a sale credits the seller one cent more than floor(price x 95 / 100) (the fee rounded the other way)',
    grep: 'sells at once',
    response: (x) => {
      // Balances that hold sale proceeds end in the cents a 95 % floor leaves; shift them all.
      if (x.path === '/user/balance' && typeof x.body?.content?.balance === 'number' && x.body.content.balance > 0)
        x.body.content.balance += 1;
    },
  },
  'cashout-fee-rounded-down': {
    description: 'a cashout answers a fee rounded down instead of ceil(amount x rate)',
    grep: 'cashout is accepted pending with the 2 percent fee',
    response: cashoutFeeRounded(Math.floor),
  },
  'banned-login-accepted': {
    description: 'a banned user logs in (the 403 refusal is answered as a success)',
    grep: 'their token and a new login are refused',
    response: (x) => {
      if (x.path === '/user/login' && x.status === 403 && x.body?.content === 'forbidden') {
        x.status = 200;
        x.body = { err: false, success: true, content: { jwt: 'a.b.c' } };
      }
    },
  },
  'server-error-on-bad-input': {
    description: 'bad input produces a 500',
    grep: 'negative data: POST /user/login',
    response: (x) => {
      if (x.status === 300) {
        x.status = 500;
        x.body = { err: true, success: false, content: 'Internal server error' };
      }
    },
  },
  'cart-reason-unavailable': {
    description:
      'POST /cart/update reports every invalid asset as unavailable (the reason of a re-priced, gone or own asset lost)',
    grep: 'update names each reason',
    response: (x) => {
      if (x.path !== '/cart/update' || !x.body?.content?.integrity) return;
      const c = x.body.content;
      for (const entry of [...c.integrity.invalidItems, ...c.replaced, ...c.removed]) {
        entry.reason = 'unavailable';
        delete entry.currentPrice;
        delete entry.expectedPrice;
      }
    },
  },
  // Scope: a rule keyed on another identity than the seed's.
  'prices-limit-per-session': {
    kind: 'scope',
    description: 'GET /item/prices is limited per session (JWT) instead of per API key: a new login is served again',
    grep: 'a second session of that key from another IP is limited',
    response: (x, memory) => {
      if (x.path !== '/item/prices') return;
      keyedOn(x, memory, 'served', x.headers.authorization ?? '', x.status === 429, () => ({
        status: 200,
        body: ok([]),
      }));
    },
  },
  'general-limit-per-session': {
    kind: 'scope',
    description:
      'the typical rate limit is kept per session instead of per user, route and method: the same user through another login is served',
    grep: 'limited for every session of that user',
    response: (x, memory) => {
      if (x.path === '/item/prices') return;
      keyedOn(x, memory, 'served', `${x.headers.authorization} ${x.method} ${x.path}`, x.status === 429, () => ({
        status: 200,
        body: ok({ balance: 0 }),
      }));
    },
  },
  'general-limit-get-only': {
    kind: 'states',
    description: 'the typical rate limit counts GET requests only: POST requests are never limited',
    grep: 'the limit counts GET and POST',
    response: (x) => {
      if (x.method === 'POST' && x.status === 429) {
        x.status = 200;
        x.body = ok({ message: 'ok' });
        for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'])
          delete x.responseHeaders[h];
      }
    },
  },
  'price-list-refresh-global': {
    kind: 'scope',
    description:
      'update=1 of the price lists is allowed once per minute for everybody instead of per IP (the client address is lost)',
    grep: 'another IP refreshes',
    request: (r) => {
      if (['/infos/prices/buyorderAndLowestSales', '/public/price'].includes(r.url.pathname))
        r.headers['x-forwarded-for'] = '203.0.113.77';
    },
  },
  'buy-order-unique-per-item': {
    kind: 'scope',
    description: 'a buy order is unique per item instead of per user and item: another user is refused',
    grep: 'another user places one on the same item',
    response: (x, memory) => {
      if (x.path !== '/item/buyorder' || x.status !== 200 || !x.user) return;
      const owners = map(memory, 'owners');
      const item = String(x.requestBody?.itemid);
      const first = owners.get(item);
      if (first === undefined) owners.set(item, x.user);
      else if (first !== x.user) {
        x.status = 300;
        x.body = refusal('You already have buy order on this item please remove them in your profile page!');
      }
    },
  },
  'cashout-cooldown-per-session': {
    kind: 'scope',
    description: 'the 24 hours between cashout requests are counted per session instead of per user',
    grep: 'my second session is refused while mine is open',
    response: (x, memory) => {
      if (x.path !== '/cashout/process') return;
      keyedOn(x, memory, 'asked', x.headers.authorization ?? '', x.body?.content === 'Cooldown period', () => ({
        status: 200,
        body: ok({ cashoutId: 1, amount: x.requestBody?.amount, method: x.requestBody?.method, status: 'pending' }),
      }));
    },
  },
  'comment-limit-per-giveaway': {
    kind: 'scope',
    description: 'one comment per 10 minutes is counted per giveaway instead of per user',
    grep: 'my second session waits 10 minutes',
    response: (x, memory) => {
      if (x.path !== '/giveaways/comment') return;
      const refused = x.body?.message === 'You can only post one comment every 10 minutes';
      keyedOn(x, memory, 'said', `${x.user} ${x.requestBody?.url}`, refused, () => ({
        status: 200,
        body: { status: 'success', data: { message: 'Comment posted' } },
      }));
    },
  },
  'support-block-global': {
    kind: 'scope',
    description: 'a support block is kept for everybody instead of for the blocked user',
    grep: 'another user is not blocked',
    response: (x, memory) => {
      const blocked = set(memory, 'blocked');
      if (x.path === '/admin/support/block' && x.status === 200) {
        if (x.requestBody?.status === 1) blocked.add('someone');
        else blocked.clear();
      }
      if (x.path === '/support/create' && x.status === 200 && blocked.size) {
        x.status = 300;
        x.body = { status: 'error', message: 'You are blocked from support' };
      }
    },
  },
  // Several states: a rule that names several states checked in one of them only.
  'open-cashout-pending-only': {
    kind: 'states',
    description: 'only a pending cashout counts as open: a processing one lets a new request and an unlink through',
    grep: 'pending, then processing',
    response: (x, memory) => {
      const owners = map(memory, 'cashout owners');
      const outcomes = paymentOutcomes(x, memory);
      if (x.path === '/cashout/process' && x.status === 200 && x.user)
        owners.set(String(x.body?.content?.cashoutId), x.user);
      const processing = [...outcomes].some(([id, outcome]) => outcome === 'processing' && owners.get(id) === x.user);
      if (x.body?.content === 'Pending cashout exists' && x.user && processing) {
        x.status = 200;
        x.body = ok({ message: 'ok', status: 'pending' });
      }
    },
  },
  'withdraw-refuses-state-2-only': {
    kind: 'states',
    description:
      'only assets pending withdrawal (2) are refused by POST /inventory/withdraw: assets in an active trade (3) or reserved (negative) are withdrawn',
    grep: 'withdrawing it is refused',
    response: (x, memory) => {
      const states = assetStates(x, memory);
      if (x.path !== '/inventory/withdraw' || x.body?.content !== 'Items not available for withdrawal') return;
      const ids = String(x.requestBody?.ids ?? '').split(',');
      if (ids.every((id) => states.has(id) && states.get(id) !== '2')) {
        x.status = 200;
        x.body = ok({ message: 'Withdrawal initiated', updated: ids.length, locked: 0 });
      }
    },
  },
  'cart-add-refuses-state-0-only': {
    kind: 'states',
    description:
      'POST /cart/add refuses assets in the inventory (0) only, not those pending withdrawal, in a trade or reserved',
    grep: 'listings, counts, the cart and bulk take only state 1',
    response: (x, memory) => {
      const states = assetStates(x, memory);
      const state = states.get(String(x.requestBody?.assetId));
      if (x.path === '/cart/add' && x.body?.content === 'Item not available for purchase' && state && state !== '0') {
        x.status = 200;
        x.body = ok({ cart: [] });
      }
    },
  },
  'revert-completed-trade': {
    kind: 'states',
    description: 'POST /admin/revertTrade reverts a completed trade (3) as if it had failed (-1)',
    grep: 'an admin revert of each is refused',
    response: (x, memory) => {
      const statuses = tradeStatuses(x, memory);
      const trade = /^\/admin\/revertTrade\/(\d+)$/.exec(x.path)?.[1];
      if (trade && x.body?.message === 'No trade found with status -1 to revert' && statuses.get(trade) === '3') {
        x.status = 200;
        x.body = { status: 'success', data: { message: 'Trade reverted', trade: Number(trade), restored: 1 } };
      }
    },
  },
  'giveaway-pool-refuses-state-2-only': {
    kind: 'states',
    description:
      'POST /giveaways/create refuses assets pending withdrawal (2) only: assets in a trade or reserved join a pool',
    grep: 'a giveaway of each is refused',
    response: (x, memory) => {
      const states = assetStates(x, memory);
      const items: unknown[] = Array.isArray(x.requestBody?.items) ? x.requestBody.items : [];
      const others = items.length > 0 && items.every((id) => states.has(String(id)) && states.get(String(id)) !== '2');
      if (x.path === '/giveaways/create' && x.body?.message?.startsWith('Items not found') && others) {
        x.status = 200;
        x.body = { status: 'success', data: { message: 'Giveaway created' } };
      }
    },
  },
  'resend-failed-trade': {
    kind: 'states',
    description: 'GET /trades/resend refuses completed trades only: a failed trade (-1) is sent again',
    grep: 'resending either is refused',
    response: (x, memory) => {
      const statuses = tradeStatuses(x, memory);
      if (x.path === '/trades/resend' && x.status === 300 && statuses.get(x.query.get('id') ?? '') === '-1') {
        x.status = 200;
        x.body = ok({ message: 'Trade offer sent again' });
      }
    },
  },
  'trade-hold-every-game': {
    kind: 'filter',
    description: 'the 7-day trade hold refuses the pricing of held assets of every game, not only game 730',
    grep: 'the 730 one is refused and the 440 one is listed',
    response: (x, memory) => {
      const held = heldAssets(x, memory);
      const ids = String(x.requestBody?.ids ?? '').split(',');
      if (x.path === '/inventory/price' && x.status === 200 && ids.some((id) => held.has(id))) {
        x.status = 300;
        x.body = refusal('This item will be locked for 7 days');
      }
    },
  },
  // Filters: a parameter the implementation ignores.
  'ignores-undercut': {
    kind: 'filter',
    description: 'GET /user/getBuyorder ignores undercut',
    grep: 'undercut, the search term and amount 0',
    request: ignoresQuery('/user/getBuyorder', 'undercut'),
  },
  'ignores-outofstock': {
    kind: 'filter',
    description: 'GET /item/prices ignores outofstock',
    grep: 'game and outofstock keep their rows',
    request: ignoresQuery('/item/prices', 'outofstock'),
  },
  'ignores-public-sales-game': {
    kind: 'filter',
    description: 'GET /public/sales ignores game',
    grep: 'game keeps the sales of that game only',
    request: ignoresQuery('/public/sales', 'game'),
  },
  'ignores-public-price-game': {
    kind: 'filter',
    description: 'GET /public/price ignores game',
    grep: 'its JSON row and CSV line carry them',
    request: ignoresQuery('/public/price', 'game'),
  },
  'sales-graph-period-ignored': {
    kind: 'filter',
    description: 'GET /item/salesGraph/{item} draws a year of daily rows whatever the daily period asked',
    grep: 'each period holds the sales of its window',
    request: graphsPeriodAs('1M', '1Y'),
  },
  'my-giveaways-ignore-caller': {
    kind: 'filter',
    description: "GET /giveaways/my answers the public active list instead of the caller's giveaways",
    grep: 'each list keeps only its own',
    request: (r) => {
      if (r.url.pathname === '/giveaways/my') r.url.pathname = '/giveaways';
    },
  },
  'ignores-listing-seller': {
    kind: 'filter',
    description: 'GET /item/listing/{item}/{userid} ignores the seller segment (answers every seller)',
    grep: 'lists on-sale assets by price ascending',
    request: (r) => {
      const m = /^\/item\/listing\/(\d+)\/\d+$/.exec(r.url.pathname);
      if (m) r.url.pathname = `/item/listing/${m[1]}`;
    },
  },
  'ignores-balance-type': {
    kind: 'filter',
    description: 'GET /user/getBalanceHistory ignores type',
    grep: 'type keeps one type',
    request: ignoresQuery('/user/getBalanceHistory', 'type'),
  },
  'ignores-unread-only': {
    kind: 'filter',
    description: 'GET /user/notifications ignores unreadOnly',
    grep: 'unreadOnly keeps the unread answer',
    request: ignoresQuery('/user/notifications', 'unreadOnly'),
  },
  'ignores-bulk-seller': {
    kind: 'filter',
    description: 'POST /cart/bulk ignores sellerUserId',
    grep: 'bulk takes the cheapest',
    request: (r) => {
      if (r.url.pathname === '/cart/bulk' && r.body && typeof r.body === 'object') delete r.body.sellerUserId;
    },
  },

  // Sides of a rule (issue 22): a list's order, the exact second of a deadline, the rounding of an
  // amount, a promise of the test-helper contract.
  'buy-orders-oldest-first': {
    kind: 'order',
    description: 'GET /user/getBuyorder lists buy orders by ID ascending instead of descending',
    grep: 'GET /user/getBuyorder: records created out of order',
    response: reversed('/user/getBuyorder', 'values'),
  },
  'cashout-history-oldest-first': {
    kind: 'order',
    description: 'GET /user/getCashoutHistory lists cashouts oldest first',
    grep: 'GET /user/getCashoutHistory: records created out of order',
    response: reversed('/user/getCashoutHistory', 'cashouts'),
  },
  'transaction-history-oldest-first': {
    kind: 'order',
    description: 'GET /user/getTransactionHistory lists the unified history oldest first',
    grep: 'GET /user/getTransactionHistory: records created out of order',
    response: reversed('/user/getTransactionHistory', 'transactions'),
  },
  'giveaway-history-by-creation': {
    kind: 'order',
    description:
      'GET /giveaways/history lists the ended giveaways newest created first instead of most recently ended first',
    grep: 'come newest first while active and most recently ended first once ended',
    response: rewriteContent('/giveaways/history', (c) => {
      if (Array.isArray(c.list)) c.list.sort(newestCreatedFirst);
    }),
  },
  'giveaway-pages-of-10': {
    kind: 'order',
    description: 'GET /giveaways pages 10 giveaways at a time instead of 20',
    grep: 'come newest first while active and most recently ended first once ended',
    response: rewriteContent('/giveaways', (c) => {
      if (Array.isArray(c.list)) c.list.splice(10);
    }),
  },
  'cashout-cooldown-inclusive': {
    kind: 'deadline',
    description: 'a cashout exactly 24 hours after the previous one is still refused (`<=` for `<`)',
    grep: '24 hours must pass between two cashout requests',
    response: (x, memory) => {
      const now = clockNow(x, memory);
      const last = map(memory, 'last');
      if (x.path === '/user/getCashoutHistory' && x.user && Array.isArray(x.body?.content?.cashouts))
        for (const c of x.body.content.cashouts)
          last.set(x.user, String(Math.max(Number(c.requestedAt), Number(last.get(x.user) ?? 0))));
      if (x.path === '/cashout/process' && x.status === 200 && x.user && last.has(x.user))
        if (Number(last.get(x.user)) + 86_400 === now) {
          x.status = 300;
          x.body = refusal('Cooldown period');
        }
    },
  },
  'pricing-cache-inclusive': {
    kind: 'deadline',
    description: 'single-item pricing is still served from the cache in the second its 20 minutes end (`<=` for `<`)',
    grep: 'single-item pricing is cached 20 minutes',
    response: (x, memory) => {
      const now = clockNow(x, memory);
      if (!/^\/item\/pricing\/\d+$/.test(x.path) || x.body?.content?.cached !== false) return;
      const before = keptAtEnd(memory, x.path, now, 20 * 60, x.body);
      if (before) x.body = { ...before, content: { ...before.content, cached: true } };
    },
  },
  'bulk-pricing-cache-inclusive': {
    kind: 'deadline',
    description: 'bulk pricing still reuses a stored row exactly 5 minutes old (`<=` for `<`)',
    grep: 'bulk pricing reuses rows updated within 5 minutes',
    response: (x, memory) => {
      const now = clockNow(x, memory);
      const rows: Json[] = x.path === '/item/pricing/bulk' ? (x.body?.content?.items ?? []) : [];
      for (const [i, row] of rows.entries()) {
        const before = row?.from_cache === false && keptAtEnd(memory, String(row.item_id), now, 5 * 60, row);
        if (before) rows[i] = { ...before, from_cache: true };
      }
    },
  },
  'price-list-cache-inclusive': {
    kind: 'deadline',
    description: 'the price list is still served from the cache in the second its 3 minutes end (`<=` for `<`)',
    grep: 'the list is refreshed every 3 minutes',
    response: (x, memory) => {
      const now = clockNow(x, memory);
      // A list refreshed now (forced or not) is remembered; a plain one replaced at the end of 3 minutes.
      if (x.path !== '/public/price' || x.body?.content?.lastUpdate !== now) return;
      const before = keptAtEnd(memory, 'list', now, 3 * 60, x.body);
      if (before && !x.query.has('update')) x.body = before;
    },
  },
  'sales-window-inclusive': {
    kind: 'deadline',
    description:
      'a sale exactly 7, 30 or 90 days old is still in the window of the last 7, 30 or 90 days (`>=` for `>`)',
    grep: 'count a sale one second inside their window and not at its end',
    response: (x, memory) => {
      const now = clockNow(x, memory);
      const sold = map(memory, 'sale times');
      if (x.path !== '/user/getSalesHistory' || !x.user || !Array.isArray(x.body?.content?.sales)) return;
      const days = { '7d': 7, '30d': 30, '90d': 90 }[x.query.get('range') ?? ''];
      if (!days) {
        for (const sale of x.body.content.sales) sold.set(`${x.user} ${sale.id}`, String(sale.timestamp));
        return;
      }
      for (const [key, at] of sold)
        if (key.startsWith(`${x.user} `) && Number(at) + days * 86_400 === now) x.body.content.total += 1;
    },
  },
  'sales-chart-period-ignored': {
    kind: 'deadline',
    description: 'GET /user/getSalesChartInfos ignores period: every chart covers the last 30 days',
    grep: 'count a sale N - 1 days old in their statistics and rows',
    request: ignoresQuery('/user/getSalesChartInfos', 'period'),
  },
  'session-listed-at-expire': {
    kind: 'deadline',
    description: 'GET /user/ipList still lists a session in the second of its expire (`>=` for `>`)',
    grep: 'a session is left out from its',
    response: (x, memory) => {
      const now = clockNow(x, memory);
      const seen = map(memory, 'sessions');
      const rows: Json[] | undefined = x.body?.content?.values;
      if (x.path !== '/user/ipList' || !x.user || !Array.isArray(rows)) return;
      for (const row of rows) seen.set(`${x.user} ${row.id}`, JSON.stringify(row));
      for (const [key, row] of seen)
        if (
          key.startsWith(`${x.user} `) &&
          Number(JSON.parse(row).expire) === now &&
          !rows.some((r) => `${x.user} ${r.id}` === key)
        ) {
          rows.push({ ...JSON.parse(row), current: false });
          x.body.content.count += 1;
        }
    },
  },
  'ban-active-at-until': {
    kind: 'deadline',
    description: 'GET /admin/banList shows a ban active in the second of its until (`>=` for `>`)',
    grep: 'a ban is `active` until its',
    response: (x, memory) => {
      const now = clockNow(x, memory);
      const bans: Json[] = x.path === '/admin/banList' ? (x.body?.data?.bans ?? []) : [];
      for (const ban of bans) if (ban.until === now) ban.active = true;
    },
  },
  'jwt-accepted-at-exp': {
    kind: 'deadline',
    description: 'a JWT is still accepted in the second of its exp (`<` for `<=`)',
    grep: 'a JWT is refused from its',
    response: (x, memory) => {
      const now = clockNow(x, memory);
      const payload = x.headers.authorization?.replace(/^Bearer /, '').split('.')[1];
      const exp = payload ? Number(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).exp) : Number.NaN;
      if (x.path === '/user/balance' && x.status === 403 && exp === now) {
        x.status = 200;
        x.body = ok({ balance: 0 });
      }
    },
  },
  'cashout-fee-rounded-half': {
    kind: 'rounding',
    description: 'a cashout answers its fee rounded to the nearest cent instead of up',
    grep: 'refunded when it fails',
    response: cashoutFeeRounded(Math.round),
  },
  'average-rounded-down': {
    kind: 'rounding',
    description: 'the average sale price is rounded down instead of to the nearest cent',
    grep: 'GET /user/getSalesInfos averages',
    response: rewriteContent('/user/getSalesInfos', (c) => {
      if (typeof c.averageSalePrice === 'number' && c.itemsSold > 0)
        c.averageSalePrice = Math.floor(c.totalRevenue / c.itemsSold);
    }),
  },
  'instant-sell-rounded-half': {
    kind: 'rounding',
    description: 'an instant sell credits 95 percent of the bid rounded to the nearest cent instead of down',
    grep: 'Given an instant sell into a bid',
    response: (x, memory) => {
      const bids = map(memory, 'bids');
      const rows = /^\/instantsell\/\d+$/.test(x.path) ? x.body?.content?.informations?.rows : undefined;
      if (Array.isArray(rows)) for (const r of rows) bids.set(String(r.assetId), String(r.instantPrice));
      const trade = x.path.startsWith('/test_helpers/platform/offers/') ? x.body?.content : undefined;
      if (trade?.kind === 'instant_sell' && trade.status === 3 && Array.isArray(trade.assetIds))
        for (const id of trade.assetIds) {
          const bid = Number(bids.get(String(id)));
          shiftBalance(
            x,
            memory,
            String(trade.platformId),
            Math.round((bid * 95) / 100) - Math.floor((bid * 95) / 100),
          );
        }
      shiftBalance(x, memory);
    },
  },
  'balance-gross-of-reservations': {
    kind: 'money',
    description:
      'GET /user/balance shows the balance gross of what open buy orders reserve (the document settles it as net)',
    grep: 'an order reserves value x amount|updating it swaps the reservation|sells into the oldest best bid',
    response: (x, memory) => {
      // What each user's open orders reserve as the proxy saw them placed (by the helper too),
      // updated and removed.
      const reserved = helperReservations(x, memory);
      const b = x.requestBody ?? {};
      if (x.status !== 200) return;
      if (['/item/buyorder', '/item/buyorder/update'].includes(x.path) && x.user)
        reserved.set(`${x.user} ${b.itemid}`, String(Number(b.value) * Number(b.amount)));
      if (x.path === '/item/buyorder/remove' && x.user) reserved.delete(`${x.user} ${b.itemid}`);
      if (x.path === '/user/balance' && x.user && typeof x.body?.content?.balance === 'number')
        for (const [key, cents] of reserved) if (key.startsWith(`${x.user} `)) x.body.content.balance += Number(cents);
    },
  },
  'outbox-newest-first': {
    kind: 'helper',
    description: 'GET /test_helpers/outbox lists messages newest first',
    grep: 'oldest first, filtered by channel',
    response: reversed('/test_helpers/outbox', 'messages'),
  },
  // Ownership: a record acted on for whoever asks. Played by sending the request as the record's
  // holder (learnt from the helpers, the inventory reads and the deposits, sessions from the log-ins).
  'withdraw-others-asset': {
    kind: 'ownership',
    description: "POST /inventory/withdraw checks no owner: a user withdraws another user's asset",
    grep: 'an asset that is not mine',
    request: (r, memory) => {
      if (r.url.pathname === '/inventory/withdraw' && typeof r.body?.ids === 'string')
        sendAsHolder(r, memory, String(r.body.ids).split(','));
    },
    response: learnHolders,
  },
  'giveaway-pools-others-asset': {
    kind: 'ownership',
    description: "POST /giveaways/create checks no owner: a user pools another user's asset into a giveaway",
    grep: 'each refusal carries the seed message and leaves the assets in the inventory',
    request: (r, memory) => {
      if (r.url.pathname === '/giveaways/create' && Array.isArray(r.body?.items))
        sendAsHolder(r, memory, r.body.items.map(String));
    },
    response: learnHolders,
  },
  'deposit-status-others': {
    kind: 'ownership',
    description: "GET /deposit/tradeStatus/{tradeid} checks no owner: a user reads another user's deposit trade",
    grep: 'answers the response types error, notFound and forbidden',
    request: (r, memory) => {
      const trade = /^\/deposit\/tradeStatus\/(\d+)$/.exec(r.url.pathname)?.[1];
      const owner = trade && map(memory, 'deposits').get(trade);
      if (owner) sendAs(r, memory, owner);
    },
    response: (x, memory) => {
      learnSessions(x, memory);
      const deposits = map(memory, 'deposits');
      if (x.path === '/test_helpers/reset') deposits.clear();
      if (x.path === '/deposit/trade' && x.status === 200 && x.user) deposits.set(String(x.body?.content?.id), x.user);
    },
  },
  'helper-asset-internal-shape': {
    kind: 'helper',
    description:
      'POST /test_helpers/assets answers its internal asset (assetId, owner, itemId, ...) instead of the documented id, assetId, item_id, user, state',
    grep: 'into a buy order at 2100',
    says: `set-up failed: ${HELPER_ANSWER}`,
    response: (x) => {
      const c = x.body?.content;
      if (x.path === '/test_helpers/assets' && x.status === 200 && c)
        x.body.content = { assetId: c.assetId, owner: c.user, itemId: c.item_id, state: c.state, price: c.price };
    },
  },
  'helper-slug-underscores': {
    kind: 'helper',
    description: 'POST /test_helpers/items makes slugs with "_" instead of "-"',
    grep: 'the slug is the name in lower case',
    response: (x) => {
      if (x.path === '/test_helpers/items' && typeof x.body?.content?.url === 'string')
        x.body.content.url = x.body.content.url.replaceAll('-', '_');
    },
  },
  ...MEANING_FAULTS,
};

/**
 * Faults in state that no single answer shows, only the state read as a whole (money that does not
 * add up, an asset in two places): what `marketplace-conformance explore` is for (src/explore/).
 */
export const STATE_FAULTS: Record<string, Fault> = {
  'cashout-fee-not-debited': {
    kind: 'money',
    description: 'a cashout debits the amount but not its fee: the balance keeps the fee (money created)',
    grep: 'cashout is accepted pending with the 2 percent fee',
    response: (x, memory) => {
      const fee = x.path === '/cashout/process' && x.status === 200 ? x.body?.content?.fee : undefined;
      shiftBalance(x, memory, x.user, typeof fee === 'number' ? fee : 0);
    },
  },
  'seller-keeps-sold-asset': {
    kind: 'ownership',
    description: "a sold asset stays in the seller's inventory as well as the buyer's",
    grep: 'sells at once',
    response: (x, memory) => {
      const owners = assetHolders(x, memory);
      const rows = map(memory, 'rows');
      if (x.path === '/test_helpers/reset') rows.clear();
      if (x.path !== '/inventory/onInventory' || !x.user || !Array.isArray(x.body?.content?.items)) return;
      const items: Json[] = x.body.content.items;
      for (const row of items)
        for (const id of String(row.ids).split(','))
          if (owners.has(id) && owners.get(id) !== x.user)
            rows.set(id, JSON.stringify({ ...row, ids: id, assetId: id, count: 1 }));
      for (const [id, row] of rows)
        if (owners.get(id) === x.user && !items.some((r) => String(r.ids).split(',').includes(id))) {
          items.push(JSON.parse(row));
          x.body.content.count += 1;
        }
    },
  },
};

/** The subject of a bearer JWT (not verified: the proxy only tells callers apart). */
function subjectOf(authorization: string | undefined): string | undefined {
  const payload = authorization?.replace(/^Bearer /, '').split('.')[1];
  if (!payload) return undefined;
  try {
    return String(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).sub);
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Request headers the faulty proxy does not forward: the connection's own, and those it sets itself. */
const LEFT_BEHIND = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
]);

/** A proxy to `upstream` with `fault` planted (or none: a transparent proxy, the control). */
export async function startFaultyProxy(
  upstream: string,
  fault?: Fault,
): Promise<{ url: string; close: () => Promise<void> }> {
  const memory: Memory = new Map();
  const server: Server = createServer(async (req, res) => {
    // The body is read whole and sent on with its length, so the headers of the incoming connection
    // (a body sent chunked: `transfer-encoding`) stay behind; fetch refuses them, which left the
    // exchange unanswered.
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !LEFT_BEHIND.has(k)) headers[k] = v;
    const raw = await readBody(req);
    let json: Json;
    if ((headers['content-type'] ?? '').includes('json') && raw.length)
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = undefined; // malformed on purpose: forwarded as sent
      }
    const sent = JSON.stringify(json);
    const out: Outgoing = { method: req.method ?? 'GET', url: new URL(req.url ?? '/', upstream), headers, body: json };
    const instead = fault?.answer?.(out);
    if (instead) {
      res.writeHead(instead.status, { 'content-type': instead.contentType ?? 'application/json; charset=utf-8' });
      res.end(typeof instead.body === 'string' ? instead.body : JSON.stringify(instead.body));
      return;
    }
    fault?.request?.(out, memory);
    // Bodies a fault did not touch go out byte for byte (big numbers, odd spacing).
    const body = json !== undefined && JSON.stringify(out.body) !== sent ? JSON.stringify(out.body) : raw;
    const answer = await fetch(out.url, {
      method: out.method,
      headers,
      body: body.length ? (typeof body === 'string' ? body : new Uint8Array(body)) : undefined,
    });
    const text = await answer.text();
    const x: ProxiedExchange = {
      method: out.method,
      path: out.url.pathname,
      query: out.url.searchParams,
      headers,
      requestBody: out.body,
      user: subjectOf(headers.authorization),
      status: answer.status,
      responseHeaders: Object.fromEntries(
        [...answer.headers.entries()].filter(
          ([k]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k),
        ),
      ),
      body: (answer.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text,
    };
    await fault?.response?.(x, memory);
    const reply = typeof x.body === 'string' ? x.body : JSON.stringify(x.body);
    res.writeHead(x.status, x.responseHeaders);
    res.end(reply);
  });
  // As the test harness's server: an idle keep-alive connection kept a minute, so that on a loaded
  // machine the client's reuse of a socket never crosses Node's default 5 s close (ECONNRESET).
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
