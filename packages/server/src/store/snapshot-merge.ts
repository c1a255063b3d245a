// A snapshot made without the request thread (ADR 0010): the previous snapshot file plus the
// rotated journal (`.journal.old`, every line durable) give the new snapshot, line by line. Lines
// of records no journal change touched are copied as they are; changed records are written from
// the journal; records created since are added at the end of their collection. It runs in a
// worker thread (`mergeInWorker`), so a snapshot of a million records costs the event loop nothing
// but a message, and it reads files only, so it never sees a change that is not durable.
import { spawn } from 'node:child_process';
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

/**
 * Runs `merge` in a child process at a lower CPU priority: on a machine with few cores the merge
 * then takes CPU time the request thread does not want, instead of competing with it.
 */
export function mergeInProcess(job: MergeJob): Promise<void> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), job.snapshot, job.journal], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      if (child.pid) setPriority(child.pid, 10);
    } catch {
      // not allowed here: the merge runs at the server's priority
    }
    let error = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      error += d;
    });
    child.once('error', failed);
    child.once('exit', (code) => {
      if (code === 0) done();
      else failed(new Error(`the snapshot merge failed (exit code ${code}): ${error.trim().split('\n')[0] ?? ''}`));
    });
  });
}

if (!isMainThread && parentPort && (workerData as { snapshot?: unknown })?.snapshot) {
  const port = parentPort;
  merge(workerData as MergeJob).then(
    () => port.postMessage({}),
    (error: unknown) => port.postMessage({ error: String((error as Error)?.message ?? error) }),
  );
} else if (isMainThread && process.argv[1] === fileURLToPath(import.meta.url)) {
  const [snapshot, journal] = process.argv.slice(2);
  merge({ snapshot: snapshot!, journal: journal! }).catch((error: unknown) => {
    process.stderr.write(`${String((error as Error)?.message ?? error)}\n`);
    process.exitCode = 1;
  });
}
