// The snapshot file (ADR 0010): JSON that any tool reads (`jq`), laid out one record per line so
// that the store can write it and read it a line at a time. That keeps a million-record state
// below V8's string limit, lets a merger (a child process by default) fold a journal into the
// previous snapshot by copying the lines nobody changed, and lets a damaged file be reported by line number.
//
//   {"format":"marketplace-snapshot/1","seq":12,"counters":{"items":3},"feesCollected":40
//   ,"users":{
//   "76561198000000001":{...}
//   ,"76561198000000002":{...}
//   }
//   ,"items":{
//   }
//   ,"sum":"9a0c41f2"
//   }
//
// `sum` is the CRC-32 of every line before it, so a changed byte that still parses is found.
// Writes are durable: a temporary file beside the target (0600), fsync, atomic rename, fsync of
// the directory. Snapshots written as a single line by earlier versions are still read.
import { createReadStream, readdirSync, rmSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { crc32 } from 'node:zlib';
import { COLLECTIONS, type CollectionName, emptyState, type State } from '../domain/state.ts';
import { jsonProblem, StoreDamaged } from './damage.ts';
import type { StoreFiles } from './files.ts';
import { syncDirectory } from './files.ts';
import { isCollection, metaProblem, recordProblem } from './record-schemas.ts';

export const SNAPSHOT_FORMAT = 'marketplace-snapshot/1';
const HEADER_START = `{"format":"${SNAPSHOT_FORMAT}",`;
/** Lines are gathered into writes of about this many characters. */
const CHUNK = 1 << 20;

export interface SnapshotHeader {
  seq: number;
  counters: Record<string, number>;
  feesCollected: number;
}

export const headerLine = (h: SnapshotHeader): string =>
  `{"format":"${SNAPSHOT_FORMAT}","seq":${h.seq},"counters":${JSON.stringify(h.counters)},"feesCollected":${h.feesCollected}\n`;
export const openLine = (c: string): string => `,${JSON.stringify(c)}:{\n`;
export const recordLine = (first: boolean, id: string, row: unknown): string =>
  `${first ? '' : ','}${JSON.stringify(id)}:${JSON.stringify(row)}\n`;
export const CLOSE_LINE = '}\n';
const SUM_START = ',"sum":"';
const sumLine = (crc: number) => `${SUM_START}${crc.toString(16).padStart(8, '0')}"\n`;

/** Ends the lines of a snapshot (all but its last `}`) with the checksum line and the `}`. */
export async function* sealed(body: Iterable<string> | AsyncIterable<string>): AsyncGenerator<string> {
  let crc = 0;
  for await (const chunk of body) {
    crc = crc32(chunk, crc);
    yield chunk;
  }
  yield `${sumLine(crc)}${CLOSE_LINE}`;
}

/**
 * Checks the checksums of a snapshot read a line at a time: `line` every line but the last, in
 * order; `isSum` says whether a line is the checksum line, `matches` whether it holds.
 */
export function sumChecker() {
  let crc = 0;
  return {
    isSum: (line: string) => line.startsWith(SUM_START),
    matches: (line: string) => line === sumLine(crc).trimEnd(),
    add(line: string) {
      crc = crc32(`${line}\n`, crc);
    },
  };
}

/**
 * The lines of the snapshot of `state` but the checksum and the last `}` (`sealed` adds them),
 * in chunks; synchronous: the state must not change meanwhile.
 */
export function* snapshotChunks(state: State): Generator<string> {
  let chunk = headerLine(state);
  for (const c of COLLECTIONS) {
    chunk += openLine(c);
    let first = true;
    for (const [id, row] of Object.entries(state[c] as Record<string, unknown>)) {
      chunk += recordLine(first, id, row);
      first = false;
      if (chunk.length >= CHUNK) {
        yield chunk;
        chunk = '';
      }
    }
    chunk += CLOSE_LINE;
  }
  yield chunk;
}

/** The temporary files of snapshots of `path`: `.<name>.<pid>.<n>.tmp` beside it. */
const tempPrefix = (path: string) => `.${basename(path)}.`;
let temps = 0;
export function tempPath(path: string): string {
  temps += 1;
  return join(dirname(path), `${tempPrefix(path)}${process.pid}.${temps}.tmp`);
}

/** Removes temporary snapshot files a killed process left beside `path`. */
export function removeTempFiles(path: string): void {
  const prefix = tempPrefix(path);
  for (const name of readdirSync(dirname(path)))
    if (name.startsWith(prefix) && name.endsWith('.tmp')) rmSync(join(dirname(path), name), { force: true });
}

/** Writes a snapshot's lines durably as `path`, sealed with their checksum. */
export const writeSnapshotFile = (files: StoreFiles, path: string, body: Iterable<string> | AsyncIterable<string>) =>
  writeDurably(files, path, sealed(body));

/** Writes `chunks` durably as the file `path` (temporary file, fsync, rename, directory fsync). */
async function writeDurably(
  files: StoreFiles,
  path: string,
  chunks: Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  const tmp = tempPath(path);
  const file = await files.open(tmp, 'w');
  try {
    for await (const chunk of chunks) await file.appendFile(chunk);
    await file.sync();
  } catch (error) {
    await file.close().catch(() => {});
    await rm(tmp, { force: true });
    throw error;
  }
  await file.close();
  await rename(tmp, path);
  await syncDirectory(dirname(path));
}

/** One line of a snapshot as the line reader sees it. */
export type SnapshotLine =
  | { kind: 'open'; collection: string }
  | { kind: 'close' }
  | { kind: 'record'; first: boolean; id: string; rowText: string };

/** The end of the JSON string starting at `line[start]` (a `"`), or -1. */
function stringEnd(line: string, start: number): number {
  for (let i = start + 1; i < line.length; i += 1) {
    if (line[i] === '\\') i += 1;
    else if (line[i] === '"') return i;
  }
  return -1;
}

/** Classifies a line after the header; undefined when it is none of the snapshot's line kinds. */
export function classifyLine(line: string): SnapshotLine | undefined {
  if (line === '}') return { kind: 'close' };
  const comma = line.startsWith(',');
  const start = comma ? 1 : 0;
  if (line[start] !== '"') return undefined;
  const end = stringEnd(line, start);
  if (end < 0 || line[end + 1] !== ':') return undefined;
  let key: string;
  try {
    key = JSON.parse(line.slice(start, end + 1)) as string;
  } catch {
    return undefined;
  }
  const rest = line.slice(end + 2);
  if (rest === '{' && comma) return { kind: 'open', collection: key };
  return { kind: 'record', first: !comma, id: key, rowText: rest };
}

/** Why a parsed header is not one, or undefined. */
function headerProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `the snapshot is ${value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`}, not a state object`;
  return metaProblem(value);
}

/** Reads the snapshot at `path` line by line; throws `StoreDamaged` for anything but a whole, valid file. */
export async function readSnapshot(path: string): Promise<{ state: State; legacy: boolean }> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  const state = emptyState();
  const seen = new Set<string>();
  let n = 0;
  let collection: Record<string, unknown> | undefined;
  let name: CollectionName | undefined;
  let expectFirst = true;
  let ended = false;
  let summed = false;
  const sum = sumChecker();
  const damaged = (reason: string) => new StoreDamaged(path, n, reason);
  for await (const line of lines) {
    n += 1;
    if (!collection && !ended && sum.isSum(line)) {
      if (!sum.matches(line)) throw damaged('the checksum of the lines before does not match (a changed byte)');
      summed = true;
      continue;
    }
    sum.add(line);
    if (n === 1) {
      if (!line.startsWith(HEADER_START)) {
        lines.close();
        return { state: await readLegacySnapshot(path), legacy: true };
      }
      let header: unknown;
      try {
        header = JSON.parse(`${line}}`);
      } catch (error) {
        throw damaged(jsonProblem(error));
      }
      const problem = headerProblem(header);
      if (problem) throw damaged(problem);
      const { seq, counters, feesCollected } = header as SnapshotHeader;
      Object.assign(state, { seq, counters, feesCollected });
      continue;
    }
    if (ended) {
      if (line === '') continue;
      throw damaged('text after the closing brace');
    }
    const kind = classifyLine(line);
    if (!kind) throw damaged('not a line of a snapshot');
    if (!collection) {
      if (kind.kind === 'close') {
        if (!summed) throw damaged('the snapshot has no checksum line');
        ended = true;
        continue;
      }
      if (kind.kind !== 'open') throw damaged('a record outside of a collection');
      if (!isCollection(kind.collection)) throw damaged('an unknown collection');
      if (seen.has(kind.collection)) throw damaged(`collection ${kind.collection} appears twice`);
      seen.add(kind.collection);
      name = kind.collection;
      collection = state[name] as Record<string, unknown>;
      expectFirst = true;
      continue;
    }
    if (kind.kind === 'close') {
      collection = undefined;
      continue;
    }
    if (kind.kind !== 'record' || kind.first !== expectFirst) throw damaged('not a record line of the collection');
    expectFirst = false;
    let row: unknown;
    try {
      row = JSON.parse(kind.rowText);
    } catch (error) {
      throw damaged(jsonProblem(error));
    }
    const problem = recordProblem(name!, row);
    if (problem) throw damaged(problem);
    collection[kind.id] = row;
  }
  if (n === 0) throw new StoreDamaged(path, 1, 'the file is empty');
  if (!ended) throw damaged('the file ends before its closing brace (truncated)');
  return { state, legacy: false };
}

/** A snapshot written as one JSON document by an earlier version. */
async function readLegacySnapshot(path: string): Promise<State> {
  const text = await readFile(path, 'utf8');
  const lineAt = (position: number) => text.slice(0, position).split('\n').length;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec(String((error as Error).message));
    throw new StoreDamaged(path, at ? lineAt(Number(at[1])) : 1, jsonProblem(error));
  }
  const problem = headerProblem(value);
  if (problem) throw new StoreDamaged(path, 1, problem);
  const { seq, counters, feesCollected, ...collections } = value as SnapshotHeader & Record<string, unknown>;
  const state = emptyState();
  Object.assign(state, { seq, counters, feesCollected });
  for (const [c, records] of Object.entries(collections)) {
    if (!isCollection(c)) throw new StoreDamaged(path, 1, 'an unknown collection');
    if (typeof records !== 'object' || records === null || Array.isArray(records))
      throw new StoreDamaged(path, 1, `collection ${c} is not an object`);
    for (const row of Object.values(records)) {
      const bad = recordProblem(c, row);
      if (bad) throw new StoreDamaged(path, 1, bad);
    }
    (state as Record<string, unknown>)[c] = records;
  }
  return state;
}
