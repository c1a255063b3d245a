// What a test leaves for the reports besides pass or fail, carried in vitest's task metadata (set
// in the worker, read by the reporter in the CLI's process): the seed rules it checks, the
// operations it called, and the exchange its failure is about.
// Type-only: the CLI's process loads this file for the sentences without loading vitest.
import type {} from 'vitest';
import { RULES } from './rules.ts';

/** An exchange as a failure report shows it. */
export interface ExchangeNote {
  /** `METHOD /path` of the document. */
  operation: string;
  status: number;
  /** The response body, cut to a readable length. */
  body: string;
  /** The curl line that reproduces the request. */
  curl: string;
}

declare module 'vitest' {
  interface TaskMeta {
    /** The IDs of the seed rules the test checks (`rule('R-CART-3')`). */
    rules?: string[];
    /** The document's operations the test called, in first-call order. */
    operations?: string[];
    /** The last exchange with an operation of the document. */
    last?: ExchangeNote;
    /** The exchange a failed check was about (`assertThat`, `assertConforms`). */
    subject?: ExchangeNote;
    /** The sides of its rules the test checks (`sides(...)`): shown per rule in the rule matrix. */
    sides?: Side[];
    /** The fields and events whose documented meaning the test's data tells apart (meanings.ts). */
    meanings?: string[];
  }
}

/**
 * The sides of a rule a test can check (issue 22): a time rule one second before, at and one second
 * after its boundary; a list's documented order (and its tie-break) and each page; a computed
 * amount at inputs where floor, round and ceil differ; a count served at its number and refused one
 * past it; a promise of the test-helper contract.
 */
export type Side =
  | 'before'
  | 'at'
  | 'after'
  | 'order'
  | 'tie-break'
  | 'first page'
  | 'middle page'
  | 'last page'
  | 'past the end'
  | 'floor ≠ round'
  | 'round ≠ ceil'
  | 'at the limit'
  | 'past the limit'
  | 'helper contract';

/** Test options naming the rules a test checks and the sides of them it checks. */
export const sides = (list: Side[], ...ids: string[]): { meta: { rules: string[]; sides: Side[] } } => ({
  meta: { rules: ids, sides: list },
});

/**
 * Test options naming the seed rules a test checks:
 * `it('Given …, then …', rule('R-CART-3', 'R-CART-4'), async (ctx) => { … })`.
 * The reports print each rule's ID and sentence with the test's failure and in the rule matrix.
 */
export const rule = (...ids: string[]): { meta: { rules: string[] } } => ({ meta: { rules: ids } });

/** The seed's words of each rule by ID (rules.ts; the document's for a rule of its own), for the reports. */
export const RULE_SENTENCES: ReadonlyMap<string, string> = new Map(
  RULES.map((r) => [r.id, [...r.seed, ...(r.document ?? [])].join(' / ')]),
);

/** `R-CART-3 "sentence"`, or the bare ID when the sentence is unknown. */
export const ruleLine = (id: string): string => {
  const sentence = RULE_SENTENCES.get(id);
  return sentence ? `${id} "${sentence}"` : id;
};
