import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { pageSize } from './paging.ts';

/** A request as the handlers see it: the validator has filled every default into `query`. */
const ctx = (url: string, query: Record<string, number>) => ({
  req: { originalUrl: url } as Request,
  query: { count: 10, perpage: 10, limit: 10, ...query },
});

describe('pageSize', () => {
  it('takes the first of the names the client sent, not the defaults the validator filled in', () => {
    expect(pageSize(ctx('/user/getCashoutHistory?limit=3', { limit: 3 }), ['count', 'perpage', 'limit'])).toBe(3);
    expect(pageSize(ctx('/x?perpage=4&limit=3', { perpage: 4, limit: 3 }), ['count', 'perpage', 'limit'])).toBe(4);
    expect(pageSize(ctx('/x?count=5&limit=3', { count: 5, limit: 3 }), ['count', 'perpage', 'limit'])).toBe(5);
  });
  it('falls back when the client sent none of them', () => {
    expect(pageSize(ctx('/x', {}), ['count', 'limit'])).toBe(10);
    expect(pageSize(ctx('/x?page=2', {}), ['count'], 20)).toBe(20);
  });
});
