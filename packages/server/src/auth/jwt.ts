// The login JWT (seed: Authentication, "JWT claims"): HS256 only, claims exactly as the seed lists
// them, expiry about 31 days, verified against the injectable clock. Tampered tokens, other
// algorithms (including `none`) and expired tokens are refused; the caller never sees a throw.
//
// jose checks the signature with WebCrypto, an asynchronous job per call after importing the raw
// secret again each time: over a conformance run (7,000 requests, most of them with the token of a
// session opened a few requests before) that was about 1.3 s of the server's CPU, the largest item
// after Ajv. So the key is imported once per secret, and a token jose verified is kept (by secret,
// bounded): sent again, only what depends on the time is checked again, as jose checks it.
import { createHash } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

export const TOKEN_LIFETIME_SECONDS = 31 * 24 * 3600;

export interface Claims {
  iss: 'API';
  sub: string;
  exp: number;
  iat: number;
  jti: string;
  ip: string;
  proxy: boolean;
  API: true;
  country: string;
  steamid: string;
  roles: string[];
  rolesHash: string;
}

/** SHA-256 hex of the roles joined by commas (the contents of `rolesHash` are not shown by the seed). */
export const rolesHash = (roles: string[]): string => createHash('sha256').update(roles.join(',')).digest('hex');

export interface TokenInput {
  sub: string;
  jti: string;
  ip: string;
  proxy: boolean;
  country: string;
  roles: string[];
  now: number;
}

/** The HS256 key of a secret, imported once (a rejected import stays rejected: jose would fail alike). */
const keys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function hmacKey(secret: Uint8Array): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    // What jose imports a raw secret as for HS256 (lib/get_sign_verify_key.js), for both uses.
    const raw = secret as Uint8Array<ArrayBuffer>; // never shared memory: the server's secret, a TextEncoder's output
    key = crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, key);
  }
  return key;
}

/** How many verified tokens are kept per secret: the sessions in use at once, with room to spare. */
export const VERIFIED_KEPT = 1024;

/**
 * Claims of the tokens jose verified, by secret and then token (the whole string, signature
 * included: another string is verified in full), oldest first. Everything jose and verifyToken
 * check of a token but `exp` and `nbf` depends only on the token and the secret.
 */
const verified = new WeakMap<Uint8Array, Map<string, Readonly<Claims>>>();

/** jose's checks of the time claims against `now` (validateClaimsSet, no clock tolerance). */
function inTime(claims: Readonly<Claims & { nbf?: number }>, now: number): boolean {
  const at = Math.floor(new Date(now * 1000).getTime() / 1000); // jose's epoch(currentDate)
  if (!Number.isFinite(at)) return false; // jose throws on an invalid currentDate
  return !(claims.nbf !== undefined && claims.nbf > at) && claims.exp > at;
}

function keep(secret: Uint8Array, token: string, claims: Claims): void {
  const kept = verified.get(secret) ?? new Map<string, Readonly<Claims>>();
  verified.set(secret, kept);
  if (kept.size >= VERIFIED_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(token, Object.freeze({ ...claims }));
}

/** Signs the JWT of one login session. */
export async function signToken(secret: Uint8Array, input: TokenInput): Promise<string> {
  return new SignJWT({
    ip: input.ip,
    proxy: input.proxy,
    API: true,
    country: input.country,
    steamid: input.sub,
    roles: input.roles,
    rolesHash: rolesHash(input.roles),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('API')
    .setSubject(input.sub)
    .setJti(input.jti)
    .setIssuedAt(input.now)
    .setExpirationTime(input.now + TOKEN_LIFETIME_SECONDS)
    .sign(await hmacKey(secret));
}

/** The claims of a valid token, or null for anything else (bad signature, alg, issuer, expiry). */
export async function verifyToken(secret: Uint8Array, token: string, now: number): Promise<Claims | null> {
  const kept = verified.get(secret)?.get(token);
  if (kept) return inTime(kept, now) ? { ...kept } : null; // a copy, as jose gives a new object per call
  try {
    const { payload } = await jwtVerify(token, await hmacKey(secret), {
      algorithms: ['HS256'],
      issuer: 'API',
      currentDate: new Date(now * 1000),
      requiredClaims: ['sub', 'jti', 'exp', 'iat', 'ip'],
    });
    if (payload.API !== true || typeof payload.ip !== 'string') return null;
    keep(secret, token, payload as unknown as Claims);
    return payload as unknown as Claims;
  } catch {
    return null;
  }
}
