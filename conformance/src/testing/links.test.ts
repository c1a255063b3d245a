// The document's links walked against the reference server in test mode (in this process, on a
// free port) with the suite's own HTTP code: after a login with a test-helper account's API key,
// every request is made by following a link of the previous answer (links.ts), its other inputs
// being the document's examples and the JWT the login's link gave (kept as the walk's credential).
// The seed's main flows reach success answers that way, which is what a generic stateful tool
// driven by the document can do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../packages/server/src/routes/test-harness.fixture.ts';
import { settings } from '../kit/settings.ts';
import { operations } from '../oracle/document.ts';
import { evaluate, follow, type Hop, linkedRequest, linksFrom, resolveValue, send } from './links.ts';

let server: TestServer;
let target: string;
let item: { id: number };
beforeAll(async () => {
  server = await startTestServer();
  target = settings.target;
  settings.target = server.baseUrl;
  // The one item of the price list (cached for 3 minutes once read), with one listing.
  item = await server.item({ name: 'Linked Key' });
  await server.listed(item, [250]);
});
afterAll(async () => {
  settings.target = target;
  await server?.close();
});

const login = operations.find((o) => o.id === 'postUserLogin')!;

/** Logs in with the API key (the only input the walk is given) and returns the exchange. */
const logIn = (apiKey: string) => send({ operation: login, path: {}, query: {}, headers: {}, body: { apiKey } });

/** Follows the link to `operationId` and expects a success answer. */
async function step(from: Hop, operationId: string): Promise<Hop> {
  const x = await follow(from, operationId);
  const body = x.answer.body as { success?: boolean; status?: string };
  expect(
    [x.answer.status, body?.success ?? body?.status],
    `${from.operation.id} → ${operationId}: ${JSON.stringify(x.answer.body)}`,
  ).toEqual([200, body?.status === undefined ? true : 'success']);
  return x;
}

const exchange = (body: unknown, request: Partial<Hop['request']> = {}): Hop => ({
  operation: login,
  request: { path: {}, query: {}, headers: {}, ...request },
  answer: { status: 200, headers: { 'x-ratelimit-limit': '600' }, body, url: 'http://x/user/login', method: 'POST' },
});

describe('runtime expressions', () => {
  const x = exchange(
    { content: { jwt: 'abc', cart: [{ cartId: 7 }] } },
    { path: { item: '3' }, query: { page: '0' }, headers: { Authorization: 'Bearer t' }, body: { itemid: 3 } },
  );
  it.each([
    ['$response.body#/content/cart/0/cartId', 7],
    ['$response.body#/content/cart/1/cartId', undefined],
    ['$request.body#/itemid', 3],
    ['$request.path.item', '3'],
    ['$request.query.page', '0'],
    ['$request.header.authorization', 'Bearer t'],
    ['$response.header.X-RateLimit-Limit', '600'],
    ['$statusCode', 200],
    ['$method', 'POST'],
  ])('%s is %j', (expression, want) => {
    expect(evaluate(expression, x)).toEqual(want);
  });

  it('keeps the type of a whole expression and writes embedded ones into the text', () => {
    expect(resolveValue({ id: '$response.body#/content/cart/0/cartId', items: ['$request.path.item'] }, x)).toEqual({
      id: 7,
      items: ['3'],
    });
    expect(resolveValue('Bearer {$response.body#/content/jwt}', x)).toBe('Bearer abc');
  });

  it('keeps the credential of the walk for an operation that takes a JWT, and only for one', () => {
    const cart = linkedRequest({ operationId: 'postCartRemove', requestBody: { cartId: 1 } }, x);
    expect(cart?.headers).toEqual({ Authorization: 'Bearer t' });
    const login = linkedRequest({ operationId: 'postUserLogin', requestBody: { apiKey: 'k' } }, x);
    expect(login?.headers).toEqual({});
  });

  it('gives no request when an expression finds nothing', () => {
    const link = { operationId: 'postCartRemove', requestBody: { cartId: '$response.body#/content/cart/3/cartId' } };
    expect(linkedRequest(link, x)).toBeUndefined();
    expect(
      linkedRequest({ ...link, requestBody: { cartId: '$response.body#/content/cart/0/cartId' } }, x)?.body,
    ).toEqual({
      cartId: 7,
    });
  });
});

