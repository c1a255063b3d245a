import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Tx } from '../domain/tx.ts';
import { fullDiskFiles } from './full-disk.fixture.ts';
import { StoreWriteError } from './group-commit.ts';
import { parseJournal } from './journal.ts';
import { openStore, type Store, type StoreOptions } from './store.ts';

/** Every test here waits for fsyncs and child processes: generous on a busy machine. */
const SLOW = { timeout: 90_000 };

let dir: string;
let opened: Store[] = [];
/** Opens a store that the test may leave open (as a crashed process would); closed afterwards. */
async function open(file: string, options?: StoreOptions): Promise<Store> {
  const store = await openStore(file, options);
  opened.push(store);
  return store;
}
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-'));
  opened = [];
}, SLOW.timeout);
afterEach(async () => {
  for (const store of opened) await store.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}, SLOW.timeout);

/** Commits one record through a unit of work, as the engine does. */
async function commitRecord(store: Store, id: number) {
  const tx = new Tx(store.state);
  tx.put('records', id, { id: String(id), kind: 'test', n: id });
  await store.commit(tx);
}

const ids = (store: Store) =>
  Object.keys(store.state.records)
    .map(Number)
    .sort((a, b) => a - b);

/** A file port that fails like a full disk while `full.on` (and fails to cut back with `cutFails`). */
function fullDisk() {
  const full = { on: false, cutFails: false, failures: 0 };
  const files = fullDiskFiles(
    () => {
      if (full.on) full.failures += 1;
      return full.on;
    },
    () => full.cutFails,
  );
  return { full, files };
}

