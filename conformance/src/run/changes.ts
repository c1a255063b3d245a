// What changed since a previous run (`--previous <summary.json>`): the tests failing now that did
// not fail then (by operation), the failures of then that pass now, and the operations that answer
// now and did not then. The previous run is the `summary.json` of `--reporter badge` (its `states`
// and `failures`) or a `results.json`; tests are matched by name as the baseline matches them
// (baseline.ts `standing`), operations by their report name.
import { readFileSync } from 'node:fs';
import type { RunSummary } from './badge.ts';
import { standing } from './baseline.ts';
import { countsFor, type OperationState, type Progress } from './progress.ts';
import type { RunResult, TestOutcome } from './report.ts';

/** A previous run as `--previous` reads it. */
export interface PreviousRun {
  file: string;
  date?: string;
  target?: string;
  counts: { passed: number; failed: number; skipped: number };
  implemented?: number;
  /** Each operation's state then; absent in a summary.json written before the suite recorded it. */
  states?: Record<string, OperationState>;
  /** The names of the tests that failed then; absent likewise. */
  failures?: string[];
}

/** An operation in a list of changes: its state now and the tests that changed. */
export interface ChangedOperation {
  operation: string;
  state: OperationState;
  tests: string[];
}

export interface Changes {
  file: string;
  date?: string;
  target?: string;
  /** Then and now. */
  counts: Record<'passed' | 'failed' | 'skipped' | 'implemented', [number | undefined, number]>;
  /** Operations with a test failing now that did not fail then (or failing now, passing then). */
  newlyFailing: ChangedOperation[];
  /** Operations with a test that failed then and passes now (or failing then, passing now). */
  fixed: ChangedOperation[];
  /**
   * Operations that answer now (passing, failing or with known failures) and answered only 404
   * then, or were left out by --operations (not those no test reached then: --grep, --level).
   */
  newlyImplemented: ChangedOperation[];
  /** Why the lists are empty whatever happened: the previous file has no states or failures. */
  limited?: string;
}

/** The states of an operation that answered (progress.ts: anything other than the unknown-route 404). */
const ANSWERED: OperationState[] = ['passing', 'failing', 'known failures'];

/** The states of an operation the team had not written then (or not yet put in scope). */
const UNWRITTEN: (OperationState | undefined)[] = ['not implemented', 'not in scope', undefined];

