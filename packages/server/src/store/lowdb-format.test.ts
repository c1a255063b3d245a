// The snapshot file stays a lowdb JSON document (ADR 10): the store writes it in its own streamed,
// checksummed layout so that no request waits for a whole-state stringify, but any lowdb
// `JSONFile` (or JSON.parse) still opens it as the state, for tools and for migrating off the store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { State } from '../domain/state.ts';
import { Tx } from '../domain/tx.ts';
import { openStore } from './store.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lowdb-format-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the snapshot file', () => {
  it('opens with lowdb as the state the store holds, after a snapshot and after a clean close', async () => {
    const file = join(dir, 'db.json');
    const store = await openStore(file, { merger: 'inline' });
    const tx = new Tx(store.state);
    tx.put('records', 'a', { id: 'a', kind: 'first' });
    await store.commit(tx);
    await store.snapshot();
    const next = new Tx(store.state);
    next.put('records', 'b', { id: 'b', kind: 'second' });
    next.delete('records', 'a');
    await store.commit(next);
    await store.close();

    const db = new Low<State | null>(new JSONFile<State | null>(file), null);
    await db.read();
    expect(db.data?.records).toEqual({ b: { id: 'b', kind: 'second' } });
    expect(db.data?.seq).toBe(2);
  });
});
