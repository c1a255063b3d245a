// The merge process of the file store (ADR 10): started with the store, before the state is
// loaded, and reused for every snapshot, so a snapshot never starts a process (which blocks the
// event loop for as long as copying a large server's page tables takes); it is replaced when it
// dies, and ends when the store closes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Tx } from '../domain/tx.ts';
import { mergerProcess } from './snapshot-merge.ts';
import { openStore, type Store } from './store.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'merger-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const gone = async (pid: number) => {
  for (let i = 0; i < 1200 && alive(pid); i += 1) await new Promise((r) => setTimeout(r, 25));
  return !alive(pid);
};

async function put(store: Store, id: number) {
  const tx = new Tx(store.state);
  tx.put('records', id, { id: String(id), kind: 'test' });
  await store.commit(tx);
}

describe('the merge process', { timeout: 120_000 }, () => {
  it('is running before the first snapshot and merges every snapshot of the store, then ends with it', async () => {
    const file = join(dir, 'db.json');
    const merger = mergerProcess();
    const pid = merger.pid!;
    expect(alive(pid)).toBe(true);
    merger.close();
    expect(await gone(pid)).toBe(true);

    const store = await openStore(file, { merger: 'process' });
    for (let round = 1; round <= 3; round += 1) {
      for (let i = 0; i < 5; i += 1) await put(store, round * 10 + i);
      await store.snapshot();
    }
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).records)).toHaveLength(15);
    await store.close();
  });

  it('is replaced when it dies, and the next snapshot still merges', async () => {
    const merger = mergerProcess();
    const first = merger.pid!;
    process.kill(first, 'SIGKILL');
    expect(await gone(first)).toBe(true);
    // A job for the killed process goes to a new one.
    await expect(merger.run({ snapshot: join(dir, 'db.json'), journal: join(dir, 'missing.journal') })).rejects.toThrow(
      /ENOENT/,
    );
    expect(merger.pid).toBeDefined();
    expect(merger.pid).not.toBe(first);
    merger.close();
  });
});
