// The caller's account (seed: "User account", "User", "Events"): what GET /user/infos shows, the
// unread notifications, payment alerts and reviews, the e-mail switches, privacy settings, the
// trade URL and the store short URL. Where the seed is silent the document settles (each rule
// names its operation's x-gaps); the messages are in messages.ts.
import { createHash } from 'node:crypto';
import type { Schema } from '@marketplace/types';
import { linkedMethods } from './cashouts.ts';
import { ACCOUNT } from './messages.ts';
import type { Notification } from './records.ts';
import type { User } from './state.ts';
import { fail, ok, type Tx } from './tx.ts';
import type { NotificationKind, PrivacySetting } from './users.ts';

/**
 * The payment e-mail of the method linked last (the document's User `walletmail`), '' when none is
 * linked; of methods linked at one time, the later in the account's list.
 */
const walletmailOf = (user: User): string =>
  linkedMethods(user).reduce<{ email: string; at: number }>(
    (last, m) => (Number(m.linkedAt) >= last.at ? { email: m.email, at: Number(m.linkedAt) } : last),
    { email: '', at: Number.NEGATIVE_INFINITY },
  ).email;

/** The caller's row of GET /user/infos (User schema). `message` is the unread message count. */
export function accountInfos(tx: Tx, user: User): Schema<'User'> {
  const unreadMessages = tx
    .find('notificationsByUser', user.platformId)
    .filter((n) => n.kind === 'message' && !n.read).length;
  return {
    platformId: user.platformId,
    balance: user.balance,
    walletmail: walletmailOf(user),
    tradeurl: user.tradeurl,
    since: String(user.since),
    image: user.image,
    '2fa': user.twoFactorEnabled ? 'true' : 'false',
    name: user.name,
    lastactivity: String(user.lastactivity),
    chattag: '',
    chatid: '',
    shorturl: user.shorturl,
    message: unreadMessages,
    notification: user.emailNotifications ? 1 : 0,
  };
}

/** The lists of GET /user/notifications (variant 1), keyed as the document names them. */
const LISTS: [Notification['kind'], string, string][] = [
  ['alert', 'alerts', 'alertCount'],
  ['paymentReview', 'paymentReviews', 'paymentReviewsCount'],
  ['message', 'messages', 'messagesCount'],
  ['offer', 'offers', 'offersCount'],
  ['trade', 'trades', 'tradesCount'],
];

/**
 * The caller's notifications, newest first: each list holds up to `limit` entries (only unread
 * ones with `unreadOnly`), each count is the number of unread entries (document, x-reference-variant).
 */
export function notificationsOf(
  tx: Tx,
  platformId: string,
  opts: { unreadOnly: boolean; limit: number },
): Schema<'NotificationsFull'> {
  const mine = tx.find('notificationsByUser', platformId).sort((a, b) => b.timestamp - a.timestamp || b.id - a.id);
  const out: Record<string, unknown> = {};
  for (const [kind, list, count] of LISTS) {
    const ofKind = mine.filter((n) => n.kind === kind);
    out[list] = ofKind
      .filter((n) => !opts.unreadOnly || !n.read)
      .slice(0, opts.limit)
      .map((n) => ({ ...n.data, id: n.id, message: n.text, read: n.read, timestamp: String(n.timestamp) }));
    out[count] = ofKind.filter((n) => !n.read).length;
  }
  return out as Schema<'NotificationsFull'>;
}

/** Marks one payment alert (a `paymentReview` notification) of the caller read. */
export function closePaymentAlert(tx: Tx, platformId: string, id: number) {
  const alert = tx.get('notifications', id);
  if (!alert || alert.user !== platformId || alert.kind !== 'paymentReview') return fail(ACCOUNT.paymentAlertNotFound);
  if (!alert.read) tx.put('notifications', id, { ...alert, read: true });
  return ok({ message: ACCOUNT.paymentAlertClosed });
}

/** Marks every unread payment review of the caller read; `closed` counts them. */
export function closePaymentReviews(tx: Tx, platformId: string) {
  let closed = 0;
  for (const n of tx.find('notificationsByUser', platformId)) {
    if (n.kind !== 'paymentReview' || n.read) continue;
    tx.put('notifications', n.id, { ...n, read: true });
    closed += 1;
  }
  return ok({ message: ACCOUNT.paymentReviewsClosed, closed });
}

/** A CSV export token: the SHA-512 hex of the user, a random nonce and the time. */
export const csvToken = (platformId: string, nonce: string, now: number): string =>
  createHash('sha512').update(`${platformId}:${nonce}:${now}`).digest('hex');

/** Registers an affiliate click with the tracking service (an outside effect). */
export function registerAffiliateClick(tx: Tx, click: { code: string; user: string | undefined; ip: string }) {
  tx.emit({ kind: 'affiliate', ...click });
  return ok({ message: ACCOUNT.affiliateRegistered });
}

