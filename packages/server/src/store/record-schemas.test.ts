// The load checks of the engine's records and the store's meta: what an older version wrote loads,
// a hand-edited or foreign value is refused naming the collection and the field, never the value.
import { describe, expect, it } from 'vitest';
import type { Cashout } from '../domain/records.ts';
import { emptyState, type User, upgradeState } from '../domain/state.ts';
import { Tx } from '../domain/tx.ts';
import { createUser } from '../domain/users.ts';
import { metaProblem, recordProblem } from './record-schemas.ts';

/** A user as the engine writes it today. */
function user(): User {
  return createUser(new Tx(emptyState()), { paymentMethods: ['provider_a'] }, 'key', 'u1', 100);
}

function withoutBalance() {
  const { balance, ...rest } = user();
  return rest;
}

const cashout: Cashout = {
  id: 1,
  user: 'u1',
  amount: 5000,
  fee: 100,
  method: 'provider_a',
  email: 'u1@example.com',
  status: 'pending',
  transactionId: 't1',
  requestedAt: 1,
  estimatedCompletionAt: 2,
  completedAt: null,
};

describe('the load check of a record', () => {
  it('accepts what the engine writes, and a field of a newer version', () => {
    expect(recordProblem('users', user())).toBeUndefined();
    expect(recordProblem('cashouts', { ...cashout, newer: true })).toBeUndefined();
  });

  it('accepts a user written before the later account fields, which upgradeState fills in', () => {
    const { twoFactorEnabled, supportBlocked, paymentMethods, notifications, privacy, ...old } = user();
    expect(recordProblem('users', old)).toBeUndefined();
    const state = emptyState();
    state.users.u1 = old as User;
    expect(upgradeState(state).users.u1).toMatchObject({ twoFactorEnabled: false, paymentMethods: [] });
  });

  it.each([
    ['a user without a balance', 'users', withoutBalance(), /^a users record .*balance/],
    ['a balance beyond 2^53 cents', 'users', { ...user(), balance: 2 ** 60 }, /\/balance must be <=/],
    ['an unknown payout method', 'cashouts', { ...cashout, method: 'provider_z' }, /\/method/],
    ['an unknown cashout status', 'cashouts', { ...cashout, status: 'lost' }, /\/status/],
  ])('refuses %s, naming the field', (_, collection, row, why) => {
    const problem = recordProblem(collection as 'users' | 'cashouts', row);
    expect(problem).toMatch(why);
    expect(problem).not.toContain(String(2 ** 60));
  });
});

describe('the load check of the store meta', () => {
  it.each([
    [{ seq: 3, counters: { users: 2 }, feesCollected: -5, format: 'x' }, undefined],
    [{}, 'seq is missing'],
    [{ seq: 1, feesCollected: 0 }, 'counters is missing'],
    [{ seq: -1, counters: {}, feesCollected: 0 }, 'seq must be >= 0'],
    [{ seq: 1, counters: { users: 1.5 }, feesCollected: 0 }, 'counters.users must be integer'],
    [{ seq: 1, counters: {}, feesCollected: '7' }, 'feesCollected must be integer'],
  ])('%j: %s', (meta, problem) => {
    expect(metaProblem(meta)).toBe(problem);
  });
});

// The types come from the schemas but stay as strict as the engine needs: a user has every account
// field (only the load schema relaxes them), and a method is one of the payout methods.
// @ts-expect-error a User lacks no field
export const partialUser: User = { platformId: 'u1', name: 'x' };
// @ts-expect-error a Cashout's method is a payout method
export const strayMethod: Cashout = { ...cashout, method: 'provider_z' };
