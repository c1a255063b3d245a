import { describe, expect, it } from 'vitest';
import {
  accountIdOf,
  accountInfos,
  closePaymentAlert,
  closePaymentReviews,
  csvToken,
  notificationsOf,
  registerAffiliateClick,
  SHORT_URL_COOLDOWN,
  setMailNotificationStatus,
  setMailNotifications,
  setPrivacy,
  setTradeUrl,
  TRADE_URL_PREFIX,
  updateShortUrl,
} from './account.ts';
import { linkMethod } from './cashouts.ts';
import { ACCOUNT } from './messages.ts';
import { addNotification, mailEvent } from './notify.ts';
import type { User } from './state.ts';
import { testState } from './test-state.fixture.ts';
import { NOTIFICATION_KINDS } from './users.ts';

const mail = { subject: 's', body: 'b' };

describe('accountInfos', () => {
  it('shows 2fa as a string, notification as 0 or 1, and message as the unread message count', () => {
    const s = testState();
    const user = s.user({ twoFactor: true, tradeUrl: 'https://x' });
    addNotification(s.tx, user.platformId, 'message', 'hi', {}, s.now);
    addNotification(s.tx, user.platformId, 'alert', 'not a message', {}, s.now);
    const infos = accountInfos(s.tx, user);
    expect(infos).toMatchObject({ '2fa': 'true', notification: 1, message: 1, tradeurl: 'https://x' });
    expect(infos.since).toBe(String(s.now));
    const off = { ...user, twoFactorEnabled: false, emailNotifications: false } as User;
    expect(accountInfos(s.tx, off)).toMatchObject({ '2fa': 'false', notification: 0 });
  });

  it('shows as walletmail the e-mail of the method linked last, empty with none linked', () => {
    const s = testState();
    const user = s.user({ email: 'account@example.com' });
    expect(accountInfos(s.tx, user).walletmail).toBe('');
    linkMethod(s.tx, user.platformId, 'provider_b', 'b@example.com', s.now + 10);
    linkMethod(s.tx, user.platformId, 'provider_a', 'a@example.com', s.now + 20);
    expect(accountInfos(s.tx, s.tx.get('users', user.platformId)!).walletmail).toBe('a@example.com');
    const helperLinked = s.user({ email: 'own@example.com', paymentMethods: ['provider_a'] });
    expect(accountInfos(s.tx, helperLinked).walletmail).toBe('own@example.com');
  });
});

describe('notificationsOf', () => {
  it('lists each kind newest first, capped by limit, and counts only the unread', () => {
    const s = testState();
    const me = s.user().platformId;
    const a1 = addNotification(s.tx, me, 'alert', 'first', { order: 1 }, 100);
    addNotification(s.tx, me, 'alert', 'second', {}, 200);
    addNotification(s.tx, me, 'alert', 'third', {}, 300);
    addNotification(s.tx, 'someone-else', 'alert', 'not mine', {}, 400);
    s.tx.put('notifications', a1.id, { ...a1, read: true });
    const all = notificationsOf(s.tx, me, { unreadOnly: false, limit: 2 });
    expect(all.alerts.map((a) => a.message)).toEqual(['third', 'second']);
    expect(all.alertCount).toBe(2);
    expect(all.tradesCount).toBe(0);
    const everything = notificationsOf(s.tx, me, { unreadOnly: false, limit: 20 });
    expect(everything.alerts.at(-1)).toEqual({ order: 1, id: a1.id, message: 'first', read: true, timestamp: '100' });
    const unread = notificationsOf(s.tx, me, { unreadOnly: true, limit: 20 });
    expect(unread.alerts.map((a) => a.message)).toEqual(['third', 'second']);
  });
});

describe('payment alerts and reviews', () => {
  it('closes one payment alert of the caller, and refuses others', () => {
    const s = testState();
    const me = s.user().platformId;
    const review = addNotification(s.tx, me, 'paymentReview', 'Payment under review', {}, 1);
    const alert = addNotification(s.tx, me, 'alert', 'Not a payment alert', {}, 1);
    const theirs = addNotification(s.tx, 'other', 'paymentReview', 'x', {}, 1);
    expect(closePaymentAlert(s.tx, me, review.id)).toEqual({
      ok: true,
      value: { message: ACCOUNT.paymentAlertClosed },
    });
    expect(s.tx.get('notifications', review.id)?.read).toBe(true);
    expect(closePaymentAlert(s.tx, me, alert.id)).toEqual({ ok: false, error: ACCOUNT.paymentAlertNotFound });
    expect(closePaymentAlert(s.tx, me, theirs.id)).toEqual({ ok: false, error: ACCOUNT.paymentAlertNotFound });
    expect(closePaymentAlert(s.tx, me, 999)).toEqual({ ok: false, error: ACCOUNT.paymentAlertNotFound });
  });

  it('closes every unread payment review of the caller and counts them', () => {
    const s = testState();
    const me = s.user().platformId;
    addNotification(s.tx, me, 'paymentReview', 'a', {}, 1);
    addNotification(s.tx, me, 'paymentReview', 'b', {}, 2);
    const other = addNotification(s.tx, 'other', 'paymentReview', 'c', {}, 3);
    expect(closePaymentReviews(s.tx, me)).toEqual({
      ok: true,
      value: { message: ACCOUNT.paymentReviewsClosed, closed: 2 },
    });
    expect(closePaymentReviews(s.tx, me)).toMatchObject({ value: { closed: 0 } });
    expect(s.tx.get('notifications', other.id)?.read).toBe(false);
  });
});