/** Stores some of a user's switches over the others; returns all of them. */
function merge<F extends 'notifications' | 'privacy'>(
  tx: Tx,
  platformId: string,
  field: F,
  changes: Partial<User[F]>,
): User[F] {
  const user = tx.get('users', platformId)!;
  const merged = { ...user[field], ...changes } as User[F];
  tx.put('users', platformId, { ...user, [field]: merged });
  return merged;
}

/** Changes some e-mail kinds' switches; left-out kinds keep their values. Echoes all six. */
export function setMailNotifications(tx: Tx, platformId: string, changes: Partial<Record<NotificationKind, boolean>>) {
  return ok({ message: ACCOUNT.notificationsUpdated, notifications: merge(tx, platformId, 'notifications', changes) });
}

/** The master switch of all e-mail notifications (`notification` of GET /user/infos). */
export function setMailNotificationStatus(tx: Tx, platformId: string, enabled: boolean) {
  const user = tx.get('users', platformId)!;
  tx.put('users', platformId, { ...user, emailNotifications: enabled });
  const message = enabled ? ACCOUNT.emailNotificationsEnabled : ACCOUNT.emailNotificationsDisabled;
  return ok({ emailNotifications: enabled, message });
}

/** Changes some privacy settings; left-out settings keep their values. Echoes all four. */
export function setPrivacy(tx: Tx, platformId: string, changes: Partial<Record<PrivacySetting, boolean>>) {
  return ok({ message: ACCOUNT.privacyUpdated, settings: merge(tx, platformId, 'privacy', changes) });
}

/** The platform's trade offer URL prefix (document: the seed's `{trade_url_prefix}`). */
export const TRADE_URL_PREFIX = 'https://platform.example.com/tradeoffer/new/?partner=';
const TRADE_URL = /^https:\/\/platform\.example\.com\/tradeoffer\/new\/\?partner=([0-9]+)&token=[A-Za-z0-9_-]{8}$/;

/** The account ID of a 64-bit platform user ID: its lower 32 bits. */
export const accountIdOf = (platformId: string): string => String(BigInt(platformId) & 0xffffffffn);

/**
 * Stores the caller's trade URL: the document's format, with the caller's account ID as partner.
 * The simulated platform confirms every well-formed URL of the caller's account, so `validated`
 * is true and `Trade URL validation failed` is not reached (its check is not shown by the seed).
 */
export function setTradeUrl(tx: Tx, platformId: string, tradeUrl: string) {
  const match = TRADE_URL.exec(tradeUrl);
  if (!match) return fail(ACCOUNT.invalidTradeUrl);
  if (match[1] !== accountIdOf(platformId)) return fail(ACCOUNT.tradeUrlOtherAccount);
  const user = tx.get('users', platformId)!;
  tx.put('users', platformId, { ...user, tradeurl: tradeUrl });
  return ok({ tradeUrl, validated: true, message: ACCOUNT.tradeUrlUpdated });
}

/** Seed Limits: a short URL is changeable once per month; the document counts 30 days. */
export const SHORT_URL_COOLDOWN = 30 * 86_400;
/**
 * Names a store cannot take (the seed's list is not shown): the site's own paths and roles, so a
 * store address never looks like the service speaking.
 */
export const RESERVED_SHORT_URLS = [
  'admin',
  'administrator',
  'api',
  'help',
  'login',
  'logout',
  'market',
  'marketplace',
  'moderator',
  'settings',
  'staff',
  'store',
  'support',
  'u',
  'user',
];

/** Sets the caller's store short URL; names compare without case (as GET /user/store does). */
export function updateShortUrl(tx: Tx, platformId: string, shortUrl: string, now: number) {
  if (shortUrl.length < 3 || shortUrl.length > 20) return fail(ACCOUNT.shortUrlLength);
  if (!/^[A-Za-z0-9-]+$/.test(shortUrl)) return fail(ACCOUNT.shortUrlInvalidCharacters);
  const wanted = shortUrl.toLowerCase();
  if (RESERVED_SHORT_URLS.includes(wanted)) return fail(ACCOUNT.shortUrlReserved);
  if (tx.find('usersByShortUrl', wanted).some((u) => u.platformId !== platformId)) return fail(ACCOUNT.shortUrlTaken);
  const user = tx.get('users', platformId)!;
  if (user.shorturlChangedAt !== null && now - user.shorturlChangedAt < SHORT_URL_COOLDOWN)
    return fail(ACCOUNT.shortUrlCooldown);
  tx.put('users', platformId, { ...user, shorturl: shortUrl, shorturlChangedAt: now });
  return ok({ shortUrl, message: ACCOUNT.shortUrlUpdated });
}
