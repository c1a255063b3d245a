import { describe, expect, it } from 'vitest';
import { accountDefaults, COLLECTIONS, emptyState, type State, upgradeState } from './state.ts';

describe('upgradeState', () => {
  it('adds the collections an older state lacks and keeps what it holds', () => {
    const old = { seq: 4, counters: { users: 1 }, feesCollected: 3, users: {}, ledger: {} } as unknown as State;
    const state = upgradeState(old);
    for (const c of COLLECTIONS) expect(state[c], c).toEqual({});
    expect(state).toMatchObject({ seq: 4, counters: { users: 1 }, feesCollected: 3 });
  });

  it('gives an older user record the account fields added since, renaming twoFactor', () => {
    const state = emptyState();
    const legacy = { platformId: '1', name: 'Old', balance: 10, twoFactor: true };
    (state.users as Record<string, unknown>)['1'] = legacy;
    upgradeState(state);
    expect(state.users['1']).toEqual({
      ...accountDefaults(),
      platformId: '1',
      name: 'Old',
      balance: 10,
      twoFactorEnabled: true,
    });
  });

  it('leaves a current user record as it is', () => {
    const state = emptyState();
    const user = { ...accountDefaults(), platformId: '2', supportBlocked: true, paymentMethods: ['provider_a'] };
    (state.users as Record<string, unknown>)['2'] = user;
    upgradeState(state);
    expect(state.users['2']).toEqual(user);
  });
});
