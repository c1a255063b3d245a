// Persistence of the engine's state (ADR 0001). Every committed unit of work is appended to a
// journal as one JSON line and fsync'd before the response that acknowledges it is sent; commits
// arriving together share one write and one fsync (group commit). Periodically the whole state is
// written as a lowdb snapshot and the journal starts afresh, so no request rewrites every record.
// Recovery loads the snapshot, then replays the journal lines it does not contain yet; a torn last
// line (a crash mid-write, never acknowledged) is ignored, and the journals of an unclean stop are
// folded into a snapshot at once.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Low } from 'lowdb';
import { emptyState, type State, upgradeState } from '../domain/state.ts';
import { applyChanges, type Change } from '../domain/tx.ts';
import { DurableJsonFile } from './snapshot-file.ts';

export interface Store {
  state: State;
  /** True when the store was created empty (the caller seeds demo data). */
  created: boolean;
  /** Journals changes already applied to `state`; resolves once they are durable. */
  append(changes: Change[]): Promise<void>;
  /** Writes a snapshot and starts a new journal. */
  snapshot(): Promise<void>;
  /** Replaces the whole state (test helpers' reset) durably. */
  replace(state: State): Promise<void>;
  close(): Promise<void>;
}

interface Line {
  seq: number;
  changes: Change[];
}

/** Parses journal lines newer than `after`, stopping at a torn or corrupt line. */
export function readJournal(text: string, after: number): Line[] {
  const lines: Line[] = [];
  for (const raw of text.split('\n')) {
    if (!raw) continue;
    try {
      const line = JSON.parse(raw) as Line;
      if (line.seq > after) lines.push(line);
    } catch {
      break; // a torn tail: written but never acknowledged
    }
  }
  return lines;
}

function memoryStore(): Store {
  const store: Store = {
    state: emptyState(),
    created: true,
    append: async () => {},
    snapshot: async () => {},
    replace: async (state) => {
      store.state = state;
    },
    close: async () => {},
  };
  return store;
}

/** Opens the store at `path` (`:memory:` keeps everything in memory). */
export async function openStore(path: string, { snapshotEvery = 5_000 } = {}): Promise<Store> {
  if (path === ':memory:') return memoryStore();
  mkdirSync(dirname(path), { recursive: true });
  const journalPath = `${path}.journal`;
  const oldJournalPath = `${path}.journal.old`;
  const db = new Low<State>(new DurableJsonFile<State>(path), emptyState());
  const noSnapshot = !existsSync(path);
  await db.read();
  const state = db.data;
  for (const file of [oldJournalPath, journalPath]) {
    if (!existsSync(file)) continue;
    for (const line of readJournal(readFileSync(file, 'utf8'), state.seq)) {
      applyChanges(state, line.changes);
      state.seq = line.seq;
    }
  }
  upgradeState(state); // after replay: journaled rows are as old as the version that wrote them

  // New only when nothing was ever committed: a crash before the first snapshot leaves a journal.
  const created = noSnapshot && state.seq === 0;
  // A clean close leaves empty journals. After an unclean stop, fold them into a snapshot before
  // appending again: new lines must not follow a torn tail (recovery stops there), and a later
  // rotation must not overwrite a `.journal.old` whose lines are in no snapshot yet.
  if ([oldJournalPath, journalPath].some((f) => existsSync(f) && statSync(f).size > 0)) {
    db.data = state;
    await db.write();
    rmSync(oldJournalPath, { force: true });
    rmSync(journalPath, { force: true });
  }
  let journal: FileHandle = await open(journalPath, 'a');
  let queue: { line: string; done: () => void; failed: (e: unknown) => void }[] = [];
  // Flushes and journal rotations run one at a time, in order, on this chain.
  let chain: Promise<void> = Promise.resolve();
  let flushScheduled = false;
  let sinceSnapshot = 0;
  let snapshots: Promise<void> = Promise.resolve();
  let autoSnapshot = false;

  const flush = async (): Promise<void> => {
    flushScheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    try {
      await journal.appendFile(batch.map((b) => b.line).join(''));
      await journal.sync();
      for (const b of batch) b.done();
    } catch (error) {
      for (const b of batch) b.failed(error);
    }
  };

  /** Starts a new journal; the returned state copy holds every change of the old one. */
  const rotate = async (): Promise<State> => {
    const data = structuredClone(store.state);
    renameSync(journalPath, oldJournalPath);
    const previous = journal;
    journal = await open(journalPath, 'a');
    await previous.close();
    sinceSnapshot = 0;
    return data;
  };

  const writeSnapshot = async (): Promise<void> => {
    let data!: State;
    chain = chain.then(async () => {
      data = await rotate();
    });
    await chain;
    db.data = data;
    await db.write();
    rmSync(oldJournalPath, { force: true });
  };

  const store: Store = {
    state,
    created,
    append(changes) {
      if (changes.length === 0) return Promise.resolve();
      store.state.seq += 1;
      const line = `${JSON.stringify({ seq: store.state.seq, changes })}\n`;
      const durable = new Promise<void>((done, failed) => queue.push({ line, done, failed }));
      if (!flushScheduled) {
        flushScheduled = true;
        chain = chain.then(() => new Promise<void>((r) => setImmediate(r))).then(flush);
      }
      sinceSnapshot += 1;
      if (sinceSnapshot >= snapshotEvery && !autoSnapshot) {
        autoSnapshot = true;
        durable
          .then(() => store.snapshot())
          .catch(() => {}) // the journal still holds everything; the next snapshot retries
          .finally(() => {
            autoSnapshot = false;
          });
      }
      return durable;
    },
    snapshot() {
      const run = snapshots.then(writeSnapshot);
      snapshots = run.catch(() => {});
      return run;
    },
    async replace(next) {
      next.seq = store.state.seq + 1;
      store.state = next;
      await store.snapshot();
    },
    async close() {
      await chain;
      await store.snapshot();
      await journal.close();
    },
  };
  return store;
}
