// Two-factor authentication (seed: "Two-factor authentication"; the reference implements the
// second variant, envelope A). Create makes a TOTP secret (RFC 6238 through otplib: SHA-1,
// 30-second steps, 6 digits, one step of drift either way) that becomes active only when validate
// gets its current code; the backup address given then receives reset codes. The randomness of
// secrets, keys and codes comes from the caller (the engine stays pure).
import { authenticator } from 'otplib';
import { joinCode, openCodeRequest, redeemCode } from './codes.ts';
import { CODES, TWO_FACTOR } from './messages.ts';
import { mailService } from './notify.ts';
import type { TwoFactor } from './records.ts';
import { fail, ok, type Tx } from './tx.ts';

/** The issuer shown by authenticator apps. */
export const TOTP_ISSUER = 'Marketplace';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (how authenticator apps take a secret). */
export function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** The TOTP code of a base32 secret at Unix time `now`. */
export const totpAt = (secret: string, now: number): string =>
  authenticator.clone({ epoch: now * 1000 }).generate(secret);

/** Whether `code` is the secret's code at `now`, or of the step before or after. */
export const totpValid = (secret: string, code: string, now: number): boolean =>
  authenticator.clone({ epoch: now * 1000, window: 1 }).check(code, secret);

/**
 * Seals a secret for the store and opens it again (auth/sealed-secrets.ts: AES-GCM under a key
 * kept apart from the store). Records hold TOTP secrets and their keys sealed only.
 */
export interface Sealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** A secret made by create and not validated yet, kept until validate (one per user). */
export type PendingSecret = {
  id: string;
  kind: 'twoFactorPending';
  secret: string;
  key: string;
  created: number;
};
export const pendingId = (user: string) => `twoFactorPending:${user}`;

/**
 * Creates a secret for the caller (`secretBytes`, 20 random bytes; `key`, the random key component
 * validate takes back). It replaces an earlier unvalidated one; active 2FA stays as it is until a
 * new secret is validated.
 */
export function createSecret(
  tx: Tx,
  input: { user: string; secretBytes: Uint8Array; key: string; now: number; sealer: Sealer },
) {
  const secret = base32(input.secretBytes);
  const pending: PendingSecret = {
    id: pendingId(input.user),
    kind: 'twoFactorPending',
    secret: input.sealer.seal(secret),
    key: input.sealer.seal(input.key),
    created: input.now,
  };
  tx.put('records', pending.id, pending);
  const uri = authenticator.keyuri(input.user, TOTP_ISSUER, secret);
  const qrCode = `https://qr.example.com/chart?cht=qr&chs=200x200&chl=${encodeURIComponent(uri)}`;
  return ok({ qrCode, base32: secret, key: input.key });
}

/** Activates 2FA with the created secret's key, its current code and a backup address. */
export function activate(
  tx: Tx,
  input: { user: string; key: string; code: string; email: string; now: number; sealer: Sealer },
) {
  const pending = tx.get('records', pendingId(input.user)) as PendingSecret | undefined;
  if (!pending || input.sealer.open(pending.key) !== input.key) return fail(TWO_FACTOR.notSetUp);
  if (!totpValid(input.sealer.open(pending.secret), input.code, input.now)) return fail(TWO_FACTOR.invalidCode);
  const record: TwoFactor = {
    user: input.user,
    secret: pending.secret,
    key: pending.key,
    backupEmail: input.email.trim(),
    activatedAt: input.now,
  };
  tx.put('twoFactor', input.user, record);
  tx.delete('records', pending.id);
  const user = tx.get('users', input.user)!;
  tx.put('users', input.user, { ...user, twoFactorEnabled: true });
  return ok(TWO_FACTOR.activated);
}

/** Asks to remove 2FA: a reset code, valid 24 hours, goes to the backup address. */
export function askReset(tx: Tx, input: { user: string; code: string; codeKey: string; now: number }) {
  if (!tx.get('users', input.user)?.twoFactorEnabled) return fail(TWO_FACTOR.notActivated);
  const backup = tx.get('twoFactor', input.user)?.backupEmail;
  if (!backup) return fail(TWO_FACTOR.noResetEmail);
  const request = openCodeRequest(tx, {
    user: input.user,
    purpose: 'twoFactorReset',
    email: backup,
    code: input.code,
    codeKey: input.codeKey,
    now: input.now,
  });
  const sent = mailService(tx, input.user, 'twoFactorReset', {
    to: backup,
    subject: 'Your 2FA reset code',
    body: `Your 2FA reset code is ${input.code}. It is valid for 24 hours.`,
    data: { code: input.code },
  });
  if (!sent) return fail(TWO_FACTOR.sendFailed);
  return ok({
    requestId: request.id,
    emailSent: true,
    expiresAt: String(request.expires),
    message: TWO_FACTOR.resetSent,
  });
}

/** Removes 2FA with the reset code of the request `requestId`. */
export function validateReset(
  tx: Tx,
  input: { user: string; requestId: number | undefined; code: string | string[]; codeKey: string; now: number },
) {
  const user = tx.get('users', input.user)!;
  if (!user.twoFactorEnabled) return fail(TWO_FACTOR.notActivated);
  const request = input.requestId === undefined ? undefined : tx.get('codeRequests', input.requestId);
  if (!request || request.user !== input.user || request.purpose !== 'twoFactorReset' || request.used)
    return fail(CODES.requestNotFound);
  const redeemed = redeemCode(tx, request, { ...input, code: joinCode(input.code) });
  if (!redeemed.ok) return redeemed;
  tx.delete('twoFactor', input.user);
  tx.put('users', input.user, { ...user, twoFactorEnabled: false });
  return ok({ twoFactorEnabled: false as const, message: TWO_FACTOR.removed });
}
