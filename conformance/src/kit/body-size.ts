// How many bytes of body the document lets an operation read ("Request bodies"): "what its request
// schema admits: every string at its `maxLength` (or the longest its `pattern` admits), 9 bytes per
// character (a form-encoded `%E2%82%AC`), every array at its `maxItems`, plus 1,024 bytes". The
// sentence counts strings and arrays only; a server may count field names, numbers and separators
// on top, and the longest string of a pattern generously. So the suite takes two counts: the
// least that sentence allows (every server reads a body that long) and the most any reading of it
// gives (no server reads a body far past it). Counted here, not by @marketplace/contract's
// body-limit.ts: the suite is an independent oracle (ADR 0026).
import { derefIn, type Json } from '../oracle/document.ts';

/** "9 bytes per character (a form-encoded `%E2%82%AC`)". */
export const BYTES_PER_CHARACTER = 9;
/** "plus 1,024 bytes". */
export const SLACK_BYTES = 1024;

/**
 * `least`: only what the sentence names (a string bounded by its pattern alone counts as long as
 * the pattern's largest repetition count, which the longest string it admits reaches at least: the
 * suite does not work out that longest string). `most`: every name, number, quote and separator too,
 * a pattern's string as long as the pattern times its largest repetition.
 */
export type Reading = 'least' | 'most';

/** Bytes the most generous reading gives a name, a number or a boolean, or the room around a value. */
const ROOM = 64;

/** The bytes an operation's request body may have by `reading`; Infinity when its schema bounds nothing. */
export function bodyBytes(doc: Json, requestBody: Json, reading: Reading): number {
  const content: Json = derefIn(doc, requestBody)?.content ?? {};
  const counts = Object.values<Json>(content).map((media) => valueBytes(doc, media.schema, reading, 0));
  return Math.max(...counts) + SLACK_BYTES;
}

function valueBytes(doc: Json, raw: Json, reading: Reading, depth: number): number {
  const schema = derefIn(doc, raw);
  if (!schema || typeof schema !== 'object' || depth > 32) return Number.POSITIVE_INFINITY;
  const most = reading === 'most';
  const inner = (s: Json) => valueBytes(doc, s, reading, depth + 1);
  const branches: Json[] = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  if (branches.length) return Math.max(...branches.map(inner));
  if (schema.allOf) {
    const parts: number[] = schema.allOf.map(inner);
    return most ? parts.reduce((a, b) => a + b, 0) : Math.min(...parts);
  }
  if (Array.isArray(schema.enum) || schema.const !== undefined) {
    const values: unknown[] = schema.enum ?? [schema.const];
    return most ? Math.max(...values.map((v) => JSON.stringify(v).length * BYTES_PER_CHARACTER)) : 0;
  }
  const types: string[] = [schema.type ?? []].flat();
  if (types.includes('string')) {
    const length = typeof schema.maxLength === 'number' ? schema.maxLength : patternLength(schema.pattern, reading);
    return length * BYTES_PER_CHARACTER + (most ? ROOM : 0);
  }
  if (types.includes('array')) {
    if (typeof schema.maxItems !== 'number') return Number.POSITIVE_INFINITY;
    return schema.maxItems * (inner(schema.items ?? {}) + (most ? ROOM : 0));
  }
  if (types.includes('object') || schema.properties) {
    const named = Object.entries<Json>(schema.properties ?? {}).map(
      ([name, sub]) => inner(sub) + (most ? name.length * BYTES_PER_CHARACTER + ROOM : 0),
    );
    const extra = schema.additionalProperties;
    // A map's entries: the sentence names none; the most generous reading allows `maxProperties` of them.
    const entries =
      !most || !extra || typeof extra !== 'object'
        ? 0
        : typeof schema.maxProperties === 'number'
          ? schema.maxProperties * (inner(extra) + inner(schema.propertyNames ?? { type: 'string', maxLength: ROOM }))
          : Number.POSITIVE_INFINITY;
    return named.reduce((a, b) => a + b, 0) + entries + (most ? ROOM : 0);
  }
  // A number, a boolean, null, or a schema without a type.
  return most ? ROOM : 0;
}

/** The longest string an anchored pattern admits, as `reading` counts it (Infinity: unbounded). */
function patternLength(pattern: unknown, reading: Reading): number {
  if (typeof pattern !== 'string') return Number.POSITIVE_INFINITY;
  const anchored = pattern.startsWith('^') && pattern.endsWith('$');
  const counts = [...pattern.matchAll(/\{(?:\d+,)?(\d+)\}/g)].map((m) => Number(m[1]));
  // Each repetition of `[0-9]{1,20}` takes a character, so `^[0-9]{1,20}$` admits 20 of them: the
  // sentence's "the longest its pattern admits" is never shorter than the largest count.
  if (reading === 'least') return anchored ? Math.max(0, ...counts) : 0;
  if (!anchored || /(?<!\\)[*+]|\{\d*,\}/.test(pattern)) return Number.POSITIVE_INFINITY;
  return pattern.length * Math.max(1, ...counts);
}
