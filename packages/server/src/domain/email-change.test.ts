import { describe, expect, it } from 'vitest';
import { CODE_LIFETIME, hashCode, MAX_ATTEMPTS } from './codes.ts';
import { EMAIL_CHANGE_INTERVAL, requestEmailChange, validateEmailChange } from './email-change.ts';
import { CODES, EMAIL_CHANGE } from './messages.ts';
import { login } from './sessions.ts';
import { testState } from './test-state.fixture.ts';
import { Tx } from './tx.ts';

const CODE_KEY = 'k'.repeat(32);

function setUp() {
  const s = testState();
  const me = s.user({ email: 'me@example.com' }).platformId;
  const session = (jti: string) => {
    const r = login(s.tx, {
      apiKey: `key-${me}`,
      ip: '1.1.1.1',
      country: 'US',
      userAgent: 'test',
      blockedCountries: [],
      jti,
      now: s.now,
    });
    if (!r.ok) throw new Error('login failed');
    return r.value.session;
  };
  return { s, me, session };
}

describe('requestEmailChange', () => {
  it('stores only the hash of the code and mails the code to the new address', () => {
    const { s, me } = setUp();
    expect(
      requestEmailChange(s.tx, { user: me, email: 'new@example.com', code: '123456', codeKey: CODE_KEY, now: s.now }),
    ).toEqual({
      ok: true,
      value: EMAIL_CHANGE.requested,
    });
    const [request] = s.tx.all('codeRequests');
    expect(request).toMatchObject({
      purpose: 'emailChange',
      email: 'new@example.com',
      codeHash: hashCode(CODE_KEY, '123456'),
      expires: s.now + CODE_LIFETIME,
    });
    expect(JSON.stringify(request)).not.toContain('123456');
    expect(s.tx.effects).toEqual([
      expect.objectContaining({
        kind: 'mail',
        mail: expect.objectContaining({ to: 'new@example.com', data: { code: '123456' } }),
      }),
    ]);
  });

  it('refuses an address in use (any case, own included) and a second request within 5 minutes', () => {
    const { s, me } = setUp();
    s.user({ email: 'Other@Example.com' });
    const ask = (email: string, now = s.now) =>
      requestEmailChange(s.tx, { user: me, email, code: '1', codeKey: CODE_KEY, now });
    expect(ask('other@example.com')).toEqual({ ok: false, error: EMAIL_CHANGE.emailInUse });
    expect(ask('ME@example.com')).toEqual({ ok: false, error: EMAIL_CHANGE.emailInUse });
    expect(ask('a@example.com').ok).toBe(true);
    expect(ask('b@example.com', s.now + EMAIL_CHANGE_INTERVAL - 1)).toEqual({
      ok: false,
      error: EMAIL_CHANGE.tooManyRequests,
    });
    expect(ask('b@example.com', s.now + EMAIL_CHANGE_INTERVAL).ok).toBe(true);
    // the new request replaced the first
    expect(
      s.tx
        .all('codeRequests')
        .filter((r) => !r.used)
        .map((r) => r.email),
    ).toEqual(['b@example.com']);
  });
});

describe('the stored code', () => {
  it('is an HMAC under the server key, not a bare SHA-256 anyone can reverse in a million tries', async () => {
    const { createHash } = await import('node:crypto');
    expect(hashCode(CODE_KEY, '123456')).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(hashCode(CODE_KEY, '123456')).not.toBe(hashCode('j'.repeat(32), '123456'));
    expect(hashCode(CODE_KEY, '123456')).not.toContain(createHash('sha256').update('123456').digest('hex'));
    const { s, me, session } = setUp();
    requestEmailChange(s.tx, { user: me, email: 'new@example.com', code: '654321', codeKey: CODE_KEY, now: s.now });
    const withOtherKey = { user: me, session: session('a').id, code: '654321', now: s.now + 1 };
    expect(validateEmailChange(s.tx, { ...withOtherKey, codeKey: 'j'.repeat(32) })).toEqual({
      ok: false,
      error: CODES.invalidOrExpired,
    });
    expect(validateEmailChange(s.tx, { ...withOtherKey, codeKey: CODE_KEY }).ok).toBe(true);
  });

  it('of a request stored before the key (a bare SHA-256) still redeems', async () => {
    const { createHash } = await import('node:crypto');
    const { s, me, session } = setUp();
    requestEmailChange(s.tx, { user: me, email: 'new@example.com', code: '777777', codeKey: CODE_KEY, now: s.now });
    const [request] = s.tx.all('codeRequests');
    s.tx.put('codeRequests', request!.id, {
      ...request!,
      codeHash: createHash('sha256').update('777777').digest('hex'),
    });
    const input = { user: me, session: session('a').id, codeKey: CODE_KEY, now: s.now + 1 };
    expect(validateEmailChange(s.tx, { ...input, code: '777778' }).ok).toBe(false);
    expect(validateEmailChange(s.tx, { ...input, code: '777777' })).toEqual({
      ok: true,
      value: EMAIL_CHANGE.validated,
    });
  });
});

describe('validateEmailChange', () => {
  it('with the right code changes the address and revokes every other session', () => {
    const { s, me, session } = setUp();
    const current = session('a');
    const other = session('b');
    requestEmailChange(s.tx, { user: me, email: 'new@example.com', code: '654321', codeKey: CODE_KEY, now: s.now });
    const result = validateEmailChange(s.tx, {
      user: me,
      session: current.id,
      code: ['654', '321'],
      codeKey: CODE_KEY,
      now: s.now + 10,
    });
    expect(result).toEqual({ ok: true, value: EMAIL_CHANGE.validated });
    expect(s.tx.get('users', me)?.email).toBe('new@example.com');
    expect(s.tx.get('sessions', other.id)?.revoked).toBe(true);
    expect(s.tx.get('sessions', current.id)?.revoked).toBe(false);
    expect(
      validateEmailChange(s.tx, { user: me, session: current.id, code: '654321', codeKey: CODE_KEY, now: s.now }),
    ).toEqual({
      ok: false,
      error: CODES.requestNotFound,
    });
  });

  it('refuses a code after 24 hours', () => {
    const { s, me } = setUp();
    requestEmailChange(s.tx, { user: me, email: 'new@example.com', code: '111111', codeKey: CODE_KEY, now: s.now });
    const late = validateEmailChange(s.tx, {
      user: me,
      session: 0,
      code: '111111',
      codeKey: CODE_KEY,
      now: s.now + CODE_LIFETIME,
    });
    expect(late).toEqual({ ok: false, error: CODES.invalidOrExpired });
  });

  it('counts wrong codes even though each is refused, then answers Too many attempts', () => {
    const { s, me } = setUp();
    requestEmailChange(s.tx, { user: me, email: 'new@example.com', code: '222222', codeKey: CODE_KEY, now: s.now });
    s.tx.commit();
    for (let i = 0; i < MAX_ATTEMPTS; i += 1) {
      const tx = new Tx(s.tx.state);
      expect(validateEmailChange(tx, { user: me, session: 0, code: '999999', codeKey: CODE_KEY, now: s.now })).toEqual({
        ok: false,
        error: CODES.invalidOrExpired,
      });
      expect(tx.keepsWritesOnFailure).toBe(true);
      tx.commit(); // what http/execute.ts does for a failed command that keeps its writes
    }
    const tx = new Tx(s.tx.state);
    expect(validateEmailChange(tx, { user: me, session: 0, code: '222222', codeKey: CODE_KEY, now: s.now })).toEqual({
      ok: false,
      error: CODES.tooManyAttempts,
    });
    expect(tx.get('users', me)?.email).toBe('me@example.com');
  });
});
