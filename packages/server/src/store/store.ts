// Persistence of the engine's state (ADR 0001, failure modes in ADR 0010). Every committed unit of
// work is appended to a journal as one JSON line and fsync'd before the response that
// acknowledges it is sent; commits arriving together share one write and one fsync (group
// commit: group-commit.ts, ADR 0027). The store is the commit point: a unit of work is applied to
// the state at once (later commands build on it), and if its journal write fails it is undone
// from its before-images, together with every later change not yet durable, and the journal is
// cut back to its last good line. Periodically a child process at a lower priority
// (StoreOptions.merger) folds the journal into a new snapshot file. Loading checks every file and
// refuses a damaged one (`StoreDamaged`) without changing anything.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { emptyState, type State, upgradeState } from '../domain/state.ts';
import { applyChanges, type Tx } from '../domain/tx.ts';
import { StoreDamaged } from './damage.ts';
import { codeOr } from './error-code.ts';
import { DIRECTORY_MODE, FILE_MODE, nodeFiles, type StoreFile, type StoreFiles, syncDirectory } from './files.ts';
import { GroupCommit, RefusedChange, StoreWriteError } from './group-commit.ts';
import { journalLine, type ParsedJournal, parseJournal } from './journal.ts';
import { readSnapshot, removeTempFiles, snapshotChunks, writeSnapshotFile } from './snapshot-file.ts';
import { merge, mergeInWorker, mergerProcess } from './snapshot-merge.ts';

export interface Store {
  state: State;
  /** True when nothing was ever committed (the caller seeds demo data). */
  created: boolean;
  /**
   * Commits a unit of work: applies it to `state` and journals it; resolves once it is durable.
   * When the journal write fails, the change and every later one not yet durable are undone in
   * `state` and their promises reject with `StoreWriteError`.
   */
  commit(tx: Tx): Promise<void>;
  /**
   * Brings `state` up to what other instances on the same database committed (ADR 0019); called
   * before each request. A no-op for a store only this process writes.
   */
  sync(): Promise<void>;
  /**
   * True when other processes write to the same state (PostgreSQL): only then does a request need
   * `sync` first. A store only this process writes skips it (a resolved await per request costs
   * the read path about a tenth of its throughput).
   */
  readonly replicated: boolean;
  /**
   * PostgreSQL: the shared world's version that the last `sync` read in its query, so that the
   * world asks for its own rows only when it is behind (one round trip per request, not two).
   */
  worldVersion?: number;
  /** Writes a snapshot (off the request thread: StoreOptions.merger) and starts a new journal. */
  snapshot(): Promise<void>;
  /** Replaces the whole state (test helpers' reset) durably. */
  replace(state: State): Promise<void>;
  close(): Promise<void>;
  /**
   * Why the store refuses every write, or undefined. Set when a failed journal write could not be
   * cut back (the journal's end is unknown): only a restart, which checks the files, clears it.
   */
  readonly refusal: string | undefined;
}

export interface StoreOptions {
  /** Commits between automatic snapshots. */
  snapshotEvery?: number;
  /** The file port (tests inject failing writes). */
  files?: StoreFiles;
  /**
   * Where snapshots are merged: a child process at a lower priority (default), a worker thread,
   * or the calling thread (tests).
   */
  merger?: 'process' | 'worker' | 'inline';
}

function memoryStore(): Store {
  const store: Store = {
    state: emptyState(),
    created: true,
    refusal: undefined,
    commit: async (tx) => {
      tx.commit();
    },
    sync: async () => {},
    replicated: false,
    snapshot: async () => {},
    replace: async (state) => {
      store.state = state;
    },
    close: async () => {},
  };
  return store;
}

const errorCode = (error: unknown): string => codeOr(error, String);

/**
 * Loads the snapshot and replays the journals after it, checking everything: a complete line that
 * does not parse, a record of the wrong shape, a `seq` out of order or a gap after the snapshot is
 * damage. Only the bytes after the last newline of the last journal written may be torn.
 */
async function load(path: string, journalPaths: string[]): Promise<{ state: State; legacy: boolean }> {
  const snapshot = existsSync(path) ? await readSnapshot(path) : { state: emptyState(), legacy: false };
  const { state } = snapshot;
  const journals: (ParsedJournal & { file: string })[] = journalPaths
    .filter((file) => existsSync(file))
    .map((file) => ({ file, ...parseJournal(readFileSync(file, 'utf8'), file) }));
  journals.forEach((j, i) => {
    if (j.tornBytes > 0 && journals.slice(i + 1).some((later) => later.lines.length > 0 || later.tornBytes > 0))
      throw new StoreDamaged(j.file, j.tornLine, 'an incomplete line followed by a later journal');
  });
  let replaying = false;
  for (const { file, lines } of journals) {
    for (const [i, line] of lines.entries()) {
      if (!replaying && line.seq <= state.seq) continue; // already in the snapshot
      if (line.seq !== state.seq + 1)
        throw new StoreDamaged(file, i + 1, `seq ${line.seq} where ${state.seq + 1} was expected (lines are missing)`);
      applyChanges(state, line.changes);
      state.seq = line.seq;
      replaying = true;
    }
  }
  return { state: upgradeState(state), legacy: snapshot.legacy };
}

