// A partial implementation for tests: the reference server behind a proxy (faults.ts) answering
// 404 for a seeded random half of the operations and of the test helpers, as a team's backend
// mid-way does (partial-target.test.ts for the suite, explore/explore.test.ts for explore).

import { findHelper, findOperation, helperOperations, operations } from '../oracle/document.ts';
import type { Fault } from './faults.ts';

/** A small seeded generator (mulberry32): the same seed removes the same half on every machine. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded random half of `names` (Fisher-Yates on a copy). */
function half(names: string[], next: () => number): string[] {
  const list = [...names];
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list.slice(0, Math.floor(list.length / 2));
}

/** The operations and test helpers a seed removes (never those in `keep`). */
export function removedBy(seed: number, keep: string[] = []): Set<string> {
  const next = random(seed);
  const candidates = (names: string[]) => names.filter((n) => !keep.includes(n));
  return new Set([
    ...half(candidates(operations.map((o) => o.name)), next),
    ...half(candidates(helperOperations.map((h) => h.name)), next),
  ]);
}

/** The unknown-route 404 of the document, and a web framework's 404 page (any 404 counts). */
export type Missing = { status: number; body: unknown; contentType?: string };
export const UNKNOWN_ROUTE: Missing = { status: 404, body: { err: true, success: false, content: 'Not found' } };
export const FRAMEWORK_PAGE: Missing = {
  status: 404,
  contentType: 'text/html',
  body: '<!DOCTYPE html><pre>Cannot GET</pre>',
};

/** The proxy's behaviour: what is removed answers as an unknown route, the rest (maybe faulty) goes through. */
export const partial = (removed: Set<string>, bug?: Fault, missing: Missing = UNKNOWN_ROUTE): Fault => ({
  ...bug,
  description: `${removed.size} operations and helpers removed${bug ? `, and ${bug.description}` : ''}`,
  grep: '',
  answer: (r) => {
    const name = findOperation(r.method, r.url.pathname)?.name ?? findHelper(r.method, r.url.pathname)?.name;
    return name && removed.has(name) ? missing : undefined;
  },
});