/** Reads a previous run's summary.json or results.json; a file that is neither throws one line. */
export function readPrevious(file: string): PreviousRun {
  let parsed: Partial<RunSummary & RunResult> | null;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read the previous run ${file}: ${(e as Error).message.split('\n')[0]}`);
  }
  if (Array.isArray(parsed?.outcomes) && parsed.progress) {
    // results.json: the run itself.
    const run = parsed as RunResult;
    return {
      file,
      target: run.target,
      counts: { passed: run.passed, failed: run.failed.length, skipped: run.skipped.length },
      implemented: run.progress.implemented,
      states: Object.fromEntries(run.progress.operations.map((r) => [r.operation, r.state])),
      failures: run.outcomes.filter((o) => o.state === 'failed').map((o) => o.name),
    };
  }
  const summary = parsed as RunSummary | null;
  if (typeof summary?.counts?.passed !== 'number')
    throw new Error(`the previous run ${file} is neither a summary.json (--reporter badge) nor a results.json`);
  return {
    file,
    date: summary.date,
    target: summary.target,
    counts: summary.counts,
    ...(summary.operations ? { implemented: summary.operations.implemented } : {}),
    ...(summary.states ? { states: summary.states } : {}),
    ...(summary.failures ? { failures: summary.failures } : {}),
  };
}

/** Tests by operation, each operation with its state now, in the document's order of the progress. */
function byOperation(tests: TestOutcome[], progress: Progress, also: string[] = []): ChangedOperation[] {
  const state = new Map(progress.operations.map((r) => [r.operation, r.state]));
  const names = new Map<string, string[]>();
  for (const op of also) names.set(op, []);
  // Each operation the test counts for, as the progress credits it.
  for (const t of tests)
    for (const op of countsFor(t).length ? countsFor(t) : ['(no operation)'])
      names.set(op, [...(names.get(op) ?? []), t.name]);
  const order = progress.operations.map((r) => r.operation);
  const at = (op: string) => (order.includes(op) ? order.indexOf(op) : order.length);
  return [...names]
    .sort(([a], [b]) => at(a) - at(b) || a.localeCompare(b))
    .map(([operation, tests]) => ({ operation, state: state.get(operation) ?? 'not tested', tests }));
}

/** What changed between a previous run and this one. */
export function changesSince(
  previous: PreviousRun,
  now: Pick<RunResult, 'outcomes' | 'progress' | 'passed' | 'failed' | 'skipped'>,
): Changes {
  const counts: Changes['counts'] = {
    passed: [previous.counts.passed, now.passed],
    failed: [previous.counts.failed, now.failed.length],
    skipped: [previous.counts.skipped, now.skipped.length],
    implemented: [previous.implemented, now.progress.implemented],
  };
  const base = { file: previous.file, date: previous.date, target: previous.target, counts };
  const then = previous.states;
  if (!then || !previous.failures)
    return {
      ...base,
      newlyFailing: [],
      fixed: [],
      newlyImplemented: [],
      limited: `${previous.file} has no operation states or failing tests (a summary.json written by an earlier version of the suite): only the counts are compared`,
    };
  const rows = now.progress.operations;
  const before = new Set(previous.failures);
  const { passed } = standing(
    previous.failures.map((test) => ({ test })),
    now.outcomes,
  );
  // A known failure (baseline) is listed by the baseline, not as news.
  const failing = now.outcomes.filter((o) => o.state === 'failed' && !o.known && !before.has(o.name));
  // Operations whose state alone changed, for tests a name change or --grep hides from the lists.
  const turned = (from: (s: OperationState | undefined) => boolean, to: OperationState) =>
    rows.filter((r) => r.state === to && from(then[r.operation])).map((r) => r.operation);
  return {
    ...base,
    newlyFailing: byOperation(
      failing,
      now.progress,
      turned((s) => s !== 'failing', 'failing'),
    ),
    fixed: byOperation(
      passed.map(([, o]) => o),
      now.progress,
      turned((s) => s === 'failing', 'passing'),
    ),
    newlyImplemented: rows
      .filter((r) => ANSWERED.includes(r.state) && UNWRITTEN.includes(then[r.operation]))
      .map((r) => ({ operation: r.operation, state: r.state, tests: [] })),
  };
}

/** `12 (+3)`: a count now with its change since then. */
export function delta([then, now]: [number | undefined, number]): string {
  if (then === undefined || then === now) return String(now);
  return `${now} (${now > then ? '+' : ''}${now - then})`;
}

/** The console's lines about the changes. */
export function changesLines(c: Changes): string[] {
  const when = c.date ? ` of ${c.date}` : '';
  // The first few by name; report.html and results.json list them all with their tests.
  const names = (list: ChangedOperation[]) =>
    list.length
      ? `: ${list
          .slice(0, 6)
          .map((o) => o.operation)
          .join(', ')}${list.length > 6 ? `, and ${list.length - 6} more` : ''}`
      : '';
  return [
    `Since the previous run (${c.file}${when}): passed ${delta(c.counts.passed)}, failed ${delta(c.counts.failed)}, operations implemented ${delta(c.counts.implemented)}`,
    ...(c.limited
      ? [`  ${c.limited}`]
      : [
          `  newly failing: ${c.newlyFailing.length} operations${names(c.newlyFailing)}`,
          `  fixed: ${c.fixed.length} operations${names(c.fixed)}`,
          `  newly implemented: ${c.newlyImplemented.length} operations${names(c.newlyImplemented)}`,
        ]),
  ];
}
