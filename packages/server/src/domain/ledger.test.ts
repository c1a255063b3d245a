import { describe, expect, it } from 'vitest';
import { move, reserve } from './ledger.ts';
import { emptyState } from './state.ts';
import { Tx } from './tx.ts';
import { createUser } from './users.ts';

const ALICE = '76561190000000001';

/** A committed state where Alice holds `balance` cents, and a fresh unit of work over it. */
function world(balance: number) {
  const state = emptyState();
  const setup = new Tx(state);
  createUser(setup, { balance }, 'k', ALICE, 100);
  setup.commit();
  return { state, tx: new Tx(state) };
}
const entries = (tx: Tx) => tx.all('ledger').filter((e) => e.relatedId === 7);

describe('move', () => {
  it.each([
    ['a credit', 1000, 250, true, 1250],
    ['a debit', 1000, -400, true, 600],
    ['a debit of the whole balance', 1000, -1000, true, 0],
    ['a debit beyond the balance', 1000, -1001, false, 1000],
  ])('%s', (_name, start, amount, accepted, after) => {
    const { tx } = world(start);
    const m = { user: ALICE, amount, type: 'purchase' as const, description: 'd', relatedId: 7, now: 200 };
    expect(move(tx, m)).toBe(accepted);
    expect(tx.get('users', ALICE)?.balance).toBe(after);
    expect(entries(tx)).toEqual(
      accepted
        ? [
            {
              id: 2,
              user: ALICE,
              type: 'purchase',
              amount,
              balance: after,
              description: 'd',
              timestamp: '200',
              relatedId: 7,
            },
          ]
        : [],
    );
  });

  it.each([
    ['a fraction of a cent', { user: ALICE, amount: 1.5 }],
    ['an unknown user', { user: 'nobody', amount: 1 }],
  ])('throws on %s: a bug, not input', (_name, over) => {
    const { tx } = world(10);
    expect(() => move(tx, { type: 'bonus', description: '', relatedId: 0, now: 0, ...over })).toThrow();
  });
});

describe('reserve', () => {
  it('moves cents from balance to reserved as a payment, and back as a refund', () => {
    const { tx } = world(1000);
    expect(reserve(tx, ALICE, 300, 'held', 7, 200)).toBe(true);
    expect(tx.get('users', ALICE)).toMatchObject({ balance: 700, reserved: 300 });
    expect(reserve(tx, ALICE, -100, 'released', 7, 201)).toBe(true);
    expect(tx.get('users', ALICE)).toMatchObject({ balance: 800, reserved: 200 });
    expect(entries(tx).map((e) => [e.type, e.amount, e.balance])).toEqual([
      ['payment', -300, 700],
      ['refund', 100, 800],
    ]);
  });

  it.each([
    ['more than the balance', 1001],
    ['a release of more than is held', -1],
  ])('refuses %s and writes nothing', (_name, cents) => {
    const { state, tx } = world(1000);
    expect(reserve(tx, ALICE, cents, 'x', 7, 200)).toBe(false);
    expect(tx.get('users', ALICE)).toMatchObject({ balance: 1000, reserved: 0 });
    expect(entries(tx)).toEqual([]);
    expect(tx.commit().filter((c) => c.c !== 'meta')).toEqual([]);
    expect(state.users[ALICE]).toMatchObject({ balance: 1000, reserved: 0 });
  });
});
