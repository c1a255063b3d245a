import { describe, expect, it } from 'vitest';
import { emptyState } from './state.ts';
import { applyChanges, Tx } from './tx.ts';

const session = (id: number) => ({
  id,
  jti: `j${id}`,
  user: 'u',
  ip: '1.1.1.1',
  location: '',
  isp: '',
  userAgent: '',
  timestamp: 0,
  expire: 1,
  revoked: false,
});

describe('Tx', () => {
  it('leaves the state untouched until commit', () => {
    const state = emptyState();
    const tx = new Tx(state);
    tx.put('sessions', 1, session(tx.nextId('sessions')));
    expect(tx.get('sessions', 1)?.jti).toBe('j1');
    expect(state.sessions).toEqual({});
    expect(state.counters).toEqual({});
  });

  it('applies writes, deletions, counters and fees on commit, and returns them as changes', () => {
    const state = emptyState();
    state.sessions['9'] = session(9);
    const tx = new Tx(state);
    tx.put('sessions', 1, session(tx.nextId('sessions')));
    tx.delete('sessions', 9);
    tx.collectFee(7);
    const changes = tx.commit();
    expect(Object.keys(state.sessions)).toEqual(['1']);
    expect(state.counters.sessions).toBe(1);
    expect(state.feesCollected).toBe(7);
    const replay = emptyState();
    replay.sessions['9'] = session(9);
    applyChanges(replay, changes);
    expect(replay).toEqual(state);
  });

  it('returns the changes that undo a commit, so a failed journal write can leave the state as it was', () => {
    const state = emptyState();
    state.sessions['9'] = session(9);
    state.sessions['5'] = session(5);
    state.counters.items = 4;
    state.feesCollected = 3;
    const before = structuredClone(state);
    const tx = new Tx(state);
    tx.put('sessions', 1, session(tx.nextId('sessions')));
    tx.put('sessions', 5, { ...session(5), revoked: true });
    tx.delete('sessions', 9);
    tx.nextId('items');
    tx.collectFee(7);
    const { undo } = tx.commitWithUndo();
    expect(state).not.toEqual(before);
    applyChanges(state, undo);
    expect(state).toEqual(before);
    expect(Object.hasOwn(state.counters, 'sessions')).toBe(false);
  });

  it('lists a collection as the unit of work sees it', () => {
    const state = emptyState();
    state.sessions['1'] = session(1);
    state.sessions['2'] = session(2);
    const tx = new Tx(state);
    tx.delete('sessions', 1);
    tx.put('sessions', 3, session(3));
    expect(
      tx
        .all('sessions')
        .map((s) => s.id)
        .sort(),
    ).toEqual([2, 3]);
  });

  it('hands out IDs after the committed counter, never one claimed by a chosen ID', () => {
    const state = emptyState();
    const first = new Tx(state);
    expect([first.nextId('items'), first.nextId('items')]).toEqual([1, 2]);
    first.commit();
    const second = new Tx(state);
    second.claimId('items', 10);
    second.claimId('items', 4); // below the counter: no effect
    expect(second.nextId('items')).toBe(11);
    const dropped = new Tx(state);
    dropped.nextId('items'); // never committed
    expect(new Tx(state).nextId('items')).toBe(3);
  });

  it('replays changes into a collection an older snapshot lacks', () => {
    const tx = new Tx(emptyState());
    tx.put('cashouts', 1, { id: 1 } as never);
    const changes = tx.commit();
    const old = emptyState() as unknown as Record<string, unknown>;
    delete old.cashouts;
    applyChanges(old as never, changes);
    expect(old.cashouts).toEqual({ '1': { id: 1 } });
  });
});

describe('Tx effects and failure', () => {
  it('collects emitted effects in order', () => {
    const tx = new Tx(emptyState());
    tx.emit({ kind: 'affiliate', code: 'a', user: undefined, ip: '1.1.1.1' });
    tx.emit({ kind: 'moderation', notice: 'ban', text: 't', data: {} });
    expect(tx.effects.map((e) => e.kind)).toEqual(['affiliate', 'moderation']);
  });

  it('keeps writes on failure only when asked', () => {
    const tx = new Tx(emptyState());
    expect(tx.keepsWritesOnFailure).toBe(false);
    tx.keepWritesOnFailure();
    expect(tx.keepsWritesOnFailure).toBe(true);
  });
});
