import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aesSealer } from '../auth/sealed-secrets.ts';
import { MAX_ATTEMPTS } from './codes.ts';
import { CODES, TWO_FACTOR } from './messages.ts';
import { testState } from './test-state.ts';
import { activate, askReset, base32, createSecret, totpAt, totpValid, validateReset } from './two-factor.ts';

const CODE_KEY = 'k'.repeat(32);
const SEALER = aesSealer('s'.repeat(32));

const bytes = Buffer.from('12345678901234567890'); // the RFC 6238 SHA-1 test key

describe('base32 and TOTP', () => {
  it('encodes as RFC 4648 does', () => {
    expect(base32(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32(bytes)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  });

  it('gives the RFC 6238 test vectors (last 6 digits) and accepts one step of drift only', () => {
    const secret = base32(bytes);
    expect(totpAt(secret, 59)).toBe('287082');
    expect(totpAt(secret, 1111111109)).toBe('081804');
    expect(totpAt(secret, 2000000000)).toBe('279037');
    const now = 1_800_000_000;
    expect(totpValid(secret, totpAt(secret, now - 30), now)).toBe(true);
    expect(totpValid(secret, totpAt(secret, now + 30), now)).toBe(true);
    expect(totpValid(secret, totpAt(secret, now + 90), now)).toBe(false);
  });

  it('matches an HMAC-SHA1 computed here', () => {
    const now = 1_750_000_015;
    const counter = Buffer.alloc(8);
    counter.writeBigUInt64BE(BigInt(Math.floor(now / 30)));
    const mac = createHmac('sha1', bytes).update(counter).digest();
    const offset = mac[19]! & 15;
    const expected = String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
    expect(totpAt(base32(bytes), now)).toBe(expected);
  });
});

function activated() {
  const s = testState();
  const me = s.user().platformId;
  const created = createSecret(s.tx, { user: me, secretBytes: bytes, key: 'k1', now: s.now, sealer: SEALER });
  if (!created.ok) throw new Error('create failed');
  return { s, me, secret: created.value.base32 };
}

describe('createSecret and activate', () => {
  it('activates only with the last key and the current code, and stores the backup address', () => {
    const { s, me, secret } = activated();
    expect(s.tx.get('users', me)?.twoFactorEnabled).toBe(false);
    const code = totpAt(secret, s.now);
    const act = (key: string, c: string) =>
      activate(s.tx, { user: me, key, code: c, email: 'b@example.com', now: s.now, sealer: SEALER });
    expect(act('other', code)).toEqual({ ok: false, error: TWO_FACTOR.notSetUp });
    expect(act('k1', totpAt(secret, s.now + 120))).toEqual({ ok: false, error: TWO_FACTOR.invalidCode });
    expect(act('k1', code)).toEqual({ ok: true, value: TWO_FACTOR.activated });
    expect(s.tx.get('users', me)?.twoFactorEnabled).toBe(true);
    const stored = s.tx.get('twoFactor', me)!;
    expect(stored).toMatchObject({ backupEmail: 'b@example.com', activatedAt: s.now });
    // Kept sealed: the record holds neither the secret nor the key in clear.
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect([SEALER.open(stored.secret), SEALER.open(stored.key)]).toEqual([secret, 'k1']);
    // the pending secret is used up
    expect(act('k1', code)).toEqual({ ok: false, error: TWO_FACTOR.notSetUp });
  });

  it('gives a QR code URL carrying the otpauth URI of the secret', () => {
    const s = testState();
    const me = s.user().platformId;
    const r = createSecret(s.tx, { user: me, secretBytes: bytes, key: 'k', now: s.now, sealer: SEALER });
    expect(r.ok && decodeURIComponent(r.value.qrCode)).toContain(
      `otpauth://totp/Marketplace:${me}?secret=${base32(bytes)}`,
    );
  });
});

/** A user with 2FA active (backup address b@example.com). */
function enabled() {
  const { s, me, secret } = activated();
  activate(s.tx, {
    user: me,
    key: 'k1',
    code: totpAt(secret, s.now),
    email: 'b@example.com',
    now: s.now,
    sealer: SEALER,
  });
  return { s, me };
}

describe('askReset and validateReset', () => {
  it('mails a reset code to the backup address; the code with its request removes 2FA', () => {
    const { s, me } = enabled();
    const asked = askReset(s.tx, { user: me, code: '424242', codeKey: CODE_KEY, now: s.now });
    expect(asked).toEqual({
      ok: true,
      value: { requestId: 1, emailSent: true, expiresAt: String(s.now + 86_400), message: TWO_FACTOR.resetSent },
    });
    expect(s.tx.effects.at(-1)).toMatchObject({
      kind: 'mail',
      mail: { to: 'b@example.com', data: { code: '424242' } },
    });
    const reset = (requestId: number | undefined, code: string | string[]) =>
      validateReset(s.tx, { user: me, requestId, code, codeKey: CODE_KEY, now: s.now + 60 });
    expect(reset(undefined, '424242')).toEqual({ ok: false, error: CODES.requestNotFound });
    expect(reset(99, '424242')).toEqual({ ok: false, error: CODES.requestNotFound });
    expect(reset(1, '000000')).toEqual({ ok: false, error: CODES.invalidOrExpired });
    expect(reset(1, ['4', '2', '4', '2', '4', '2'])).toEqual({
      ok: true,
      value: { twoFactorEnabled: false, message: TWO_FACTOR.removed },
    });
    expect(s.tx.get('users', me)?.twoFactorEnabled).toBe(false);
    expect(s.tx.get('twoFactor', me)).toBeUndefined();
    expect(askReset(s.tx, { user: me, code: '1', codeKey: CODE_KEY, now: s.now })).toEqual({
      ok: false,
      error: TWO_FACTOR.notActivated,
    });
  });

  it('answers No 2FA email found when 2FA is on without a backup address', () => {
    const s = testState();
    const me = s.user({ twoFactor: true }).platformId;
    expect(askReset(s.tx, { user: me, code: '1', codeKey: CODE_KEY, now: s.now })).toEqual({
      ok: false,
      error: TWO_FACTOR.noResetEmail,
    });
  });

  it('answers Too many attempts after 5 wrong codes, and keeps 2FA', () => {
    const { s, me } = enabled();
    askReset(s.tx, { user: me, code: '424242', codeKey: CODE_KEY, now: s.now });
    for (let i = 0; i < MAX_ATTEMPTS; i += 1)
      validateReset(s.tx, { user: me, requestId: 1, code: '1', codeKey: CODE_KEY, now: s.now });
    expect(validateReset(s.tx, { user: me, requestId: 1, code: '424242', codeKey: CODE_KEY, now: s.now })).toEqual({
      ok: false,
      error: CODES.tooManyAttempts,
    });
    expect(s.tx.get('users', me)?.twoFactorEnabled).toBe(true);
  });
});
