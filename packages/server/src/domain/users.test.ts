import { describe, expect, it } from 'vitest';
import { ITEMS } from './messages.ts';
import { emptyState, type User } from './state.ts';
import { testState } from './test-state.fixture.ts';
import { Tx } from './tx.ts';
import { ADMIN_ROLE, createUser, hashApiKey, type NewUser, newPlatformId, staffList, storeInfo } from './users.ts';

describe('storeInfo', () => {
  it.each([
    ['exact short URL', 'alice-store', true],
    ['another case', 'Alice-Store', true],
    ['unknown', 'nobody', false],
  ])('%s', (_name, identifier, found) => {
    const s = testState();
    const alice = s.user({ name: 'Alice', shorturl: 'alice-store' });
    s.user({ name: 'Bob' }); // no short URL: never matched by an empty identifier
    expect(storeInfo(s.tx, identifier)).toEqual(
      found
        ? { ok: true, value: { platformId: alice.platformId, image: alice.image, name: 'Alice' } }
        : { ok: false, error: ITEMS.storeNotFound },
    );
  });
});

describe('staffList', () => {
  it('lists the administrators by name', () => {
    const s = testState();
    const zed = s.user({ name: 'Zed', admin: true });
    s.user({ name: 'Bob' });
    const amy = s.user({ name: 'Amy', admin: true });
    expect(staffList(s.tx)).toEqual([
      { name: 'Amy', platformId: amy.platformId, role: ADMIN_ROLE },
      { name: 'Zed', platformId: zed.platformId, role: ADMIN_ROLE },
    ]);
  });
});

describe('hashApiKey', () => {
  it('is the SHA-256 hex of the key', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('newPlatformId', () => {
  it('is 17 digits starting with 7656119, the rest from the injected randomness', () => {
    const asked: number[] = [];
    const id = newPlatformId((n) => {
      asked.push(n);
      return '0123456789'.slice(0, n);
    });
    expect(id).toBe('76561190123456789');
    expect(asked).toEqual([10]);
  });
});

describe('createUser', () => {
  const create = (input: NewUser) => {
    const state = emptyState();
    const tx = new Tx(state);
    const user = createUser(tx, input, 'clear-key', '76561190000000001', 1000);
    tx.commit();
    return { state, user };
  };

  it('applies the test-helper defaults and stores only the hash of the API key', () => {
    const { state, user } = create({});
    expect(user).toMatchObject({
      balance: 0,
      reserved: 0,
      admin: false,
      country: 'US',
      verified: true,
      twoFactorEnabled: false,
      paymentMethods: [],
      since: 1000,
      banUntil: null,
    });
    expect(Object.keys(state.apiKeys)).toEqual([hashApiKey('clear-key')]);
    expect(JSON.stringify(state)).not.toContain('clear-key');
  });

  it.each<[string, NewUser, Partial<User>]>([
    ['admin', { admin: true }, { admin: true }],
    ['country', { country: 'FR' }, { country: 'FR' }],
    ['unverified', { verified: false }, { verified: false }],
    ['2FA on', { twoFactor: true }, { twoFactorEnabled: true }],
    ['trade URL', { tradeUrl: 'https://t/?partner=1' }, { tradeurl: 'https://t/?partner=1' }],
    ['payment methods once each', { paymentMethods: ['provider_a', 'provider_a'] }, { paymentMethods: ['provider_a'] }],
  ])('takes the %s option', (_name, input, want) => {
    expect(create(input).user).toMatchObject(want);
  });

  it('credits an opening balance through the ledger, so the money is traced', () => {
    const { state } = create({ balance: 2500 });
    expect(state.users['76561190000000001']?.balance).toBe(2500);
    expect(Object.values(state.ledger)).toEqual([
      expect.objectContaining({ type: 'bonus', amount: 2500, balance: 2500, timestamp: '1000' }),
    ]);
  });
});
