// A team's progress through the document, operation by operation: which operations the target
// implements (it answered something other than the unknown-route 404), and for each how its tests
// fared. A team mid-way reads here what is done, what is broken and what to write next; with
// --require-all (a release gate) every operation in scope that is not implemented is a failure.

import { operations } from '../oracle/document.ts';
import type { Seen } from './coverage.ts';
import type { TestOutcome } from './report.ts';

export type OperationState =
  | 'passing'
  | 'failing'
  | 'known failures'
  | 'not implemented'
  | 'not tested'
  | 'not in scope';

export interface OperationProgress {
  operation: string;
  state: OperationState;
  /** It answered at least one request with something other than 404. */
  implemented: boolean;
  passed: number;
  failed: number;
  /** Failures listed in the baseline (reported, not failing). */
  known: number;
  skipped: number;
  /** Tests skipped because this operation answered 404 (the skip records' `missing`). */
  waiting: number;
}

export interface Progress {
  /** Operations of the document. */
  of: number;
  implemented: number;
  passing: number;
  failing: number;
  known: number;
  notImplemented: number;
  notTested: number;
  notInScope: number;
  operations: OperationProgress[];
  /** Test helpers (and operations) whose 404 made tests skip, with how many tests each held back. */
  missing: { name: string; tests: number }[];
}

/** An answer of 404 is the unknown route: every other status proves the route exists. */
const answered = (s: Seen) => s.status !== 404;

/** The operations that answered something other than the unknown-route 404. */
export const implementedOperations = (seen: Seen[]): Set<string> => new Set(seen.filter(answered).map((s) => s.op));

/** Document operation names for names or operationIds, as `--operations` takes them (unknown ones kept as given). */
export const operationNames = (given: Iterable<string>): Set<string> =>
  new Set([...given].map((g) => operations.find((o) => o.id === g || o.name === g)?.name ?? g));

/**
 * The operations a test counts for: a failure where it is pinned; otherwise each operation its name
 * states (`POST /item/buyorder, /update, /remove` counts for all three), else the one it is about.
 */
export const countsFor = (o: TestOutcome): string[] => {
  if (o.state === 'failed') {
    const pinned = o.failure?.operation ?? o.operation;
    return pinned ? [pinned] : [];
  }
  return o.operations ?? (o.operation ? [o.operation] : []);
};

/** Each operation of the document with its state and the tally of its tests. */
export function progressOf(
  seen: Seen[],
  outcomes: TestOutcome[],
  options: { scope?: Set<string>; missing?: Map<string, number> } = {},
): Progress {
  const implemented = implementedOperations(seen);
  const called = new Set(seen.map((s) => s.op));
  const missing = options.missing ?? new Map<string, number>();
  const rows = operations.map(({ name }): OperationProgress => {
    const mine = outcomes.filter((o) => countsFor(o).includes(name));
    const tally = {
      passed: mine.filter((o) => o.state === 'passed').length,
      failed: mine.filter((o) => o.state === 'failed' && !o.known).length,
      known: mine.filter((o) => o.state === 'failed' && o.known).length,
      skipped: mine.filter((o) => o.state === 'skipped').length,
    };
    const isImplemented = implemented.has(name);
    const state: OperationState =
      options.scope && !options.scope.has(name)
        ? 'not in scope'
        : !isImplemented && (called.has(name) || missing.has(name))
          ? 'not implemented'
          : tally.failed
            ? 'failing'
            : tally.known
              ? 'known failures'
              : isImplemented
                ? 'passing'
                : 'not tested';
    return { operation: name, state, implemented: isImplemented, ...tally, waiting: missing.get(name) ?? 0 };
  });
  const count = (state: OperationState) => rows.filter((r) => r.state === state).length;
  return {
    of: rows.length,
    implemented: rows.filter((r) => r.implemented).length,
    passing: count('passing'),
    failing: count('failing'),
    known: count('known failures'),
    notImplemented: count('not implemented'),
    notTested: count('not tested'),
    notInScope: count('not in scope'),
    operations: rows,
    missing: [...missing].map(([name, tests]) => ({ name, tests })).sort((a, b) => b.tests - a.tests),
  };
}

/** The name of the failure --require-all adds for an operation that is missing. */
export const requiredName = (operation: string): string => `${operation} is implemented (--require-all)`;

/**
 * With --require-all, a failed outcome for every operation in scope that the run did not see
 * implemented and that no failing test names already (the tests needing a missing operation fail
 * on it under --require-all): a release gate passes only when every operation answered.
 */