describe('the journal store', SLOW, () => {
  it('starts empty and says so', async () => {
    const store = await openStore(join(dir, 'db.json'));
    expect(store.created).toBe(true);
    await store.close();
    const again = await openStore(join(dir, 'db.json'));
    expect(again.created).toBe(true); // nothing was ever committed
    await commitRecord(again, 1);
    await again.close();
    const third = await openStore(join(dir, 'db.json'));
    expect(third.created).toBe(false);
    await third.close();
  });

  it('recovers acknowledged commits from the journal without a snapshot', async () => {
    const file = join(dir, 'db.json');
    const store = await open(file);
    await Promise.all([1, 2, 3].map((id) => commitRecord(store, id)));
    // no close(): as after a crash, only the journal holds the commits
    const recovered = await open(file);
    expect(recovered.created).toBe(false); // so demo data is not seeded a second time
    expect(ids(recovered)).toEqual([1, 2, 3]);
    expect(recovered.state.seq).toBe(3);
  });

  it('journals concurrent commits in order, one line each', async () => {
    const file = join(dir, 'db.json');
    const store = await open(file);
    await Promise.all(Array.from({ length: 50 }, (_, i) => commitRecord(store, i + 1)));
    const text = readFileSync(`${file}.journal`, 'utf8');
    expect(text.trim().split('\n')).toHaveLength(50);
    expect(parseJournal(text, 'journal').lines.map((l) => l.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it.each(['process', 'worker', 'inline'] as const)(
    'snapshots and starts a fresh journal, keeping every change (merged: %s)',
    async (merger) => {
      const file = join(dir, 'db.json');
      const store = await open(file, { snapshotEvery: 10, merger });
      for (let id = 1; id <= 25; id += 1) await commitRecord(store, id);
      const tx = new Tx(store.state);
      tx.delete('records', 3);
      tx.put('records', 4, { id: '4', kind: 'changed' });
      await store.commit(tx);
      await store.snapshot();
      await commitRecord(store, 26);
      const journal = readFileSync(`${file}.journal`, 'utf8').trim().split('\n');
      expect(journal).toHaveLength(1);
      expect(existsSync(`${file}.journal.old`)).toBe(false);
      // the snapshot alone is whole, valid JSON holding the state as of the snapshot
      const snapshot = JSON.parse(readFileSync(file, 'utf8'));
      expect(snapshot.seq).toBe(26);
      expect(Object.keys(snapshot.records)).toHaveLength(24);
      expect(snapshot.records['4']).toEqual({ id: '4', kind: 'changed' });
      const recovered = await open(file);
      expect(recovered.state).toEqual(store.state);
    },
  );

  it('ignores a torn last journal line', async () => {
    const file = join(dir, 'db.json');
    const store = await open(file);
    await commitRecord(store, 1);
    writeFileSync(`${file}.journal`, `${readFileSync(`${file}.journal`, 'utf8')}{"seq":2,"chan`);
    const recovered = await open(file);
    expect(ids(recovered)).toEqual([1]);
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
    expect(ids(third)).toEqual([1, 2]);
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
    expect(ids(third)).toEqual([1, 2, 3, 4, 5]);
    expect(third.state.seq).toBe(5);
  });

  it('reads a snapshot written as one JSON document by an earlier version, and rewrites it', async () => {
    const file = join(dir, 'db.json');
    const store = await open(file);
    await commitRecord(store, 1);
    await store.close();
    const state = structuredClone(store.state) as unknown as Record<string, unknown>;
    delete state.bans; // an older version without this collection
    writeFileSync(file, JSON.stringify(state));
    const reopened = await open(file);
    expect(ids(reopened)).toEqual([1]);
    expect(reopened.state.bans).toEqual({});
    expect(readFileSync(file, 'utf8').split('\n').length).toBeGreaterThan(2);
  });

  it('replaces the whole state durably, before any later commit', async () => {
    const file = join(dir, 'db.json');
    const store = await open(file);
    for (const id of [1, 2]) await commitRecord(store, id);
    const { emptyState } = await import('../domain/state.ts');
    const before = commitRecord(store, 3); // on the old state, made durable before the replacement
    await store.replace(emptyState());
    await Promise.all([before, commitRecord(store, 9)]);
    const recovered = await open(file); // as after a crash: only the files count
    expect(recovered.state.seq).toBe(store.state.seq);
    expect(ids(recovered)).toEqual([9]);
  });

  it('holds every acknowledged change after kill -9 at random moments, twice on one file', async () => {
    const file = join(dir, 'db.json');
    const { acknowledged } = await crashRounds(file, 2);
    const recovered = await open(file);
    const present = new Set(ids(recovered));
    expect(acknowledged.filter((id) => !present.has(id))).toEqual([]);
  });
});

describe('the files', SLOW, () => {
  it('are created 0600 in a directory created 0700, and a temporary snapshot left by a kill is removed', async () => {
    const file = join(dir, 'new', 'db.json');
    const store = await open(file);
    await commitRecord(store, 1);
    const mode = (path: string) => statSync(path).mode & 0o777;
    expect(mode(join(dir, 'new'))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(mode(`${file}.journal`)).toBe(0o600);
    await store.snapshot();
    expect(mode(file)).toBe(0o600);

    // a kill in the middle of a snapshot leaves its temporary file; one of another store stays
    const leftover = join(dir, 'new', '.db.json.4242.1.tmp');
    const foreign = join(dir, 'new', '.other.json.4242.1.tmp');
    writeFileSync(leftover, '{"format"');
    writeFileSync(foreign, '');
    chmodSync(file, 0o644); // as an earlier version wrote it
    const reopened = await open(file);
    expect(ids(reopened)).toEqual([1]);
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(foreign)).toBe(true);
    expect(mode(file)).toBe(0o600);
  });

  it('leave the mode of a directory the server did not create alone', async () => {
    chmodSync(dir, 0o755);
    await open(join(dir, 'db.json'));
    expect(statSync(dir).mode & 0o777).toBe(0o755);
  });
});

describe('a full disk', SLOW, () => {
  it('undoes a failed commit in memory, leaves no bytes of it in the journal, and takes the next one', async () => {
    const file = join(dir, 'db.json');
    const { full, files } = fullDisk();
    const store = await open(file, { files });
    await commitRecord(store, 1);
    const goodJournal = readFileSync(`${file}.journal`, 'utf8');
    const before = structuredClone(store.state);

    full.on = true;
    // two commits of one group: the second builds on the first (it changes the record 2 put)
    const tx = new Tx(store.state);
    tx.put('records', 2, { id: '2', kind: 'test' });
    const first = store.commit(tx);
    const tx2 = new Tx(store.state);
    tx2.put('records', 2, { ...tx2.get('records', 2)!, kind: 'changed' });
    tx2.delete('records', 1);
    const second = store.commit(tx2);
    await expect(first).rejects.toBeInstanceOf(StoreWriteError);
    await expect(second).rejects.toThrow(/ENOSPC/);
    expect(full.failures).toBe(1);
    expect(store.state).toEqual(before); // the read after a refused write shows nothing of it
    expect(readFileSync(`${file}.journal`, 'utf8')).toBe(goodJournal);
    expect(store.refusal).toBeUndefined();

    full.on = false; // room again: writes go on, after the last good line
    await commitRecord(store, 3);
    const recovered = await open(file);
    expect(ids(recovered)).toEqual([1, 3]);
    expect(recovered.state.seq).toBe(2);
  });

  it('refuses every write once a failed write cannot be cut back, and keeps what was durable', async () => {
    const file = join(dir, 'db.json');
    const { full, files } = fullDisk();
    const store = await open(file, { files });
    await commitRecord(store, 1);
    full.on = true;
    full.cutFails = true;
    await expect(commitRecord(store, 2)).rejects.toBeInstanceOf(StoreWriteError);
    expect(store.refusal).toMatch(/could not be cut back .*\(EIO\)/);
    full.on = false;
    const refused = commitRecord(store, 3);
    await expect(refused).rejects.toThrow(/refuses writes/);
    expect(ids(store)).toEqual([1]); // nothing applied, not even for a moment
    const recovered = await open(file); // the half line is the journal's torn tail
    expect(ids(recovered)).toEqual([1]);
  });

  it('loses no acknowledged write under kill -9 with the disk full in the middle of the load', async () => {
    const file = join(dir, 'db.json');
    const flag = join(dir, 'disk-full');
    const { acknowledged, failed } = await crashRounds(file, 2, flagged(flag));
    expect(failed.length).toBeGreaterThan(0);
    const recovered = await open(file);
    const present = new Set(ids(recovered));
    expect(acknowledged.filter((id) => !present.has(id))).toEqual([]);
    // a refused write is not in the store either (unless a later round wrote that ID again)
    const reacknowledged = new Set(acknowledged);
    expect(failed.filter((id) => present.has(id) && !reacknowledged.has(id))).toEqual([]);
  });
});

describe('a small filesystem filled up (tmpfs; needs root, skipped otherwise)', SLOW, () => {
  let mnt: string;
  let mounted: boolean;
  beforeEach(() => {
    mnt = join(dir, 'mnt');
    mkdirSync(mnt);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m,mode=0700', 'tmpfs', mnt], { stdio: 'ignore' });
      mounted = true;
    } catch {
      mounted = false;
    }
  }, SLOW.timeout);
  afterEach(async () => {
    for (const store of opened) await store.close().catch(() => {});
    opened = [];
    if (mounted) execFileSync('umount', ['-l', mnt], { stdio: 'ignore' });
  }, SLOW.timeout);
  /** Whatever room is left on the filesystem goes to a filler file. */
  const disk = () => ({
    fill() {
      const fd = openSync(join(mnt, 'filler'), 'w');
      try {
        for (;;) writeSync(fd, Buffer.alloc(64 * 1024));
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
      } finally {
        closeSync(fd);
      }
    },
    free: () => rmSync(join(mnt, 'filler'), { force: true }),
  });

  it('refuses the write that does not fit, keeps its bytes out of the journal, and goes on once there is room', async (ctx) => {
    if (!mounted) ctx.skip();
    const file = join(mnt, 'db.json');
    const store = await open(file);
    const big = async (id: number) => {
      const tx = new Tx(store.state);
      tx.put('records', id, { id: String(id), kind: 'test', pad: 'x'.repeat(3000) });
      await store.commit(tx);
    };
    await big(1);
    disk().fill();
    const refused: number[] = [];
    for (let id = 2; id < 6; id += 1) await big(id).catch(() => refused.push(id));
    expect(refused).toEqual([2, 3, 4, 5]);
    expect(ids(store)).toEqual([1]);
    const journal = parseJournal(readFileSync(`${file}.journal`, 'utf8'), 'journal');
    expect({ lines: journal.lines.length, torn: journal.tornBytes }).toEqual({ lines: 1, torn: 0 });
    disk().free();
    await big(6);
    const recovered = await open(file); // as after a crash: the first store is never closed
    expect(ids(recovered)).toEqual([1, 6]);
  });

  it('loses no acknowledged write under kill -9 with the filesystem really full in the middle of the load', async (ctx) => {
    if (!mounted) ctx.skip();
    const file = join(mnt, 'db.json');
    const { acknowledged, failed } = await crashRounds(file, 2, disk());
    expect(failed.length).toBeGreaterThan(0);
    disk().free();
    const recovered = await open(file);
    const present = new Set(ids(recovered));
    expect(acknowledged.filter((id) => !present.has(id))).toEqual([]);
  });
});

/** A full disk for the crash writer: a flag file its file port reads, or a really full filesystem. */
interface Fullness {
  fill(): void;
  free(): void;
  /** The flag file the crash writer's injected port watches. */
  flag?: string;
}

const flagged = (flag: string): Fullness => ({
  flag,
  fill: () => writeFileSync(flag, ''),
  free: () => rmSync(flag, { force: true }),
});

/**
 * Runs the crash writer on `file` `rounds` times, killing it with SIGKILL at a random moment; with
 * `disk`, the disk is full for a while in the middle of each round.
 */
async function crashRounds(file: string, rounds: number, disk?: Fullness) {
  const acknowledged: number[] = [];
  const failed: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const args = [join(import.meta.dirname, 'crash-writer.fixture.ts'), file, ...(disk?.flag ? [disk.flag] : [])];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const before = acknowledged.length;
    child.stdout.setEncoding('utf8');
    let buffer = '';
    // the clock starts at the first answer: starting up takes long on a busy machine
    const started = new Promise((r) => child.stdout.once('data', r));
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('failed ')) failed.push(Number(line.slice(7)));
        else if (line) acknowledged.push(Number(line));
      }
    });
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await Promise.race([started, exited]);
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 400));
      if (disk) {
        disk.fill();
        await new Promise((r) => setTimeout(r, 300));
        disk.free();
        await new Promise((r) => setTimeout(r, Math.random() * 400));
      }
    } finally {
      child.kill('SIGKILL');
      await exited;
      disk?.free();
    }
    expect(acknowledged.length - before).toBeGreaterThan(10);
  }
  return { acknowledged, failed };
}
