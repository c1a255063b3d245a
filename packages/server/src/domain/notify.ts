// The seed's events (Events): e-mails of six switchable kinds, cashout e-mails at each stage, and
// the unread notifications that GET /user/notifications reads. Which operation sends which kind
// is not shown in the seed; the document's `x-email-events` (where present) and the operations'
// descriptions say what the reference server does. Every sender goes through here so the user's
// switches are honoured in one place.
import type { Mail } from '../adapters/mail.ts';
import type { Notification } from './records.ts';
import type { Tx } from './tx.ts';
import type { NotificationKind } from './users.ts';

/**
 * Sends an e-mail of a switchable kind, unless the user turned all e-mail off
 * (`emailNotifications`) or this kind off (`notifications[kind]`), or has no address.
 * Returns whether it was sent.
 */
export function mailEvent(
  tx: Tx,
  platformId: string,
  kind: NotificationKind,
  mail: Omit<Mail, 'to' | 'kind'>,
): boolean {
  const user = tx.get('users', platformId);
  if (!user?.email || !user.emailNotifications || !user.notifications[kind]) return false;
  tx.emit({ kind: 'mail', mail: { ...mail, to: user.email, kind } });
  return true;
}

/**
 * Sends a service e-mail that no switch turns off: verification codes, cashout stages (the seed:
 * "Cashout requests also produce e-mails at each stage"), 2FA resets. `to` defaults to the
 * account's address.
 */
export function mailService(
  tx: Tx,
  platformId: string,
  kind: string,
  mail: Omit<Mail, 'kind' | 'to'> & { to?: string },
): boolean {
  const to = mail.to ?? tx.get('users', platformId)?.email;
  if (!to) return false;
  tx.emit({ kind: 'mail', mail: { ...mail, to, kind } });
  return true;
}

/** Records an unread notification for GET /user/notifications. */
export function addNotification(
  tx: Tx,
  platformId: string,
  kind: Notification['kind'],
  text: string,
  data: Record<string, unknown>,
  now: number,
): Notification {
  const id = tx.nextId('notifications');
  return tx.put('notifications', id, { id, user: platformId, kind, text, data, read: false, timestamp: now });
}