export function requiredFailures(progress: Progress): TestOutcome[] {
  return progress.operations
    .filter((r) => (r.state === 'not implemented' || r.state === 'not tested') && r.failed === 0)
    .map((r) => {
      const why =
        r.state === 'not implemented'
          ? 'not implemented: it answered only 404 (the unknown route)'
          : 'not tested: no request of this run reached it (--grep, --level, --read-only or missing credentials)';
      const text = `${why}; --require-all makes a missing operation a failure`;
      return {
        name: requiredName(r.operation),
        file: 'operations',
        area: 'progress',
        operation: r.operation,
        level: 'contract',
        state: 'failed',
        reason: text,
        failure: { summary: `${r.operation}: ${text}`, operation: r.operation, rules: [], text },
      };
    });
}

const ICON: Record<OperationState, string> = {
  passing: '✓',
  failing: '✗',
  'known failures': '~',
  'not implemented': '·',
  'not tested': '?',
  'not in scope': '-',
};

/** One line: how far the target is. */
export function progressHeadline(p: Progress): string {
  const parts = [`${p.passing} passing`, `${p.failing} failing`];
  if (p.known) parts.push(`${p.known} with known failures only`);
  const rest = [`${p.notImplemented} not implemented`];
  if (p.notTested) rest.push(`${p.notTested} not tested`);
  if (p.notInScope) rest.push(`${p.notInScope} not in scope (--operations)`);
  return `${p.implemented} of ${p.of} operations implemented: ${parts.join(', ')}; ${rest.join(', ')}`;
}

/** The progress table as text (console, JUnit's system-out): one row per operation. */
export function progressTable(p: Progress): string[] {
  const width = Math.max(...p.operations.map((r) => r.operation.length));
  const order: OperationState[] = [
    'failing',
    'known failures',
    'passing',
    'not implemented',
    'not tested',
    'not in scope',
  ];
  const rows = [...p.operations].sort((a, b) => order.indexOf(a.state) - order.indexOf(b.state));
  return [
    `${'  operation'.padEnd(width + 4)}  state            passed failed known skipped waiting-on-it`,
    ...rows.map((r) =>
      `${ICON[r.state]} ${r.operation.padEnd(width + 2)}  ${r.state.padEnd(16)} ${String(r.passed).padStart(6)} ${String(r.failed).padStart(6)} ${String(r.known).padStart(5)} ${String(r.skipped).padStart(7)} ${r.waiting ? String(r.waiting).padStart(13) : ''}`.trimEnd(),
    ),
  ];
}

/** Names wrapped into lines of about `width` characters, each line indented by `indent`. */
function wrapped(names: string[], indent: string, width = 110): string[] {
  const lines: string[] = [];
  let line = '';
  for (const name of names) {
    if (line && indent.length + line.length + name.length + 2 > width) {
      lines.push(`${indent}${line},`);
      line = '';
    }
    line = line ? `${line}, ${name}` : name;
  }
  if (line) lines.push(`${indent}${line}`);
  return lines;
}

/**
 * The console's progress: the headline, a line per failing operation with its counts, and the
 * other states as lists of names (the full table is in results.json, report.html and junit.xml).
 */
export function progressLines(p: Progress): string[] {
  const lines = [`Progress: ${progressHeadline(p)}`];
  const of = (state: OperationState) => p.operations.filter((r) => r.state === state);
  for (const r of [...of('failing'), ...of('known failures')])
    lines.push(
      `  ${ICON[r.state]} ${r.operation}: ${r.failed} failed${r.known ? `, ${r.known} known` : ''}, ${r.passed} passed, ${r.skipped} skipped`,
    );
  const list = (state: OperationState, label: string, name = (r: OperationProgress) => r.operation) => {
    // Most awaited first: what to write next.
    const rows = of(state).sort((a, b) => b.waiting - a.waiting);
    if (rows.length) lines.push(`  ${ICON[state]} ${label} (${rows.length}):`, ...wrapped(rows.map(name), '      '));
  };
  if (p.passing < p.of) list('passing', 'passing');
  list('not implemented', 'not implemented, most awaited first', (r) =>
    r.waiting ? `${r.operation} (${r.waiting} tests wait)` : r.operation,
  );
  // Many when --grep or --level cut the run short: then the count says enough.
  if (p.notTested > 20)
    lines.push(`  ${ICON['not tested']} not tested (no request of this run reached it): ${p.notTested}`);
  else list('not tested', 'not tested (no request of this run reached it)');
  // The team chose them: the count says enough when they are many.
  if (p.notInScope > 20) lines.push(`  ${ICON['not in scope']} not in scope (--operations): ${p.notInScope}`);
  else list('not in scope', 'not in scope (--operations)');
  const helpers = p.missing.filter((m) => !operations.some((o) => o.name === m.name));
  if (helpers.length)
    lines.push(
      `  · test helpers answering 404 (${helpers.length}):`,
      ...wrapped(
        helpers.map((m) => `${m.name} (${m.tests} tests wait)`),
        '      ',
      ),
    );
  return lines;
}