describe('csvToken and registerAffiliateClick', () => {
  it('gives a SHA-512 hex token that differs with the nonce', () => {
    const a = csvToken('u', 'n1', 5);
    expect(a).toMatch(/^[0-9a-f]{128}$/);
    expect(csvToken('u', 'n2', 5)).not.toBe(a);
    expect(csvToken('u', 'n1', 5)).toBe(a);
  });

  it('emits the click as an affiliate effect', () => {
    const s = testState();
    expect(registerAffiliateClick(s.tx, { code: 'promo', user: undefined, ip: '1.2.3.4' }).ok).toBe(true);
    expect(s.tx.effects).toEqual([{ kind: 'affiliate', code: 'promo', user: undefined, ip: '1.2.3.4' }]);
  });
});

describe('e-mail switches', () => {
  it('setMailNotifications changes exactly the given kinds, and mailEvent honours them', () => {
    const s = testState();
    const me = s.user({ email: 'me@example.com' }).platformId;
    const before = { ...s.tx.get('users', me)!.notifications };
    const result = setMailNotifications(s.tx, me, { itemSold: false, marketing: true });
    expect(result.ok && result.value.notifications).toEqual({ ...before, itemSold: false, marketing: true });
    expect(Object.keys(s.tx.get('users', me)!.notifications).sort()).toEqual([...NOTIFICATION_KINDS].sort());
    expect(mailEvent(s.tx, me, 'itemSold', mail)).toBe(false);
    expect(mailEvent(s.tx, me, 'marketing', mail)).toBe(true);
    expect(mailEvent(s.tx, me, 'tradeCompleted', mail)).toBe(true);
  });

  it('setMailNotificationStatus is the master switch: off silences every kind, on keeps each kind as it was', () => {
    const s = testState();
    const me = s.user({ email: 'me@example.com' }).platformId;
    setMailNotifications(s.tx, me, { itemSold: false });
    expect(setMailNotificationStatus(s.tx, me, false)).toEqual({
      ok: true,
      value: { emailNotifications: false, message: ACCOUNT.emailNotificationsDisabled },
    });
    expect(NOTIFICATION_KINDS.some((k) => mailEvent(s.tx, me, k, mail))).toBe(false);
    setMailNotificationStatus(s.tx, me, true);
    expect(NOTIFICATION_KINDS.filter((k) => mailEvent(s.tx, me, k, mail))).toEqual([
      'tradeCompleted',
      'offerReceived',
      'buyOrderFilled',
      'depositCompleted',
    ]);
  });

  it('setPrivacy keeps left-out settings and echoes all four', () => {
    const s = testState();
    const me = s.user().platformId;
    const result = setPrivacy(s.tx, me, { showOnLeaderboard: false });
    expect(result.ok && result.value.settings).toEqual({
      profilePublic: true,
      inventoryPublic: true,
      tradeHistoryPublic: true,
      showOnLeaderboard: false,
    });
  });
});

describe('setTradeUrl', () => {
  it("accepts the caller's account ID as partner and refuses another's or a malformed URL", () => {
    const s = testState();
    const me = s.user({ platformId: '76561198000000001' }).platformId;
    expect(accountIdOf(me)).toBe('39734273');
    const url = `${TRADE_URL_PREFIX}39734273&token=AbC123xY`;
    expect(setTradeUrl(s.tx, me, url)).toEqual({
      ok: true,
      value: { tradeUrl: url, validated: true, message: ACCOUNT.tradeUrlUpdated },
    });
    expect(s.tx.get('users', me)?.tradeurl).toBe(url);
    expect(setTradeUrl(s.tx, me, `${TRADE_URL_PREFIX}39734274&token=AbC123xY`)).toEqual({
      ok: false,
      error: ACCOUNT.tradeUrlOtherAccount,
    });
    expect(setTradeUrl(s.tx, me, `${TRADE_URL_PREFIX}39734273&token=short`)).toEqual({
      ok: false,
      error: ACCOUNT.invalidTradeUrl,
    });
  });
});

describe('updateShortUrl', () => {
  it('applies length, characters, reserved names, names taken in any case, and the 30-day limit', () => {
    const s = testState();
    const me = s.user().platformId;
    s.user({ shorturl: 'Taken-Name' });
    const refuse = (name: string, now = s.now) => {
      const r = updateShortUrl(s.tx, me, name, now);
      return r.ok ? 'ok' : r.error;
    };
    expect(refuse('ab')).toBe(ACCOUNT.shortUrlLength);
    expect(refuse('a'.repeat(21))).toBe(ACCOUNT.shortUrlLength);
    expect(refuse('with space')).toBe(ACCOUNT.shortUrlInvalidCharacters);
    expect(refuse('Admin')).toBe(ACCOUNT.shortUrlReserved);
    expect(refuse('taken-name')).toBe(ACCOUNT.shortUrlTaken);
    expect(refuse('my-store')).toBe('ok');
    expect(s.tx.get('users', me)).toMatchObject({ shorturl: 'my-store', shorturlChangedAt: s.now });
    expect(refuse('my-store-2', s.now + SHORT_URL_COOLDOWN - 1)).toBe(ACCOUNT.shortUrlCooldown);
    expect(refuse('my-store-2', s.now + SHORT_URL_COOLDOWN)).toBe('ok');
  });
});
