// The test prices the suite computes tell the roundings apart: at the chosen price a seller's fee
// rounded to nearest or up gives another amount than floor(95 %), and at the chosen amount a
// cashout fee rounded down or to nearest gives another amount than ceil(rate).
import { describe, expect, it } from 'vitest';
import { amountWhereCeilMatters, priceWhereFloorMatters, sellerProceeds } from './money.ts';

describe('priceWhereFloorMatters', () => {
  it.each([1, 499, 1001, 1337, 5000])('from %i: floor(95 %%) differs from round() and ceil()', (from) => {
    const price = priceWhereFloorMatters(from);
    const exact = (price * 95) / 100;
    expect(price).toBeGreaterThanOrEqual(from);
    expect(price - from).toBeLessThan(20);
    expect(sellerProceeds(price)).toBe(Math.floor(exact));
    expect(Math.round(exact)).not.toBe(Math.floor(exact));
    expect(Math.ceil(exact)).not.toBe(Math.floor(exact));
  });

  it('passes 1337 over (95 % = 1270.15 rounds to nearest as it floors) for 1341', () => {
    expect(priceWhereFloorMatters(1337)).toBe(1341);
  });
});

describe('amountWhereCeilMatters', () => {
  it.each([
    [12_345, 20],
    [5001, 15],
    [8000, 20],
  ])('from %i at %i per mille: ceil differs from round() and floor()', (from, permille) => {
    const amount = amountWhereCeilMatters(from, permille);
    const exact = (amount * permille) / 1000;
    expect(amount).toBeGreaterThanOrEqual(from);
    expect(Math.ceil(exact)).not.toBe(Math.round(exact));
    expect(Math.ceil(exact)).not.toBe(Math.floor(exact));
  });
});
