import { describe, expect, it } from 'vitest';
import { emptyState, type State } from '../domain/state.ts';
import { type Change, Tx } from '../domain/tx.ts';
import { GroupCommit, type Pending, RefusedChange, StoreConflict, StoreWriteError } from './group-commit.ts';

/** A group commit on a state of its own whose writes the test controls. */
function harness(
  options: {
    fail?: (batch: Pending<string>[]) => unknown;
    settle?: () => Promise<void>;
    /** Writes tried, batch by batch, whether or not they failed. */
    tried?: string[][];
  } = {},
) {
  let state: State = emptyState();
  const batches: string[][] = [];
  const written: number[] = [];
  const commits: GroupCommit<string> = new GroupCommit({
    state: () => state,
    durableSeq: 0,
    entry: (seq, changes: Change[]) => `${seq}:${changes.map((c) => c.id).join(',')}`,
    write: async (batch) => {
      options.tried?.push(batch.map((p) => p.entry));
      const failure = options.fail?.(batch);
      if (failure) throw failure;
      batches.push(batch.map((p) => p.entry));
    },
    failed: (batch, error) => {
      const failure = new StoreWriteError(`failed: ${String(error)}`);
      if (options.settle) return commits.rollBackAfter(options.settle, batch, failure);
      commits.rollBack(batch, failure);
    },
    written: (batch) => written.push(batch.length),
    refusedChange: (error) => error instanceof RefusedChange,
  });
  const put = (id: number, kind = 'test') => {
    const tx = new Tx(state);
    tx.put('records', id, { id: String(id), kind });
    return commits.commit(tx);
  };
  const ids = () => Object.keys(state.records).map(Number);
  return {
    commits,
    put,
    ids,
    batches,
    written,
    get state() {
      return state;
    },
    replaceState(next: State) {
      state = next;
    },
  };
}

