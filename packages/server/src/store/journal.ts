// The journal's lines (ADR 0001, 0010): one JSON line `{"sum", seq, changes}` per durable commit,
// where `sum` is the CRC-32 of the rest of the line, so a changed byte that still parses is found.
// Loading is strict: every complete line must parse, match its sum, hold changes the engine can
// apply (records checked against their schemas) and carry the next `seq`. Only bytes after the
// last newline may be bad: a write cut by a crash, never acknowledged (an acknowledgement waits
// for the whole line's fsync). Lines of earlier versions carry no sum; a file is one or the other.
import { crc32 } from 'node:zlib';
import type { Change } from '../domain/tx.ts';
import { jsonProblem, StoreDamaged } from './damage.ts';
import { isCollection, isCounter, isFeesCollected, recordProblem } from './record-schemas.ts';

export interface JournalLine {
  seq: number;
  changes: Change[];
}

export interface ParsedJournal {
  lines: JournalLine[];
  /** Bytes after the last newline (a torn write), 0 when the file ends with a newline. */
  tornBytes: number;
  /** The line number of the torn tail, for the error when a torn tail is not the last thing written. */
  tornLine: number;
}

const SUM_START = '{"sum":"';
/** `{"sum":"xxxxxxxx",` */
const SUM_PREFIX_LENGTH = SUM_START.length + 8 + 2;
const sumOf = (body: string): string => crc32(body).toString(16).padStart(8, '0');

/** The journal line of a commit, newline included. */
export function journalLine(seq: number, changes: Change[]): string {
  const body = JSON.stringify({ seq, changes }).slice(1);
  return `${SUM_START}${sumOf(body)}",${body}\n`;
}

/** Why a line's checksum does not hold, or undefined (`summed`: the file's lines carry sums). */
function sumProblem(raw: string, summed: boolean): string | undefined {
  if (!raw.startsWith(SUM_START)) return summed ? 'the line has no checksum' : undefined;
  if (!summed) return 'a line with a checksum in a journal without';
  if (raw.slice(SUM_PREFIX_LENGTH - 2, SUM_PREFIX_LENGTH) !== '",') return 'a malformed checksum';
  const sum = raw.slice(SUM_START.length, SUM_PREFIX_LENGTH - 2);
  return sumOf(raw.slice(SUM_PREFIX_LENGTH)) === sum ? undefined : 'the checksum does not match (a changed byte)';
}

/** Why `raw` is not a change the engine can apply, or undefined. */
function changeProblem(raw: unknown, index: number): string | undefined {
  const at = `change ${index + 1}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return `${at} is not an object`;
  const { c, id, row } = raw as Record<string, unknown>;
  if (typeof id !== 'string') return `${at} has no string id`;
  if (c === 'meta') {
    if (id === 'feesCollected') return isFeesCollected(row) ? undefined : `${at} sets feesCollected to a non-integer`;
    if (id.startsWith('counter:')) return isCounter(row) ? undefined : `${at} sets a counter to a non-count`;
    return `${at} names an unknown meta value`;
  }
  if (!isCollection(c)) return `${at} names an unknown collection`;
  if (row === null) return undefined;
  const problem = recordProblem(c, row);
  return problem && `${at}: ${problem}`;
}

/** Why a parsed line is not a journal line, or undefined. */
function lineProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a journal line object';
  const { seq, changes, sum, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return 'an unknown field';
  if (sum !== undefined && typeof sum !== 'string') return 'a malformed checksum';
  if (!Number.isSafeInteger(seq) || (seq as number) < 1) return 'seq is not a positive integer';
  if (!Array.isArray(changes)) return 'changes is not a list';
  for (const [i, change] of changes.entries()) {
    const problem = changeProblem(change, i);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Parses and checks a journal's text. Throws `StoreDamaged` naming `file` and the line for a bad
 * complete line or a `seq` that does not follow the previous line's.
 */
export function parseJournal(text: string, file: string): ParsedJournal {
  const lines: JournalLine[] = [];
  const end = text.lastIndexOf('\n') + 1;
  let lineNumber = 0;
  let start = 0;
  const summed = text.startsWith(SUM_START);
  while (start < end) {
    const stop = text.indexOf('\n', start);
    const raw = text.slice(start, stop);
    start = stop + 1;
    lineNumber += 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new StoreDamaged(file, lineNumber, jsonProblem(error));
    }
    const badSum = sumProblem(raw, summed);
    if (badSum) throw new StoreDamaged(file, lineNumber, badSum);
    const problem = lineProblem(value);
    if (problem) throw new StoreDamaged(file, lineNumber, problem);
    const { seq, changes } = value as JournalLine;
    const line = { seq, changes };
    const previous = lines.at(-1);
    if (previous && line.seq !== previous.seq + 1)
      throw new StoreDamaged(
        file,
        lineNumber,
        `seq ${line.seq} follows seq ${previous.seq} (expected ${previous.seq + 1})`,
      );
    lines.push(line);
  }
  return { lines, tornBytes: Buffer.byteLength(text.slice(end)), tornLine: lineNumber + 1 };
}
