import { describe, expect, it } from 'vitest';
import { cashoutFee, saleFee, sellerProceeds } from './money.ts';

describe('sale fee', () => {
  it.each([
    [100, 95, 5],
    [1, 0, 1],
    [19, 18, 1],
    [21, 19, 2],
    [5_000_000, 4_750_000, 250_000],
  ])('a sale at %i cents pays the seller %i and keeps %i', (price, proceeds, fee) => {
    expect(sellerProceeds(price)).toBe(proceeds);
    expect(saleFee(price)).toBe(fee);
    expect(proceeds + fee).toBe(price);
  });

  it('refuses non-integer amounts', () => {
    expect(() => sellerProceeds(1.5)).toThrow();
  });
});

describe('cashout fee', () => {
  it.each([
    [5000, 'provider_a', 100],
    [5000, 'provider_b', 75],
    [5001, 'provider_a', 101],
    [5001, 'provider_b', 76],
  ] as const)('%i cents by %s costs %i', (amount, method, fee) => {
    expect(cashoutFee(amount, method)).toBe(fee);
  });
});
