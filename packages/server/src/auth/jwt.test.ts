import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rolesHash, signToken, TOKEN_LIFETIME_SECONDS, verifyToken } from './jwt.ts';

const secret = new TextEncoder().encode('s'.repeat(32));
const now = 1_763_800_000;
const input = {
  sub: '76561198000000001',
  jti: 'abc',
  ip: '10.0.0.1',
  proxy: false,
  country: 'US',
  roles: ['user'],
  now,
};

describe('login JWT', () => {
  it('carries the seed claims', async () => {
    const claims = await verifyToken(secret, await signToken(secret, input), now);
    expect(claims).toMatchObject({
      iss: 'API',
      sub: input.sub,
      jti: 'abc',
      ip: '10.0.0.1',
      proxy: false,
      API: true,
      country: 'US',
      steamid: input.sub,
      roles: ['user'],
      rolesHash: rolesHash(['user']),
      iat: now,
      exp: now + TOKEN_LIFETIME_SECONDS,
    });
  });

  it('carries the admin role and a hash that follows the roles', async () => {
    const claims = await verifyToken(secret, await signToken(secret, { ...input, roles: ['user', 'admin'] }), now);
    expect(claims?.roles).toEqual(['user', 'admin']);
    expect(claims?.rolesHash).toBe(rolesHash(['user', 'admin']));
    expect(rolesHash(['user', 'admin'])).toMatch(/^[0-9a-f]{64}$/);
    expect(rolesHash(['user', 'admin'])).not.toBe(rolesHash(['user']));
  });

  it('expires after about 31 days', async () => {
    const token = await signToken(secret, input);
    expect(await verifyToken(secret, token, now + TOKEN_LIFETIME_SECONDS - 1)).not.toBeNull();
    expect(await verifyToken(secret, token, now + TOKEN_LIFETIME_SECONDS + 1)).toBeNull();
  });

  it.each([
    [
      'a tampered payload',
      (t: string) => {
        const [h, p, s] = t.split('.');
        return `${h}.${p!.slice(0, -2)}AA.${s}`;
      },
    ],
    ['a tampered signature', (t: string) => `${t.slice(0, -3)}${t.endsWith('A') ? 'B' : 'A'}xx`],
    [
      'alg none',
      (t: string) => {
        const [, p] = t.split('.');
        return `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
      },
    ],
    ['garbage', () => 'not.a.token'],
  ])('refuses %s', async (_, mangle) => {
    expect(await verifyToken(secret, mangle(await signToken(secret, input)), now)).toBeNull();
  });

  it.each([
    ['nothing missing (the control)', { iss: 'API', API: true, ip: '10.0.0.1' }, true],
    ['another issuer', { iss: 'WEB', API: true, ip: '10.0.0.1' }, false],
    ['no API claim', { iss: 'API', ip: '10.0.0.1' }, false],
    ['no IP claim', { iss: 'API', API: true }, false],
  ])('a correctly signed token with %s is accepted: %s', async (_name, claims, accepted) => {
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setJti('j')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(secret);
    expect((await verifyToken(secret, token, now)) !== null).toBe(accepted);
  });

  it('refuses another key and another algorithm', async () => {
    expect(await verifyToken(new TextEncoder().encode('x'.repeat(32)), await signToken(secret, input), now)).toBeNull();
    const hs512 = await new SignJWT({ API: true, ip: '1' })
      .setProtectedHeader({ alg: 'HS512' })
      .setIssuer('API')
      .setSubject('x')
      .setJti('j')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(secret);
    expect(await verifyToken(secret, hs512, now)).toBeNull();
  });
});

describe('login JWT: a token verified before', () => {
  afterEach(() => vi.restoreAllMocks());

  /** A token of this session, verified once (so kept). */
  const keptToken = async (extra: Partial<typeof input> = {}) => {
    const token = await signToken(secret, { ...input, ...extra, jti: crypto.randomUUID() });
    expect(await verifyToken(secret, token, now)).not.toBeNull();
    return token;
  };

  it('is not verified by WebCrypto again, and gives the same claims', async () => {
    const token = await keptToken();
    const first = await verifyToken(secret, token, now + 1);
    const verify = vi.spyOn(crypto.subtle, 'verify');
    const again = await verifyToken(secret, token, now + 2);
    expect(verify).not.toHaveBeenCalled();
    expect(again).toEqual(first);
  });

  it('still expires: refused at its exp, as jose refuses it', async () => {
    const token = await keptToken();
    expect(await verifyToken(secret, token, now + TOKEN_LIFETIME_SECONDS - 1)).not.toBeNull();
    expect(await verifyToken(secret, token, now + TOKEN_LIFETIME_SECONDS)).toBeNull();
    expect(await verifyToken(secret, token, Number.NaN)).toBeNull();
  });

  it('is refused before its nbf, accepted from it', async () => {
    const token = await new SignJWT({ API: true, ip: '1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('API')
      .setSubject('x')
      .setJti(crypto.randomUUID())
      .setIssuedAt(now)
      .setNotBefore(now + 10)
      .setExpirationTime(now + 60)
      .sign(secret);
    expect(await verifyToken(secret, token, now + 10)).not.toBeNull();
    expect(await verifyToken(secret, token, now + 9)).toBeNull();
    expect(await verifyToken(secret, token, now + 10)).not.toBeNull();
  });

  it('is refused under another secret, and tampered it is refused', async () => {
    const token = await keptToken();
    expect(await verifyToken(new TextEncoder().encode('x'.repeat(32)), token, now)).toBeNull();
    expect(await verifyToken(secret, `${token.slice(0, -3)}${token.endsWith('A') ? 'B' : 'A'}xx`, now)).toBeNull();
  });

  it('gives a copy: changing the claims one request got changes nothing for the next', async () => {
    const token = await keptToken();
    const claims = await verifyToken(secret, token, now);
    claims!.ip = '10.9.9.9';
    expect((await verifyToken(secret, token, now))?.ip).toBe(input.ip);
  });
});