describe('the links of the document against the reference server', { timeout: 120_000 }, () => {
  it('walk a buy order from the price list: create, read, update, remove', async () => {
    const buyer = await server.user({ balance: 10_000 });
    const prices = await step(await logIn(buyer.apiKey), 'getPublicPrice');
    const order = await step(prices, 'postItemBuyorder');
    await step(order, 'getUserBuyorderItem');
    const updated = await step(order, 'postItemBuyorderUpdate');
    await step(updated, 'postItemBuyorderRemove');
    // Its listing, a cart row added and removed, the cheapest listing bought through the cart.
    const listing = await step(prices, 'getItemListingItem');
    await step(await step(listing, 'postCartAdd'), 'postCartRemove');
    await step(await step(listing, 'postCartBulk'), 'postCartCheckout');
    const history = await step(await logIn(buyer.apiKey), 'getUserGetTransactionHistory');
    await step(history, 'getUserGetTransactionDetails');
  });

  it('walk a support ticket: create, read, answer, and the admin side', async () => {
    const user = await server.user();
    const ticket = await step(await logIn(user.apiKey), 'postSupportCreate');
    await step(ticket, 'getSupportMessagesTicket');
    await step(ticket, 'postSupportPost');
    const admin = await server.user({ admin: true });
    const list = await step(await logIn(admin.apiKey), 'getAdminSupportList');
    await step(list, 'getAdminSupportMessagesTicketUser');
    await step(list, 'postAdminSupportPost');
    await step(list, 'postAdminSupportStatus');
  });

  it('walk a giveaway: create from the inventory, read, comment, join and leave', async () => {
    const item = await server.item({ name: 'Giveaway Hat' });
    const owner = await server.user();
    await server.asset({ owner: owner.platformId, itemId: item.id, state: 0 });
    const inventory = await step(await logIn(owner.apiKey), 'getInventoryOnInventory');
    const giveaway = await step(inventory, 'postGiveawaysCreate');
    await step(giveaway, 'getGiveawaysDetailsUrl');
    await step(giveaway, 'postGiveawaysComment');
    const entrant = await server.user();
    const list = await step(await logIn(entrant.apiKey), 'getGiveaways');
    await step(list, 'postGiveawaysJoinUrl');
    await step(list, 'getGiveawaysIsInUrl');
    await step(list, 'postGiveawaysLeaveUrl');
  });

  it('walk a cashout: link a method, request, cancel', async () => {
    const user = await server.user({ balance: 100_000 });
    const linked = await step(await logIn(user.apiKey), 'postCashoutLink');
    const cashout = await step(linked, 'postCashoutProcess');
    await step(cashout, 'getUserGetCashoutHistory');
    await step(cashout, 'postCashoutCancel');
  });

  it('walk a withdrawal: from the inventory to the trade, resent', async () => {
    const item = await server.item({ name: 'Withdrawn Cap' });
    const user = await server.user();
    await server.asset({ owner: user.platformId, itemId: item.id, state: 0 });
    const inventory = await step(await logIn(user.apiKey), 'getInventoryOnInventory');
    const trades = await step(await step(inventory, 'postInventoryWithdraw'), 'getTradesActive');
    await step(trades, 'getTradesResend');
  });

  it('walk the sessions and the store', async () => {
    const user = await server.user();
    await step(await step(await logIn(user.apiKey), 'getUserIpList'), 'getUserDisconnectSessionId');
    await step(await step(await logIn(user.apiKey), 'postUserUpdateShortUrl'), 'getUserStoreIdentifier');
  });

  it('lead a walk that chooses nothing itself, depth first over every link once, to the main flows', async () => {
    const user = await server.user({ balance: 100_000 });
    // A listing of the price list's item of its own (the flows above bought theirs).
    await server.listed(item, [300]);
    const hat = await server.item({ name: 'Walked Hat' });
    await server.asset({ owner: user.platformId, itemId: hat.id, state: 0 });
    const followed = new Set<string>();
    const succeeded = new Set<string>();
    const walk = async (x: Hop): Promise<void> => {
      for (const [name, link] of Object.entries(linksFrom(x))) {
        const key = `${x.operation.id} ${name}`;
        // Logging out would end the walk's session: a tool logs in again, this walk leaves them out.
        if (followed.has(key) || /Disconnect/.test(link.operationId) || followed.size >= 500) continue;
        followed.add(key);
        const request = linkedRequest(link, x);
        if (!request) continue;
        const next = await send(request);
        if (next.answer.status !== 200) continue;
        succeeded.add(next.operation.id);
        await walk(next);
      }
    };
    await walk(await logIn(user.apiKey));
    // Measured: about 160 links followed, about 70 operations answering 200.
    expect([...succeeded], `${followed.size} links followed; 200 from ${[...succeeded].sort().join(' ')}`).toEqual(
      expect.arrayContaining([
        'getPublicPrice',
        'postItemBuyorder',
        'getUserBuyorderItem',
        'postItemBuyorderUpdate',
        'postItemBuyorderRemove',
        'getItemListingItem',
        'postCartAdd',
        'postCartRemove',
        'postSupportCreate',
        'getSupportMessagesTicket',
        'postSupportPost',
        'postCashoutLink',
        'postCashoutProcess',
        'postCashoutCancel',
        'getInventoryOnInventory',
        'postInventoryWithdraw',
        'getTradesActive',
        'getTradesResend',
      ]),
    );
  });

  // Last: the documented examples it sends take state the walks above need (the example short URL).
  it('carry the JWT of a login to every operation that takes one', async () => {
    const admin = await server.user({ admin: true, balance: 100_000 });
    let x = await logIn(admin.apiKey);
    const links = Object.values(linksFrom(x));
    expect(links.length).toBeGreaterThan(80);
    const refused: string[] = [];
    for (const link of links) {
      // Logging out ends the session: the next call follows a new login's link.
      if (/Disconnect/.test(link.operationId)) x = await logIn(admin.apiKey);
      const answer = await send(linkedRequest(link, x)!);
      if (answer.answer.status === 403 || answer.answer.status >= 500)
        refused.push(`${link.operationId}: ${answer.answer.status} ${JSON.stringify(answer.answer.body)}`);
    }
    expect(refused).toEqual([]);
  });
});
