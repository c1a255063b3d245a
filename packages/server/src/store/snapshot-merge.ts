// A snapshot made without the request thread (ADR 0010): the previous snapshot file plus the
// rotated journal (`.journal.old`, every line durable) give the new snapshot, line by line. Lines
// of records no journal change touched are copied as they are; changed records are written from
// the journal; records created since are added at the end of their collection. It runs in a child
// process at a lower priority (`mergerProcess`, the default) or a worker thread (`mergeInWorker`),
// so a snapshot of a million records costs the event loop nothing but a message, and it reads
// files only, so it never sees a change that is not durable.
import { type ChildProcess, spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { COLLECTIONS } from '../domain/state.ts';
import { nodeFiles } from './files.ts';
import { parseJournal } from './journal.ts';
import {
  CLOSE_LINE,
  classifyLine,
  headerLine,
  openLine,
  recordLine,
  type SnapshotHeader,
  sumChecker,
  writeSnapshotFile,
} from './snapshot-file.ts';

export interface MergeJob {
  /** The current snapshot (in this module's line format). */
  snapshot: string;
  /** The rotated journal whose lines follow the snapshot's `seq`. */
  journal: string;
}

const CHUNK = 1 << 20;

/** The lines of the merged snapshot, gathered into chunks. */
async function* mergedChunks({ snapshot, journal }: MergeJob): AsyncGenerator<string> {
  const { lines } = parseJournal(await readFile(journal, 'utf8'), journal);
  const patch = new Map<string, Map<string, unknown>>();
  const meta = new Map<string, unknown>();
  let header: SnapshotHeader | undefined;
  let seq = 0;
  let chunk = '';
  let collection: Map<string, unknown> | undefined;
  let first = true;
  let inCollection = false;
  let ended = false;
  const seen = new Set<string>();
  const emitRest = (rows: Map<string, unknown> | undefined) => {
    for (const [id, row] of rows ?? []) {
      if (row === null) continue;
      chunk += recordLine(first, id, row);
      first = false;
    }
  };
  const input = createInterface({ input: createReadStream(snapshot, { encoding: 'utf8' }), crlfDelay: Infinity });
  const sum = sumChecker();
  let summed = false;
  for await (const line of input) {
    if (!inCollection && !ended && sum.isSum(line)) {
      // the snapshot changed since it was checked at start: do not carry the damage on
      if (!sum.matches(line)) throw new Error(`${snapshot}: the checksum does not match`);
      summed = true;
      continue;
    }
    sum.add(line);
    if (!header) {
      header = JSON.parse(`${line}}`) as SnapshotHeader;
      seq = header.seq;
      for (const l of lines) {
        if (l.seq <= header.seq) continue; // already in the snapshot (a merge cut short before)
        if (l.seq !== seq + 1) throw new Error(`${journal}: seq ${l.seq} does not follow the snapshot's ${seq}`);
        seq = l.seq;
        for (const { c, id, row } of l.changes) {
          if (c === 'meta') meta.set(id, row);
          else {
            if (!patch.has(c)) patch.set(c, new Map());
            patch.get(c)!.set(id, row);
          }
        }
      }
      const counters = { ...header.counters };
      let feesCollected = header.feesCollected;
      for (const [id, row] of meta) {
        if (id === 'feesCollected') feesCollected = row as number;
        else counters[id.slice('counter:'.length)] = row as number;
      }
      chunk += headerLine({ seq, counters, feesCollected });
      continue;
    }
    const kind = classifyLine(line);
    if (kind === undefined) {
      if (line === '') continue;
      throw new Error(`${snapshot}: not a line of a snapshot`);
    }
    if (kind.kind === 'open') {
      seen.add(kind.collection);
      inCollection = true;
      collection = patch.get(kind.collection);
      first = true;
      chunk += openLine(kind.collection);
    } else if (kind.kind === 'record') {
      if (collection?.has(kind.id)) {
        const row = collection.get(kind.id);
        collection.delete(kind.id);
        if (row !== null) chunk += recordLine(first, kind.id, row);
        else continue;
      } else chunk += first === kind.first ? `${line}\n` : recordLine(first, kind.id, JSON.parse(kind.rowText));
      first = false;
    } else if (inCollection) {
      // the end of a collection: the records created since the snapshot follow the others
      emitRest(collection);
      chunk += CLOSE_LINE;
      inCollection = false;
    } else {
      // the end of the snapshot: collections it lacks (an older version's file) come last
      for (const c of COLLECTIONS) {
        if (seen.has(c)) continue;
        chunk += openLine(c);
        first = true;
        emitRest(patch.get(c));
        chunk += CLOSE_LINE;
      }
      ended = true; // `sealed` adds the checksum and the last `}`
    }
    if (chunk.length >= CHUNK) {
      yield chunk;
      chunk = '';
    }
  }
  // a snapshot cut short must not become the next one (loading it would refuse the start)
  if (!ended || !summed) throw new Error(`${snapshot}: the snapshot ends before its checksum and closing brace`);
  yield chunk;
}

/** Writes the merged snapshot durably in place of `job.snapshot`. */
export async function merge(job: MergeJob): Promise<void> {
  await writeSnapshotFile(nodeFiles, job.snapshot, mergedChunks(job));
}

/** Runs `merge` in a worker thread; resolves once the new snapshot is durable. */
export function mergeInWorker(job: MergeJob): Promise<void> {
  return new Promise((done, failed) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: job });
    let answered = false;
    worker.once('message', (message: { error?: string }) => {
      answered = true;
      if (message.error) failed(new Error(message.error));
      else done();
    });
    worker.once('error', (error) => {
      answered = true;
      failed(error);
    });
    worker.once('exit', (code) => {
      if (!answered) failed(new Error(`the snapshot worker stopped (exit code ${code})`));
    });
  });
}

