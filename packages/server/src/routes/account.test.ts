// Route tests of the account area: what the conformance suite cannot set up through the API
// (notifications, e-mail events of each kind, a configured site URL).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT } from '../domain/messages.ts';
import { addNotification, mailEvent } from '../domain/notify.ts';
import { ok } from '../domain/tx.ts';
import { NOTIFICATION_KINDS, type NotificationKind } from '../domain/users.ts';
import { execute } from '../http/execute.ts';
import { startTestServer, type TestServer } from './test-harness.fixture.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { MARKETPLACE_SITE_URL: 'https://market.example.com' } });
});
afterAll(() => t.close());
beforeEach(() => t.reset());

async function signedIn(email = 'me@example.com') {
  const user = await t.user({ email });
  return { ...user, jwt: await t.login(user.apiKey) };
}

/** Sends one e-mail of every kind to the user the way an event does, and lists the kinds delivered. */
async function deliveredKinds(platformId: string, email: string): Promise<NotificationKind[]> {
  const before = t.deps.outbox.list({ channel: 'email', to: email }).length;
  await execute(t.deps, (tx) => {
    for (const kind of NOTIFICATION_KINDS) mailEvent(tx, platformId, kind, { subject: kind, body: kind });
    return ok(null);
  });
  return t.deps.outbox
    .list({ channel: 'email', to: email })
    .slice(before)
    .map((m) => m.kind as NotificationKind);
}

describe('e-mail events and the switches', () => {
  it('setMailNotification turns exactly the given kinds off or on, and the outbox shows it', async () => {
    const me = await signedIn();
    expect(await deliveredKinds(me.platformId, 'me@example.com')).toEqual(
      NOTIFICATION_KINDS.filter((k) => k !== 'marketing'),
    );
    const { response } = await t.api.POST('/user/setMailNotification', {
      body: { notifications: { itemSold: false, marketing: true } },
      ...t.auth(me.jwt),
    });
    expect(response.status).toBe(200);
    expect(await deliveredKinds(me.platformId, 'me@example.com')).toEqual([
      'tradeCompleted',
      'offerReceived',
      'buyOrderFilled',
      'depositCompleted',
      'marketing',
    ]);
  });

  it('setMailNotificationStatus silences every kind and restores each as it was', async () => {
    const me = await signedIn();
    await t.api.POST('/user/setMailNotification', {
      body: { notifications: { tradeCompleted: false } },
      ...t.auth(me.jwt),
    });
    await t.api.POST('/user/setMailNotificationStatus', { body: { enabled: false }, ...t.auth(me.jwt) });
    expect(await deliveredKinds(me.platformId, 'me@example.com')).toEqual([]);
    await t.api.POST('/user/setMailNotificationStatus', { body: { enabled: true }, ...t.auth(me.jwt) });
    expect(await deliveredKinds(me.platformId, 'me@example.com')).toEqual([
      'offerReceived',
      'buyOrderFilled',
      'itemSold',
      'depositCompleted',
    ]);
  });
});

describe('GET /user/notifications and the payment routes', () => {
  it('shows unread entries, and closing a payment alert and the reviews marks them read', async () => {
    const me = await signedIn();
    let alertId = 0;
    await execute(t.deps, (tx) => {
      alertId = addNotification(tx, me.platformId, 'paymentReview', 'Payment under review', { amount: 500 }, 100).id;
      addNotification(tx, me.platformId, 'paymentReview', 'Another review', {}, 200);
      addNotification(tx, me.platformId, 'trade', 'Trade completed', { trade: 7 }, 300);
      return ok(null);
    });
    const first = await t.api.GET('/user/notifications', { params: { query: { limit: 1 } }, ...t.auth(me.jwt) });
    expect(first.data?.content).toMatchObject({
      paymentReviews: [{ message: 'Another review', timestamp: '200', read: false }],
      paymentReviewsCount: 2,
      trades: [{ trade: 7, message: 'Trade completed' }],
      tradesCount: 1,
    });
    const closed = await t.api.POST('/user/closePaymentAlert', { body: { id: alertId }, ...t.auth(me.jwt) });
    expect(closed.data?.content).toEqual({ message: ACCOUNT.paymentAlertClosed });
    const reviews = await t.api.POST('/user/closePaymentReviews', t.auth(me.jwt));
    expect(reviews.data?.content).toEqual({ message: ACCOUNT.paymentReviewsClosed, closed: 1 });
    const after = await t.api.GET('/user/notifications', {
      params: { query: { unreadOnly: true } },
      ...t.auth(me.jwt),
    });
    expect(after.data?.content).toMatchObject({ paymentReviews: [], paymentReviewsCount: 0, tradesCount: 1 });
  });
});

describe('POST /user/updateShortUrl', () => {
  it('builds fullUrl from the configured site URL, and the store answers by the short URL', async () => {
    const me = await signedIn();
    const set = await t.api.POST('/user/updateShortUrl', { body: { shortUrl: 'My-Store' }, ...t.auth(me.jwt) });
    expect(set.data?.content).toEqual({
      shortUrl: 'My-Store',
      fullUrl: 'https://market.example.com/u/My-Store',
      message: ACCOUNT.shortUrlUpdated,
    });
    const store = await t.api.GET('/user/store/{identifier}', { params: { path: { identifier: 'my-store' } } });
    expect(store.data?.content).toMatchObject({ platformId: me.platformId });
  });
});
