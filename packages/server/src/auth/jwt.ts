// The login JWT (seed: Authentication, "JWT claims"): HS256 only, claims exactly as the seed lists
// them, expiry about 31 days, verified against the injectable clock. Tampered tokens, other
// algorithms (including `none`) and expired tokens are refused; the caller never sees a throw.
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
    .sign(secret);
}

/** The claims of a valid token, or null for anything else (bad signature, alg, issuer, expiry). */
export async function verifyToken(secret: Uint8Array, token: string, now: number): Promise<Claims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: 'API',
      currentDate: new Date(now * 1000),
      requiredClaims: ['sub', 'jti', 'exp', 'iat', 'ip'],
    });
    if (payload.API !== true || typeof payload.ip !== 'string') return null;
    return payload as unknown as Claims;
  } catch {
    return null;
  }
}
