import { describe, expect, it } from 'vitest';
import { addNotification, mailEvent, mailService } from './notify.ts';
import { testState } from './test-state.fixture.ts';

const mail = { subject: 'Your buy order was filled', body: 'b' };

describe('mailEvent', () => {
  it('sends a switchable e-mail to the account address when both switches are on', () => {
    const s = testState();
    const user = s.user({ email: 'alice@example.com' });
    expect(mailEvent(s.tx, user.platformId, 'buyOrderFilled', mail)).toBe(true);
    expect(s.tx.effects).toEqual([
      { kind: 'mail', mail: { ...mail, to: 'alice@example.com', kind: 'buyOrderFilled' } },
    ]);
  });

  it('honours the kind switch, the master switch and a missing address', () => {
    const s = testState();
    const kindOff = s.user({ email: 'a@example.com' });
    s.tx.put('users', kindOff.platformId, { ...kindOff, notifications: { ...kindOff.notifications, itemSold: false } });
    const allOff = s.user({ email: 'b@example.com' });
    s.tx.put('users', allOff.platformId, { ...allOff, emailNotifications: false });
    const noMail = s.user({ email: '' });
    expect(mailEvent(s.tx, kindOff.platformId, 'itemSold', mail)).toBe(false);
    expect(mailEvent(s.tx, allOff.platformId, 'itemSold', mail)).toBe(false);
    expect(mailEvent(s.tx, noMail.platformId, 'itemSold', mail)).toBe(false);
    // marketing is off by default: a user opts into it
    expect(mailEvent(s.tx, kindOff.platformId, 'marketing', mail)).toBe(false);
    expect(s.tx.effects).toEqual([]);
    expect(mailEvent(s.tx, kindOff.platformId, 'depositCompleted', mail)).toBe(true);
  });
});

describe('mailService', () => {
  it('ignores the switches and can write to another address', () => {
    const s = testState();
    const user = s.user({ email: 'a@example.com' });
    s.tx.put('users', user.platformId, { ...user, emailNotifications: false });
    expect(mailService(s.tx, user.platformId, 'cashoutPending', mail)).toBe(true);
    expect(mailService(s.tx, user.platformId, 'emailChange', { ...mail, to: 'new@example.com' })).toBe(true);
    expect(s.tx.effects.map((e) => (e.kind === 'mail' ? e.mail.to : ''))).toEqual(['a@example.com', 'new@example.com']);
  });
});

describe('addNotification', () => {
  it('stores an unread notification with the next ID', () => {
    const s = testState();
    const first = addNotification(s.tx, 'u1', 'trade', 'Trade completed', { trade: 4 }, 100);
    const second = addNotification(s.tx, 'u1', 'alert', 'x', {}, 101);
    expect(first).toMatchObject({ id: 1, user: 'u1', kind: 'trade', read: false, timestamp: 100 });
    expect(second.id).toBe(2);
    expect(s.tx.get('notifications', 2)?.text).toBe('x');
  });
});