/** Opens the store at `path` (`:memory:` keeps everything in memory). */
export async function openStore(path: string, options: StoreOptions = {}): Promise<Store> {
  if (path === ':memory:') return memoryStore();
  const { snapshotEvery = 5_000, files = nodeFiles, merger = 'process' } = options;
  const dir = dirname(path);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: DIRECTORY_MODE });
  const journalPath = `${path}.journal`;
  const oldJournalPath = `${path}.journal.old`;
  const journalPaths = [oldJournalPath, journalPath];

  // The merge process starts before the state is loaded, while this process is small (ADR 10).
  const mergers = merger === 'process' ? mergerProcess() : undefined;
  // Nothing is written before every file has been checked: a damaged store stays as it was.
  let loaded: Awaited<ReturnType<typeof load>>;
  try {
    loaded = await load(path, journalPaths);
  } catch (error) {
    mergers?.close();
    throw error;
  }
  const state = loaded.state;
  removeTempFiles(path); // a snapshot cut short by a kill
  // Start from one snapshot and no journal: new lines must never follow torn bytes, and a later
  // rotation must not overwrite a `.journal.old` whose lines are in no snapshot yet.
  const unclean = journalPaths.some((f) => existsSync(f) && statSync(f).size > 0);
  if (unclean || loaded.legacy || !existsSync(path)) await writeSnapshotFile(files, path, snapshotChunks(state));
  else chmodSync(path, FILE_MODE); // written 0644 by an earlier version
  for (const f of journalPaths) rmSync(f, { force: true });
  await syncDirectory(dir);

  let journal: StoreFile = await files.open(journalPath, 'a');
  /** Bytes of the journal known to be durable: a failed write is cut back to here. */
  let journalSize = 0;
  let sinceSnapshot = 0;
  // Snapshots and replacements run one at a time on this one.
  let snapshots: Promise<void> = Promise.resolve();
  let autoSnapshot = false;

  /** Cuts the journal back to its last good line after a failed write; refuses writes if it cannot. */
  const cutBack = async (): Promise<void> => {
    try {
      await journal.truncate(journalSize);
      await journal.sync();
    } catch (cut) {
      commits.refuse(
        `the journal could not be cut back after a failed write (${errorCode(cut)}); restart the server once the disk is writable`,
      );
    }
  };

  // Commits arriving together share one append and one fsync (ADR 0027).
  const commits: GroupCommit<string> = new GroupCommit({
    state: () => store.state,
    durableSeq: state.seq,
    entry: journalLine,
    write: async (batch) => {
      const text = batch.map((b) => b.entry).join('');
      await journal.appendFile(text);
      await journal.sync();
      journalSize += Buffer.byteLength(text);
    },
    // The journal refuses no content by itself; a file port may (tests poison one unit through it).
    refusedChange: (error) => error instanceof RefusedChange,
    failed: (batch, error) =>
      commits.rollBackAfter(
        cutBack,
        batch,
        new StoreWriteError(`the journal write failed (${errorCode(error)}); nothing of it was kept`),
      ),
    queued: (durable) => {
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
    },
  });

  /** Starts a new journal; the old one becomes `.journal.old`, which the next merge folds in. */
  const rotate = async (): Promise<void> => {
    renameSync(journalPath, oldJournalPath);
    let next: StoreFile;
    try {
      next = await files.open(journalPath, 'a');
    } catch (error) {
      renameSync(oldJournalPath, journalPath);
      throw error;
    }
    const previous = journal;
    journal = next;
    journalSize = 0;
    sinceSnapshot = 0;
    await previous.close();
  };

  const mergeOld = async (): Promise<void> => {
    const run = mergers?.run ?? { worker: mergeInWorker, inline: merge }[merger as 'worker' | 'inline'];
    await run({ snapshot: path, journal: oldJournalPath });
    rmSync(oldJournalPath, { force: true });
    await syncDirectory(dir);
  };

  const writeSnapshot = async (): Promise<void> => {
    if (commits.refusal) throw new StoreWriteError(commits.refusal);
    if (existsSync(oldJournalPath)) await mergeOld(); // a merge that failed before goes first
    if (journalSize === 0 && commits.waiting === 0) return; // nothing since the last snapshot
    await commits.onChain(rotate);
    await mergeOld();
  };

  /** Runs `job` after every snapshot or replacement before it. */
  const serialized = (job: () => Promise<void>): Promise<void> => {
    const run = snapshots.then(job);
    snapshots = run.catch(() => {});
    return run;
  };

  const store: Store = {
    state,
    created: state.seq === 0,
    get refusal() {
      return commits.refusal;
    },
    commit: (tx) => commits.commit(tx),
    sync: async () => {},
    replicated: false,
    snapshot() {
      return serialized(writeSnapshot);
    },
    replace(next) {
      return serialized(async () => {
        await commits.drain(); // every change to the old state is settled: none can be undone into `next`
        next.seq = store.state.seq + 1;
        store.state = next;
        commits.durableSeq = next.seq;
        const copy = structuredClone(next); // later commits change `next` while it is written
        await commits.onChain(async () => {
          try {
            await writeSnapshotFile(files, path, snapshotChunks(copy));
          } catch (error) {
            // the journal's lines after this point would follow a state no file holds
            commits.refuse(`a replacement state could not be written (${errorCode(error)}); restart the server`);
            throw error;
          }
          await journal.close();
          for (const f of journalPaths) rmSync(f, { force: true });
          journal = await files.open(journalPath, 'a');
          journalSize = 0;
          sinceSnapshot = 0;
        });
      });
    },
    async close() {
      try {
        await commits.drain();
        if (!commits.refusal) await store.snapshot();
        await snapshots;
      } finally {
        await journal.close();
        mergers?.close();
      }
    },
  };
  return store;
}
