import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { EXPIRY_MARGIN, Session } from './session.ts';

const jwt = (exp?: number) => {
  const token = new SignJWT({ iss: 'API' }).setProtectedHeader({ alg: 'HS256' });
  if (exp !== undefined) token.setExpirationTime(exp);
  return token.sign(new TextEncoder().encode('a test secret of enough length'));
};

describe('Session', () => {
  it('logs in once for concurrent callers and reuses the token until the margin before exp', async () => {
    let clock = 1000;
    let calls = 0;
    const session = new Session(
      async () => {
        calls += 1;
        return jwt(2000);
      },
      () => clock,
    );
    const [a, b] = await Promise.all([session.token(), session.token()]);
    expect(a).toBe(b);
    expect(calls).toBe(1);
    clock = 2000 - EXPIRY_MARGIN - 1;
    expect(await session.token()).toBe(a);
    clock = 2000 - EXPIRY_MARGIN;
    await session.token();
    expect(calls).toBe(2);
    expect(session.logins).toBe(2);
  });

  it('logs in again after invalidate, but keeps a newer token than the one refused', async () => {
    let n = 0;
    const session = new Session(
      async () => jwt(10_000 + ++n),
      () => 0,
    );
    const first = await session.token();
    session.invalidate('some older token');
    expect(await session.token()).toBe(first);
    session.invalidate(first);
    const second = await session.token();
    expect(second).not.toBe(first);
    expect(session.current).toBe(second);
  });

  it('uses a token without exp until it is refused, and lets a failed login be retried', async () => {
    let fail = true;
    const session = new Session(
      async () => {
        if (fail) throw new Error('Invalid API key');
        return jwt();
      },
      () => 1e12,
    );
    await expect(session.token()).rejects.toThrow('Invalid API key');
    fail = false;
    const token = await session.token();
    expect(await session.token()).toBe(token);
    expect(session.logins).toBe(1);
  });
});
