import { describe, expect, it } from 'vitest';
import { buyOrderTiers, groupTiers, placeOrder } from './buy-orders.ts';
import { BUY_ORDERS } from './messages.ts';
import { testState } from './test-state.fixture.ts';

const orders = (...rows: [price: number, amount: number][]) => rows.map(([price, amount]) => ({ price, amount }));

describe('groupTiers', () => {
  it.each([
    ['no orders give no tiers', orders(), {}],
    ['equal prices are summed', orders([100, 2], [100, 3]), { 0: { count: 5, price: 100 } }],
    [
      'highest price first',
      orders([90, 1], [120, 2], [100, 4]),
      {
        0: { count: 2, price: 120 },
        1: { count: 4, price: 100 },
        2: { count: 1, price: 90 },
      },
    ],
    ['filled orders (amount 0) are left out', orders([150, 0], [100, 1]), { 0: { count: 1, price: 100 } }],
    [
      'exactly five tiers have no `more`',
      orders([5, 1], [4, 1], [3, 1], [2, 1], [1, 1]),
      {
        0: { count: 1, price: 5 },
        1: { count: 1, price: 4 },
        2: { count: 1, price: 3 },
        3: { count: 1, price: 2 },
        4: { count: 1, price: 1 },
      },
    ],
    [
      '`more` sums the rest and keeps their lowest price',
      orders([7, 1], [6, 2], [5, 1], [4, 1], [3, 1], [2, 4], [1, 5], [2, 1]),
      {
        0: { count: 1, price: 7 },
        1: { count: 2, price: 6 },
        2: { count: 1, price: 5 },
        3: { count: 1, price: 4 },
        4: { count: 1, price: 3 },
        more: { count: 10, price: 1 },
      },
    ],
  ])('%s', (_name, given, want) => {
    expect(groupTiers(given)).toEqual(want);
  });
});

describe('buyOrderTiers', () => {
  it('groups only the orders of the item asked for', () => {
    const s = testState();
    const [a, b] = [s.user(), s.user()];
    const [key, other] = [s.item(), s.item()];
    s.order(a.platformId, key.id, 195, 3);
    s.order(b.platformId, key.id, 195, 2);
    s.order(a.platformId, other.id, 500, 1);
    expect(buyOrderTiers(s.tx, key.id)).toEqual({ 0: { count: 5, price: 195 } });
    expect(buyOrderTiers(s.tx, 999)).toEqual({});
  });
});

describe('placeOrder', () => {
  it('reserves price x amount from the balance', () => {
    const s = testState();
    const user = s.user({ balance: 1_000 });
    const item = s.item();
    expect(placeOrder(s.tx, { owner: user.platformId, itemId: item.id, price: 195, amount: 3, now: s.now }).ok).toBe(
      true,
    );
    expect(s.tx.get('users', user.platformId)).toMatchObject({ balance: 415, reserved: 585 });
  });

  it('refuses an order the balance cannot cover, reserving nothing', () => {
    const s = testState();
    const user = s.user({ balance: 584 });
    const item = s.item();
    const result = placeOrder(s.tx, { owner: user.platformId, itemId: item.id, price: 195, amount: 3, now: s.now });
    expect(result).toEqual({ ok: false, error: BUY_ORDERS.notEnoughBalance });
    expect(s.tx.get('users', user.platformId)).toMatchObject({ balance: 584, reserved: 0 });
  });
});
