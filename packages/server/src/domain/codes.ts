// Codes sent by e-mail (seed: "E-mail change"; "Two-factor authentication", second reset variant):
// a code valid 24 hours, kept only as its HMAC under the server's code key (a bare hash of a
// 6-digit code is reversed in a million tries by whoever reads the store), that refuses further tries after 5 wrong ones
// (the document's number). A wrong code counts although the request is refused, so the attempt
// is written even when the command fails (`keepWritesOnFailure`). A new request of the same
// purpose replaces the pending one.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { CODES } from './messages.ts';
import type { CodeRequest } from './records.ts';
import { fail, ok, type Tx } from './tx.ts';

/** Seed Limits: the e-mail change code and the 2FA reset are valid 24 hours. */
export const CODE_LIFETIME = 24 * 3600;
/** The document's design: wrong codes allowed before `Too many attempts`. */
export const MAX_ATTEMPTS = 5;

const HMAC_PREFIX = 'hmac-sha256:';

/** What a request keeps of its code: the HMAC-SHA256 of the code under `key`, marked as such. */
export const hashCode = (key: string, code: string): string =>
  `${HMAC_PREFIX}${createHmac('sha256', key).update(code).digest('hex')}`;

/**
 * Whether `code` is the request's code. Requests stored before the key (a bare SHA-256, valid 24
 * hours at most) are still checked the old way.
 */
export function codeMatches(key: string, stored: string, code: string): boolean {
  const expected = stored.startsWith(HMAC_PREFIX)
    ? hashCode(key, code)
    : createHash('sha256').update(code).digest('hex');
  return expected.length === stored.length && timingSafeEqual(Buffer.from(expected), Buffer.from(stored));
}

/** The caller's pending (unused) requests of a purpose, newest first. */
export function pendingRequests(tx: Tx, user: string, purpose: CodeRequest['purpose']): CodeRequest[] {
  return tx
    .find('codesByUser', user)
    .filter((r) => r.purpose === purpose && !r.used)
    .sort((a, b) => b.created - a.created || b.id - a.id);
}

/** Stores a new request for `code`, retiring the pending ones of the same purpose. */
export function openCodeRequest(
  tx: Tx,
  input: { user: string; purpose: CodeRequest['purpose']; email: string; code: string; codeKey: string; now: number },
): CodeRequest {
  for (const old of pendingRequests(tx, input.user, input.purpose))
    tx.put('codeRequests', old.id, { ...old, used: true });
  const id = tx.nextId('codeRequests');
  return tx.put('codeRequests', id, {
    id,
    user: input.user,
    purpose: input.purpose,
    email: input.email,
    codeHash: hashCode(input.codeKey, input.code),
    attempts: 0,
    created: input.now,
    expires: input.now + CODE_LIFETIME,
    used: false,
  });
}

/**
 * Checks a code against a pending request: `Too many attempts` once 5 wrong codes were sent,
 * `Invalid or expired code` after 24 hours or for a wrong code (which is counted and kept).
 * A right code uses the request up.
 */
export function redeemCode(
  tx: Tx,
  request: CodeRequest,
  { code, codeKey, now }: { code: string; codeKey: string; now: number },
) {
  if (request.attempts >= MAX_ATTEMPTS) return fail(CODES.tooManyAttempts);
  if (now >= request.expires) return fail(CODES.invalidOrExpired);
  if (!codeMatches(codeKey, request.codeHash, code)) {
    tx.put('codeRequests', request.id, { ...request, attempts: request.attempts + 1 });
    tx.keepWritesOnFailure();
    return fail(CODES.invalidOrExpired);
  }
  return ok(tx.put('codeRequests', request.id, { ...request, used: true }));
}

/** A code sent as a string or as an array of pieces (one per box typed), joined in order. */
export const joinCode = (code: string | string[]): string => (Array.isArray(code) ? code.join('') : code).trim();
