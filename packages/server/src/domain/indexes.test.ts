import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditMoney } from './audit.ts';
import {
  defOf,
  dropIndexes,
  type HashName,
  INDEXES,
  Indexes,
  type IndexName,
  indexesOf,
  keysOf,
  type SortedName,
} from './indexes.ts';
import type { State } from './state.ts';
import { anyCommand, runCommand, USERS, world } from './test-commands.fixture.ts';
import { applyChanges, Tx } from './tx.ts';

const NAMES = Object.keys(INDEXES) as IndexName[];

/**
 * Every index, read through `tx` (its own writes overlaid on the committed indexes), answers what
 * a full scan of the collection answers: the same records under every key, groups in their order,
 * the same counts, totals and last records.
 */
function expectAgreesWithScan(tx: Tx): void {
  for (const name of NAMES) {
    const def = defOf(name);
    const rows = tx.all(def.c) as object[];
    if (def.kind === 'hash') {
      const want = new Map<string, object[]>();
      for (const row of rows) for (const key of keysOf(def, row)) want.set(key, [...(want.get(key) ?? []), row]);
      // Keys the committed index holds but the scan does not (a record moved away) must be empty.
      for (const key of indexesOf(tx.state).hashes.get(name)!.keys()) if (!want.has(key)) want.set(key, []);
      for (const [key, expected] of want) {
        const got = tx.find(name as HashName, key);
        expect(new Set(got), `${name}[${key}]`).toEqual(new Set(expected));
        expect(got.length, `${name}[${key}] once each`).toBe(expected.length);
        expect(tx.count(name as HashName, key), `count ${name}[${key}]`).toBe(expected.length);
      }
    } else {
      const want = new Map<string, object[]>();
      for (const row of rows) {
        const group = def.group(row);
        if (group !== undefined) want.set(group, [...(want.get(group) ?? []), row]);
      }
      expect(new Set(tx.groups(name as SortedName)), `groups of ${name}`).toEqual(new Set(want.keys()));
      for (const group of indexesOf(tx.state).trees.get(name)!.keys()) if (!want.has(group)) want.set(group, []);
      for (const [group, expected] of want) {
        expected.sort(def.order);
        const weight = expected.reduce((n, r) => n + (def.weight ? def.weight(r) : 1), 0);
        expect([...tx.ordered(name as SortedName, group)], `${name}[${group}]`).toEqual(expected);
        expect(tx.count(name as SortedName, group), `count ${name}[${group}]`).toBe(expected.length);
        expect(tx.total(name as SortedName, group), `total ${name}[${group}]`).toBe(weight);
        expect(tx.last(name as SortedName, group), `last ${name}[${group}]`).toBe(expected.at(-1));
        // A start inside the group: the records from there on.
        const middle = expected[Math.floor(expected.length / 2)];
        if (middle)
          expect([...tx.ordered(name as SortedName, group, middle as never)]).toEqual(
            expected.slice(Math.floor(expected.length / 2)),
          );
      }
    }
  }
}

/** The indexes kept up to date by commits equal indexes built afresh from the records. */
function expectSameAsRebuilt(state: State): void {
  const kept = indexesOf(state);
  const fresh = new Indexes(state);
  for (const [name, map] of fresh.hashes) {
    const mine = kept.hashes.get(name)!;
    expect([...mine.keys()].sort(), name).toEqual([...map.keys()].sort());
    for (const [key, bucket] of map) {
      const set = (b: unknown) => (b instanceof Set ? b : new Set([b]));
      expect(set(mine.get(key)), `${name}[${key}]`).toEqual(set(bucket));
    }
  }
  for (const [name, groups] of fresh.trees) {
    const mine = kept.trees.get(name)!;
    expect([...mine.keys()].sort(), name).toEqual([...groups.keys()].sort());
    for (const [key, g] of groups) {
      expect([...mine.get(key)!.tree.keys()], `${name}[${key}]`).toEqual([...g.tree.keys()]);
      expect(mine.get(key)!.weight, `weight ${name}[${key}]`).toBe(g.weight);
    }
  }
}

describe('the indexes', () => {
  // A hundred random runs with a full scan after every step: about 10 s alone, near 30 s on a busy
  // 2-core machine, so it gets a timeout of its own rather than the default 30 s.
  it('agree with a full scan before and after every commit of random commands (money-invariant commands, cart, withdrawals, tickets)', {
    timeout: 120_000,
  }, () => {
    const kinds = new Set<string>();
    fc.assert(
      fc.property(fc.array(anyCommand, { minLength: 40, maxLength: 100 }), (commands) => {
        const state = world();
        indexesOf(state); // built up front, so every commit has to keep them current
        for (const [step, c] of commands.entries()) {
          const tx = new Tx(state);
          const outcome = runCommand(tx, c, 2000 + step);
          expectAgreesWithScan(tx); // the command's own writes, overlaid
          if (outcome.ok) {
            kinds.add(c.kind);
            tx.commit();
          }
          expectAgreesWithScan(new Tx(state));
        }
        expectSameAsRebuilt(state);
        expect(auditMoney(state).problems).toEqual([]);
      }),
      { numRuns: 100 },
    );
    // Every kind of command succeeded at least once (not a vacuous pass).
    expect([...kinds].sort()).toEqual(
      [
        ...['asset', 'buy', 'bulk', 'cart', 'checkout', 'place', 'price', 'remove', 'update', 'withdraw'],
        ...['ticket', 'post', 'answer'],
      ].sort(),
    );
  });

  it('see the records a unit of work wrote, deleted or changed before it commits, without changing the state', () => {
    const state = world();
    const [alice] = USERS as [string];
    const tx = new Tx(state);
    runCommand(tx, { kind: 'asset', user: 0, item: 1, price: 1, amount: 1, pick: 0 }, 2000);
    const asset = tx.find('assetsByOwner', alice)[0]!;
    tx.put('assets', asset.id, { ...asset, state: 1, price: 300 });
    expect(tx.count('listingsByItem', '1')).toBe(1);
    expect(new Tx(state).count('listingsByItem', '1')).toBe(0);
    tx.commit();
    const next = new Tx(state);
    next.delete('assets', asset.id);
    expect(next.find('assetsByOwner', alice)).toEqual([]);
    expect([...next.ordered('listingsByItem', '1')]).toEqual([]);
    expect(new Tx(state).find('assetsByAssetId', asset.assetId)).toHaveLength(1);
  });

  it('follow records changed through applyChanges (an undo after a failed journal write), record by record', () => {
    const state = world();
    const before = indexesOf(state);
    applyChanges(state, [{ c: 'users', id: '1', row: { ...state.users[USERS[0]!]!, platformId: '1', admin: true } }]);
    expect(indexesOf(state)).toBe(before);
    expect(new Tx(state).find('admins', 'admin').map((u) => u.platformId)).toEqual(['1']);
    expectSameAsRebuilt(state);
    applyChanges(state, [{ c: 'users', id: '1', row: null }]);
    expect(new Tx(state).find('admins', 'admin')).toEqual([]);
    expectSameAsRebuilt(state);
  });

  it('are built again after records change behind the engine (dropIndexes)', () => {
    const state = world();
    const before = indexesOf(state);
    state.users['1'] = { ...state.users[USERS[0]!]!, platformId: '1', admin: true };
    dropIndexes(state);
    expect(indexesOf(state)).not.toBe(before);
    expect(new Tx(state).find('admins', 'admin').map((u) => u.platformId)).toEqual(['1']);
  });
});
