// The known-failures baseline: how a team adopts the suite in CI on day one. `baseline write`
// records the failures of a run (test name, rule IDs, operation, each with an optional expiry
// date); a run with `--baseline <file>` reports those failures as known (listed, not failing) until
// they expire, and lists the entries whose test now passes so the file can shrink.
import { readFileSync, writeFileSync } from 'node:fs';
import type { RunResult, TestOutcome } from './report.ts';

export interface BaselineEntry {
  /** The test's name as the reports print it. */
  test: string;
  /** The seed rules the test names. */
  rules?: string[];
  /** The operation the failure was pinned on, and its one-line summary when recorded: for people. */
  operation?: string;
  summary?: string;
  /** `YYYY-MM-DD`: known until the end of that day (UTC), then a failure again. */
  expires?: string;
}

export interface Baseline {
  $comment?: string;
  failures: BaselineEntry[];
}

/** What a baseline made of a run. */
export interface BaselineUse {
  file: string;
  /** Failures the baseline lists (reported, not failing). */
  known: number;
  /** Entries whose test passed: remove them (`baseline write` does). */
  fixed: BaselineEntry[];
  /** Entries past their date whose test still fails: failures again. */
  expired: BaselineEntry[];
  /** Entries whose test did not run or was skipped. */
  notRun: BaselineEntry[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `value` is a real calendar date written `YYYY-MM-DD`. */
export const isDate = (value: string): boolean =>
  DATE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** Reads a baseline file; a file that is not one throws a one-line error naming what is wrong. */
export function readBaseline(file: string): Baseline {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read the baseline ${file}: ${(e as Error).message.split('\n')[0]}`);
  }
  const failures = (parsed as Baseline | null)?.failures;
  if (!Array.isArray(failures)) throw new Error(`the baseline ${file} has no "failures" list`);
  failures.forEach((f, i) => {
    if (typeof f?.test !== 'string') throw new Error(`the baseline ${file}: failures[${i}] has no "test" name`);
    if (f.expires !== undefined && !(typeof f.expires === 'string' && isDate(f.expires)))
      throw new Error(`the baseline ${file}: failures[${i}].expires must be a date YYYY-MM-DD, got ${f.expires}`);
  });
  return parsed as Baseline;
}

/** Today as `YYYY-MM-DD` (UTC). */
export const today = (now = new Date()): string => now.toISOString().slice(0, 10);

const expiredOn = (entry: BaselineEntry, day: string) => entry.expires !== undefined && entry.expires < day;

/** Where the tests an earlier run named stand in this one: failing still, passing now, or not run. */
export interface Standing<T> {
  failing: [T, TestOutcome][];
  passed: [T, TestOutcome][];
  notRun: T[];
}

/**
 * Sorts tests named by an earlier run (a baseline's entries, the failures of a previous run's
 * summary) by how each fared in this run, matched by the name the reports print.
 */
export function standing<T extends { test: string }>(entries: T[], outcomes: TestOutcome[]): Standing<T> {
  const byName = new Map(outcomes.map((o) => [o.name, o]));
  const sorted: Standing<T> = { failing: [], passed: [], notRun: [] };
  for (const entry of entries) {
    const o = byName.get(entry.test);
    if (!o || o.state === 'skipped') sorted.notRun.push(entry);
    else if (o.state === 'passed') sorted.passed.push([entry, o]);
    else sorted.failing.push([entry, o]);
  }
  return sorted;
}

/**
 * Marks the run's failures the baseline lists as known (until their date) and says which entries
 * now pass, expired or did not run. Changes the outcomes in place.
 */
export function applyBaseline(outcomes: TestOutcome[], baseline: Baseline, file: string, day = today()): BaselineUse {
  const { failing, passed, notRun } = standing(baseline.failures, outcomes);
  const use: BaselineUse = { file, known: 0, fixed: passed.map(([entry]) => entry), expired: [], notRun };
  for (const [entry, o] of failing) {
    if (expiredOn(entry, day)) {
      use.expired.push(entry);
      o.baseline = { ...(entry.expires ? { expires: entry.expires } : {}), expired: true };
    } else {
      o.known = entry.expires ? { expires: entry.expires } : {};
      use.known += 1;
    }
  }
  return use;
}

/**
 * The baseline of a run: every failure (known ones keep their date; new ones get `expires` when
 * given). What passed is left out, so a baseline written again shrinks as the team fixes.
 */
export function baselineOf(result: Pick<RunResult, 'outcomes' | 'target'>, expires?: string): Baseline {
  const failures = result.outcomes
    .filter((o) => o.state === 'failed')
    .map(
      (o): BaselineEntry => ({
        test: o.name,
        ...(o.rules?.length ? { rules: o.rules } : {}),
        ...((o.failure?.operation ?? o.operation) ? { operation: o.failure?.operation ?? o.operation } : {}),
        ...(o.failure?.summary ? { summary: o.failure.summary } : {}),
        ...((o.known?.expires ?? expires) ? { expires: o.known?.expires ?? expires } : {}),
      }),
    );
  return {
    $comment: `Known failures of marketplace-conformance against ${result.target}: reported, not failing, until "expires" (YYYY-MM-DD, UTC). Written by \`marketplace-conformance baseline write\`; write it again to drop what was fixed.`,
    failures,
  };
}

/** Writes a baseline file. */
export function writeBaseline(file: string, baseline: Baseline): void {
  writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
}