describe('GroupCommit', () => {
  it('applies a unit of work at once and writes the units of one turn together, in seq order', async () => {
    const h = harness();
    const a = h.put(1);
    const b = h.put(2);
    expect(h.ids()).toEqual([1, 2]); // later commands build on it before it is durable
    expect(h.state.seq).toBe(2);
    expect(h.commits.waiting).toBe(2);
    await Promise.all([a, b]);
    await h.put(3);
    expect(h.batches).toEqual([['1:1', '2:2'], ['3:3']]);
    expect(h.written).toEqual([2, 1]);
    expect(h.commits.durableSeq).toBe(3);
  });

  it('resolves a unit of work that changes nothing at once, without a seq', async () => {
    const h = harness();
    await h.commits.commit(new Tx(h.state));
    expect(h.state.seq).toBe(0);
    expect(h.batches).toEqual([]);
  });

  it('undoes a failed batch and every unit queued after it, newest first, and rejects them all', async () => {
    let failing = true;
    const h = harness({ fail: () => (failing ? new Error('EIO') : undefined) });
    await h.put(1).catch(() => {});
    failing = false;
    await h.put(1, 'kept');
    failing = true;
    const first = h.put(2);
    const second = h.put(1, 'changed'); // builds on the first and on the durable record
    const third = h.put(1, 'again'); // the same record twice: only newest-first undo ends at 'kept'
    await expect(first).rejects.toThrow(/failed: Error: EIO/);
    await expect(second).rejects.toBeInstanceOf(StoreWriteError);
    await expect(third).rejects.toBeInstanceOf(StoreWriteError);
    expect(h.ids()).toEqual([1]);
    expect(h.state.records['1']).toEqual({ id: '1', kind: 'kept' });
    expect(h.state.seq).toBe(1);
    expect(h.commits.durableSeq).toBe(1);
    failing = false;
    await h.put(3); // writes go on after the last durable seq
    expect(h.batches.at(-1)).toEqual(['2:3']);
  });

  describe('a change the store refuses for what it holds', () => {
    /** Refuses any write that holds record `poisoned`'s entry. */
    const refusing = (poisoned: string, tried: string[][] = []) =>
      harness({
        tried,
        fail: (batch) =>
          batch.some((p) => p.entry.split(':')[1]!.split(',').includes(poisoned))
            ? new RefusedChange('check constraint')
            : undefined,
      });

    it('fails alone: the units before it are kept, the ones after it run again without it', async () => {
      const tried: string[][] = [];
      const h = refusing('2', tried);
      const [first, poisoned, third] = [h.put(1), h.put(2), h.put(3)];
      await expect(first).resolves.toBeUndefined();
      await expect(poisoned).rejects.toBeInstanceOf(RefusedChange);
      await expect(poisoned).rejects.toThrow(/refused this change \(check constraint\)/);
      // Built on the refused unit: undone, and its command runs again (execute retries a conflict).
      await expect(third).rejects.toBeInstanceOf(StoreConflict);
      expect(tried).toEqual([['1:1', '2:2', '3:3'], ['1:1'], ['2:2']]);
      expect(h.ids()).toEqual([1]);
      expect(h.state.seq).toBe(1);
      expect(h.commits.durableSeq).toBe(1);
      await h.put(3); // its command again, on the state without the refused one
      expect(h.ids()).toEqual([1, 3]);
      expect(h.batches).toEqual([['1:1'], ['2:3']]);
    });

    it('undoes a refused unit alone in its batch, and the units queued while it was written run again', async () => {
      const h = refusing('1');
      await h.put(7);
      const poisoned = h.put(1);
      await new Promise((r) => setImmediate(r)); // the write of the poisoned batch has started
      const queued = h.put(8);
      await expect(poisoned).rejects.toBeInstanceOf(RefusedChange);
      await expect(queued).rejects.toBeInstanceOf(StoreConflict);
      expect(h.ids()).toEqual([7]);
      expect(h.state.seq).toBe(1);
    });

    it('keeps every unit when each goes through alone (what was refused was the batch as a whole)', async () => {
      const h = harness({ fail: (batch) => (batch.length > 1 ? new RefusedChange('too large together') : undefined) });
      await Promise.all([h.put(1), h.put(2), h.put(3)]);
      expect(h.batches).toEqual([['1:1'], ['2:2'], ['3:3']]);
      expect(h.commits.durableSeq).toBe(3);
    });

    it('fails a unit alone, undone at once, when the store cannot even make its entry', async () => {
      const h = harness();
      await h.put(1, 'kept');
      const state = h.state;
      const tx = new Tx(state);
      tx.put('records', 1, { id: '1', kind: 'changed' });
      tx.put('records', 2, { id: '2', kind: 'new' });
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      // A store whose entry is JSON (the file store's journal line), given a value JSON cannot hold.
      const failing = new GroupCommit<string>({
        state: () => state,
        durableSeq: 1,
        entry: () => JSON.stringify(cyclic),
        write: async () => {},
        failed: () => {},
      });
      await expect(failing.commit(tx)).rejects.toBeInstanceOf(RefusedChange);
      expect(state.records).toEqual({ '1': { id: '1', kind: 'kept' } });
      expect(state.seq).toBe(1);
      await h.put(3); // the next unit takes the seq the refused one did not keep
      expect(h.batches.at(-1)).toEqual(['2:3']);
    });

    it("hands any other failure of a unit written alone to the store's failure handling", async () => {
      const h = harness({
        fail: (batch) =>
          batch.length > 1 ? new RefusedChange('refused') : batch[0]!.seq === 2 ? new Error('EIO') : undefined,
      });
      const [first, second, third] = [h.put(1), h.put(2), h.put(3)];
      await expect(first).resolves.toBeUndefined();
      await expect(second).rejects.toThrow(/failed: Error: EIO/);
      await expect(third).rejects.toThrow(/failed: Error: EIO/);
      expect(h.ids()).toEqual([1]);
      expect(h.state.seq).toBe(1);
    });
  });

  it('rejects only once the store has settled, when it asks to', async () => {
    const events: string[] = [];
    const h = harness({
      fail: () => new Error('EIO'),
      settle: async () => {
        await new Promise((r) => setTimeout(r, 20));
        events.push('settled');
      },
    });
    await h.put(1).catch(() => events.push('rejected'));
    expect(events).toEqual(['settled', 'rejected']);
    expect(h.ids()).toEqual([]);
  });

  it('refuses every write once refused, at commit and at a write already queued', async () => {
    const h = harness();
    const queued = h.put(1);
    h.commits.refuse('the disk is gone');
    await expect(queued).rejects.toThrow('the store refuses writes: the disk is gone');
    expect(h.ids()).toEqual([]);
    await expect(h.put(2)).rejects.toThrow(/refuses writes/);
    expect(h.ids()).toEqual([]); // nothing applied, not even for a moment
    expect(h.commits.refusal).toBe('the disk is gone');
  });

  it('runs steps on the chain in order with the writes, and drains them all', async () => {
    const h = harness();
    const order: string[] = [];
    const write = h.put(1).then(() => order.push('write'));
    const step = h.commits.onChain(async () => {
      order.push('step');
      return 7;
    });
    const late = h.commits.onChain(async () => {
      throw new Error('a failed step');
    });
    await expect(late).rejects.toThrow('a failed step');
    expect(await step).toBe(7);
    await write;
    h.commits.onChain(async () => {
      await new Promise((r) => setTimeout(r, 20));
      order.push('last');
    });
    await h.commits.drain();
    expect(order).toEqual(['write', 'step', 'last']);
  });

  it('rolls back the queue without a batch (a catch-up found the state changed under it)', async () => {
    const h = harness();
    await h.put(1);
    const stale = h.put(2);
    h.commits.rollBack([], new StoreWriteError('another instance committed first'));
    expect(h.ids()).toEqual([1]);
    expect(h.state.seq).toBe(1);
    await expect(stale).rejects.toThrow('another instance committed first');
    await h.commits.drain();
    expect(h.batches).toEqual([['1:1']]);
  });

  it('applies to the state the store holds now (a replacement)', async () => {
    const h = harness();
    await h.put(1);
    const next = emptyState();
    next.seq = 5;
    h.replaceState(next);
    h.commits.durableSeq = 5;
    await h.put(9);
    expect(h.ids()).toEqual([9]);
    expect(h.batches.at(-1)).toEqual(['6:9']);
  });
});
