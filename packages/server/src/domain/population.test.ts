import { describe, expect, it } from 'vitest';
import { auditMoney } from './audit.ts';
import { isListed } from './indexes.ts';
import { populate, populationKey } from './population.ts';
import { emptyState } from './state.ts';
import { Tx } from './tx.ts';
import { hashApiKey } from './users.ts';

const NOW = 1_700_000_000;
const input = (over: Partial<Parameters<typeof populate>[1]> = {}) => ({
  users: 7,
  items: 3,
  assets: 50,
  listedShare: 0.4,
  buyOrders: 10,
  balance: 5_000,
  now: NOW,
  ...over,
});

describe('populate', () => {
  it('deals assets round-robin to users and items, lists the first share of each user, and keeps the money invariant', () => {
    const state = emptyState();
    const result = populate(state, input());
    if (!result.ok) throw new Error(String(result.error));
    const { platformIds, itemIds } = result.value;
    expect(result.value).toMatchObject({ users: 7, items: 3, assets: 50, buyOrders: 10 });
    expect(result.value.apiKeys).toEqual(['pop-0', 'pop-1', 'pop-2', 'pop-3', 'pop-4', 'pop-5', 'pop-6']);
    expect(platformIds.every((id) => /^[0-9]{17}$/.test(id))).toBe(true);
    const assets = Object.values(state.assets).sort((a, b) => a.id - b.id);
    expect(assets).toHaveLength(50);
    assets.forEach((a, i) => {
      expect(a.user).toBe(platformIds[i % 7]);
      expect(a.item_id).toBe(itemIds[i % 3]);
    });
    for (const [u, id] of platformIds.entries()) {
      const mine = assets.filter((a) => a.user === id);
      const listed = Math.round(0.4 * mine.length);
      // The first `listedShare` of the user's assets are listed, the rest in the inventory.
      expect(mine.map((a) => a.state)).toEqual(mine.map((_, j) => (j < listed ? 1 : 0)));
      expect(mine.filter(isListed).every((a) => a.price! >= 100 && a.price! <= 10_000)).toBe(true);
      expect(state.apiKeys[hashApiKey(`pop-${u}`)]?.user).toBe(id);
    }
    const orders = Object.values(state.buyOrders);
    expect(orders).toHaveLength(10);
    expect(new Set(orders.map((o) => `${o.platformid}/${o.itemid}`)).size).toBe(10); // one per user and item
    expect(orders.every((o) => o.amount === 1 && o.price >= 50 && o.price <= 99)).toBe(true);
    for (const id of platformIds) {
      const held = orders.filter((o) => o.platformid === id).reduce((n, o) => n + o.price, 0);
      expect(state.users[id]).toMatchObject({ reserved: held, balance: 5_000 - held });
    }
    expect(auditMoney(state).problems).toEqual([]);
    // The indexes were built over the new records.
    const tx = new Tx(state);
    for (const item of itemIds)
      expect(tx.count('listingsByItem', String(item))).toBe(
        assets.filter((a) => a.item_id === item && isListed(a)).length,
      );
  });

  it('numbers API keys and platform IDs on from an earlier call, on top of what exists', () => {
    const state = emptyState();
    const one = populate(state, input({ users: 2, assets: 4, buyOrders: 0 }));
    const two = populate(state, input({ users: 3, assets: 6, buyOrders: 0 }));
    expect(one.ok && two.ok).toBe(true);
    if (!one.ok || !two.ok) return;
    expect(two.value.apiKeys).toEqual(['pop-2', 'pop-3', 'pop-4']);
    expect(two.value.platformIds.some((id) => one.value.platformIds.includes(id))).toBe(false);
    expect(Object.keys(state.users)).toHaveLength(5);
    expect(Object.keys(state.items)).toHaveLength(6);
    expect(Object.keys(state.assets)).toHaveLength(10);
    expect(auditMoney(state).problems).toEqual([]);
  });

  it('names only the first 100 of each kind', () => {
    const state = emptyState();
    const result = populate(state, input({ users: 150, items: 120, assets: 300, buyOrders: 0 }));
    expect(
      result.ok && [result.value.apiKeys.length, result.value.platformIds.length, result.value.itemIds.length],
    ).toEqual([100, 100, 100]);
    expect(result.ok && result.value.apiKeys.at(-1)).toBe(populationKey(99));
  });

  it.each([
    ['assets without users', { users: 0 }, 'Assets need at least one user and one item'],
    ['assets without items', { items: 0 }, 'Assets need at least one user and one item'],
    [
      'more orders than user and item pairs',
      { buyOrders: 22 },
      'Invalid buyOrders parameter: at most one per user and item',
    ],
    ['a balance below the orders', { balance: 100, buyOrders: 14 }, 'Not enough balance'],
  ])('refuses %s and changes nothing', (_name, over, message) => {
    const state = emptyState();
    expect(populate(state, input(over))).toEqual({ ok: false, error: message });
    expect(state).toEqual(emptyState());
  });

  it('refuses to reuse a platform ID of its numbering', () => {
    const state = emptyState();
    populate(state, input({ users: 1, assets: 0, buyOrders: 0 }));
    state.counters.populationUsers = 0; // as if the counter had been lost
    expect(populate(state, input({ users: 1, assets: 0, buyOrders: 0 }))).toEqual({
      ok: false,
      error: 'platformId already exists',
    });
  });
});
