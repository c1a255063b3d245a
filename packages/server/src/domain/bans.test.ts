import { describe, expect, it } from 'vitest';
import { banHistory, banUser, platformInventoryView } from './bans.ts';
import { ADMIN } from './messages.ts';
import { login } from './sessions.ts';
import { testState } from './test-state.fixture.ts';
import { isBanned } from './users.ts';

const NOW = 1_700_000_000;

describe('banUser', () => {
  it('bans until now + time, records the entry and sends a moderation notice; time 0 unbans', () => {
    const s = testState(NOW);
    const admin = s.user({ admin: true });
    const u = s.user({ name: 'Target' });
    const ban = banUser(s.tx, {
      admin: admin.platformId,
      platformId: u.platformId,
      time: 600,
      reason: 'Spam',
      now: NOW,
    });
    expect(ban).toEqual({
      ok: true,
      value: { message: 'User banned', platformId: u.platformId, bannedUntil: NOW + 600 },
    });
    expect(isBanned(s.tx.get('users', u.platformId)!, NOW + 599)).toBe(true);
    expect(isBanned(s.tx.get('users', u.platformId)!, NOW + 600)).toBe(false);
    expect(s.tx.effects).toEqual([
      {
        kind: 'moderation',
        notice: 'ban',
        text: `Target (${u.platformId}) banned for 600 seconds by ${admin.platformId}: Spam`,
        data: { platformId: u.platformId, admin: admin.platformId, time: 600, reason: 'Spam', bannedUntil: NOW + 600 },
      },
    ]);
    const unban = banUser(s.tx, {
      admin: admin.platformId,
      platformId: u.platformId,
      time: 0,
      reason: 'Ok',
      now: NOW + 1,
    });
    expect(unban.ok && unban.value).toEqual({ message: 'User unbanned', platformId: u.platformId, bannedUntil: null });
    expect(s.tx.get('users', u.platformId)!.banUntil).toBeNull();
  });

  it('answers the seed messages for an unknown user and missing inputs', () => {
    const s = testState(NOW);
    const admin = s.user({ admin: true });
    const input = { admin: admin.platformId, platformId: '76561190000000000', time: 60, reason: 'x', now: NOW };
    expect(banUser(s.tx, input)).toEqual({ ok: false, error: ADMIN.adminUserNotFound });
    expect(banUser(s.tx, { ...input, platformId: admin.platformId, reason: '' })).toEqual({
      ok: false,
      error: ADMIN.missingBanParameters,
    });
    expect(s.tx.effects).toEqual([]);
  });

  it('refuses the login of a banned user until the ban ends', () => {
    const s = testState(NOW);
    const admin = s.user({ admin: true });
    const u = s.user({ platformId: '76561198000009999' });
    banUser(s.tx, { admin: admin.platformId, platformId: u.platformId, time: 60, reason: 'x', now: NOW });
    const attempt = (now: number) =>
      login(s.tx, {
        apiKey: `key-${u.platformId}`,
        ip: '1.2.3.4',
        country: 'US',
        userAgent: 't',
        blockedCountries: [],
        jti: `j${now}`,
        now,
      });
    expect(attempt(NOW + 59)).toEqual({ ok: false, error: 'forbidden', status: 403 });
    expect(attempt(NOW + 60).ok).toBe(true);
  });
});

describe('banHistory', () => {
  it('lists newest first; only the newest entry, while it runs, is active', () => {
    const s = testState(NOW);
    const admin = s.user({ admin: true });
    const u = s.user();
    const ban = (time: number, now: number) =>
      banUser(s.tx, { admin: admin.platformId, platformId: u.platformId, time, reason: `r${now}`, now });
    ban(100, NOW);
    ban(1000, NOW + 50);
    expect(banHistory(s.tx, u.platformId, NOW + 60).map((b) => [b.reason, b.until, b.active])).toEqual([
      [`r${NOW + 50}`, NOW + 1050, true],
      [`r${NOW}`, NOW + 100, false],
    ]);
    ban(0, NOW + 70);
    expect(banHistory(s.tx, u.platformId, NOW + 80).map((b) => [b.time, b.until, b.active])).toEqual([
      [0, null, false],
      [1000, NOW + 1050, false],
      [100, NOW + 100, false],
    ]);
    expect(banHistory(s.tx, admin.platformId, NOW)).toEqual([]);
  });
});

describe('platformInventoryView', () => {
  it('names catalogue items and keeps the platform attributes, null when absent', () => {
    const s = testState(NOW);
    const item = s.item({ name: 'Hat', image: '/hat.png' });
    const rows = platformInventoryView(s.tx, [
      { assetId: '1', itemId: item.id, sheen: 'Team Shine', tradable: false },
      { assetId: '2', itemId: 999, name: 'Unknown thing' },
    ]);
    expect(rows).toEqual([
      {
        assetId: '1',
        itemId: item.id,
        name: 'Hat',
        image: '/hat.png',
        tradable: false,
        wear: null,
        sheen: 'Team Shine',
        killstreaker: null,
        spell: null,
        parts: null,
        paint: null,
      },
      {
        assetId: '2',
        itemId: null,
        name: 'Unknown thing',
        image: '',
        tradable: true,
        wear: null,
        sheen: null,
        killstreaker: null,
        spell: null,
        parts: null,
        paint: null,
      },
    ]);
  });
});
