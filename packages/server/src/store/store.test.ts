import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Tx } from '../domain/tx.ts';
import { openStore, readJournal, type Store } from './store.ts';

let dir: string;
let opened: Store[] = [];
/** Opens a store that the test may leave open (as a crashed process would); closed afterwards. */
async function open(file: string, options?: { snapshotEvery?: number }): Promise<Store> {
  const store = await openStore(file, options);
  opened.push(store);
  return store;
}
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-'));
  opened = [];
});
afterEach(async () => {
  for (const store of opened) await store.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

/** Commits one record through a unit of work, as the engine does. */
async function commitRecord(store: Store, id: number) {
  const tx = new Tx(store.state);
  tx.put('records', id, { id: String(id), kind: 'test', n: id });
  await store.append(tx.commit());
}

describe('the journal store', () => {
  it('starts empty and says so', async () => {
    const store = await openStore(join(dir, 'db.json'));
    expect(store.created).toBe(true);
    await store.close();
    const again = await openStore(join(dir, 'db.json'));
    expect(again.created).toBe(false);
    await again.close();
  });

  it('recovers acknowledged commits from the journal without a snapshot', async () => {
    const file = join(dir, 'db.json');
    const store = await open(file);
    await Promise.all([1, 2, 3].map((id) => commitRecord(store, id)));
    // no close(): as after a crash, only the journal holds the commits
    const recovered = await open(file);
    expect(recovered.created).toBe(false); // so demo data is not seeded a second time
    expect(Object.keys(recovered.state.records).sort()).toEqual(['1', '2', '3']);
    expect(recovered.state.seq).toBe(3);
  });

  it('journals concurrent commits in order, one line each', async () => {
    const file = join(dir, 'db.json');
    const store = await open(file);
    await Promise.all(Array.from({ length: 50 }, (_, i) => commitRecord(store, i + 1)));
    const lines = readFileSync(`${file}.journal`, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(50);
    expect(readJournal(lines.join('\n'), 0).map((l) => l.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('snapshots and starts a fresh journal, keeping every change', async () => {
    const file = join(dir, 'db.json');
    const store = await open(file, { snapshotEvery: 10 });
    for (let id = 1; id <= 25; id += 1) await commitRecord(store, id);
    await store.snapshot();
    await commitRecord(store, 26);
    const journal = readFileSync(`${file}.journal`, 'utf8').trim().split('\n');
    expect(journal).toHaveLength(1);
    expect(existsSync(`${file}.journal.old`)).toBe(false);
    const recovered = await open(file);
    expect(Object.keys(recovered.state.records)).toHaveLength(26);
  });

  it('ignores a torn last journal line', async () => {
    const file = join(dir, 'db.json');
    const store = await open(file);
    await commitRecord(store, 1);
    writeFileSync(`${file}.journal`, `${readFileSync(`${file}.journal`, 'utf8')}{"seq":2,"chan`);
    const recovered = await open(file);
    expect(Object.keys(recovered.state.records)).toEqual(['1']);
  });

  it('keeps commits made after recovering from a torn line', async () => {
    const file = join(dir, 'db.json');
    const first = await open(file);
    await commitRecord(first, 1);
    writeFileSync(`${file}.journal`, `${readFileSync(`${file}.journal`, 'utf8')}{"seq":2,"chan`);
    const second = await open(file);
    await commitRecord(second, 2);
    // crashed again: the torn bytes must not swallow the line acknowledged after them
    const third = await open(file);
    expect(Object.keys(third.state.records).sort()).toEqual(['1', '2']);
  });

  it('folds the journals of an unclean stop into a snapshot before appending again', async () => {
    const file = join(dir, 'db.json');
    const first = await open(file);
    for (const id of [1, 2, 3]) await commitRecord(first, id);
    // a crash in the middle of a snapshot: the journal was rotated, the snapshot never written
    renameSync(`${file}.journal`, `${file}.journal.old`);
    const second = await open(file);
    expect(existsSync(`${file}.journal.old`)).toBe(false);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).records).sort()).toEqual(['1', '2', '3']);
    await commitRecord(second, 4);
    await second.snapshot();
    await commitRecord(second, 5);
    const third = await open(file);
    expect(Object.keys(third.state.records).sort()).toEqual(['1', '2', '3', '4', '5']);
    expect(third.state.seq).toBe(5);
  });

  it('holds every acknowledged change after kill -9 at random moments, twice on one file', async () => {
    const file = join(dir, 'db.json');
    const acknowledged: number[] = [];
    for (let round = 0; round < 2; round += 1) {
      const child = spawn(process.execPath, [join(import.meta.dirname, 'crash-writer.fixture.ts'), file], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const before = acknowledged.length;
      child.stdout.setEncoding('utf8');
      let buffer = '';
      child.stdout.on('data', (chunk: string) => {
        buffer += chunk;
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) if (line) acknowledged.push(Number(line));
      });
      await new Promise((r) => setTimeout(r, 400 + Math.random() * 600));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      expect(acknowledged.length - before).toBeGreaterThan(10);
    }
    const recovered = await open(file);
    const present = new Set(Object.keys(recovered.state.records).map(Number));
    expect(acknowledged.filter((id) => !present.has(id))).toEqual([]);
  });
});