/** Merges in another process: `run` a job, `close` when the store closes. */
export interface Merger {
  run(job: MergeJob): Promise<void>;
  close(): void;
  /** The merging process's ID, once started (tests). */
  readonly pid: number | undefined;
}

/**
 * A child process that merges snapshots, at a lower CPU priority: on a machine with few cores the
 * merge then takes CPU time the request thread does not want, instead of competing with it. It is
 * started with the store, while the server is still small: starting a process copies the parent's
 * page tables, which blocked the event loop for tens of milliseconds (hundreds on a busy machine)
 * once the server held a million assets. It runs one job at a time and ends with its parent (its
 * IPC channel closes); it never keeps the parent alive.
 */
export function mergerProcess(): Merger {
  let child: ChildProcess | undefined;
  let pending: { done: () => void; failed: (e: Error) => void } | undefined;
  let queue: Promise<void> = Promise.resolve();
  let closed = false;

  const start = (): ChildProcess => {
    const started = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve'], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    try {
      if (started.pid) setPriority(started.pid, 10);
    } catch {
      // not allowed here: the merge runs at the server's priority
    }
    started.on('message', (message: { error?: string }) => {
      const waiting = pending;
      pending = undefined;
      idle(started);
      if (message.error) waiting?.failed(new Error(message.error));
      else waiting?.done();
    });
    started.once('error', (error) => {
      if (child === started) child = undefined;
      pending?.failed(error);
      pending = undefined;
    });
    started.once('exit', (code) => {
      if (child === started) child = undefined; // the next job starts a new one
      pending?.failed(new Error(`the snapshot merge process stopped (exit code ${code})`));
      pending = undefined;
    });
    idle(started);
    return started;
  };
  /** Without a job the child and its channel do not keep the server's event loop alive. */
  const idle = (c: ChildProcess) => {
    c.unref();
    (c.channel as { unref?: () => void } | undefined)?.unref?.();
  };
  const busy = (c: ChildProcess) => {
    c.ref();
    (c.channel as { ref?: () => void } | undefined)?.ref?.();
  };

  child = start();
  const runOne = (job: MergeJob) =>
    new Promise<void>((done, failed) => {
      if (closed) return failed(new Error('the store is closed'));
      child ??= start();
      pending = { done, failed };
      busy(child);
      // A child that died before the job reached it answers through `exit`; this only keeps the
      // failed write from becoming an unhandled 'error' event.
      child.send(job, (error) => {
        if (error) child?.kill();
      });
    });
  return {
    run(job) {
      const run = queue.then(() => runOne(job));
      queue = run.catch(() => {});
      return run;
    },
    close() {
      closed = true;
      child?.disconnect();
      child = undefined;
    },
    get pid() {
      return child?.pid;
    },
  };
}

if (!isMainThread && parentPort && (workerData as { snapshot?: unknown })?.snapshot) {
  const port = parentPort;
  merge(workerData as MergeJob).then(
    () => port.postMessage({}),
    (error: unknown) => port.postMessage({ error: String((error as Error)?.message ?? error) }),
  );
} else if (isMainThread && process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--serve') {
  // The merger process of `mergerProcess`: one job per message, an answer per job, and gone with its parent.
  // A parent gone while a merge ran (closed, killed) cannot be answered: the answer is dropped.
  const answer = (message: object) => {
    if (process.connected) process.send!(message, undefined, {}, () => {});
  };
  process.on('message', (job: MergeJob) => {
    merge(job).then(
      () => answer({}),
      (error: unknown) => answer({ error: String((error as Error)?.message ?? error) }),
    );
  });
  process.once('disconnect', () => process.exit(0));
  if (!process.connected) process.exit(0); // the parent left while this process was starting
}
