import { describe, expect, it } from 'vitest';
import { mockCaller } from './bearer.ts';

const NOW = 1_800_000_000;
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: unknown, header: unknown = { alg: 'HS256' }) => `${part(header)}.${part(claims)}.c2ln`;

describe('mockCaller', () => {
  it.each([
    ['no header', undefined],
    ['another scheme', `Basic ${jwt({})}`],
    ['two segments', `Bearer ${part({ alg: 'HS256' })}.${part({})}`],
    ['four segments', `Bearer ${jwt({})}.x`],
    ['a payload that is not JSON', `Bearer ${part({ alg: 'HS256' })}.bm9wZQ.c2ln`],
    ['a payload that is an array', `Bearer ${jwt([1])}`],
    ['a header without alg', `Bearer ${jwt({}, { typ: 'JWT' })}`],
    ['an expired token', `Bearer ${jwt({ exp: NOW })}`],
    ['an exp that is not a number', `Bearer ${jwt({ exp: 'later' })}`],
  ])('refuses %s', (_name, header) => {
    expect(mockCaller(header, NOW)).toBeUndefined();
  });

  it('accepts a readable JWT that has not expired, or has no exp (the login example)', () => {
    expect(mockCaller(`Bearer ${jwt({ exp: NOW + 1 })}`, NOW)).toEqual({ user: { admin: true } });
    expect(mockCaller(`bearer ${jwt({ sub: '76561198000000001' })}`, NOW)).toBeDefined();
  });
});
