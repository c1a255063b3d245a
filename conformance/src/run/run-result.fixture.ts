// A run made up for the reports' tests: its totals and progress computed from the outcomes given and
// what the target answered, the rest (levels, coverage) plain unless a test sets them.
import type { Seen } from './coverage.ts';
import { progressOf } from './progress.ts';
import type { RunResult, TestOutcome } from './report.ts';

/** The run of these outcomes against a target that answered `seen`. */
export function madeUpRun(outcomes: TestOutcome[], seen: Seen[], more: Partial<RunResult> = {}): RunResult {
  const level = { operations: 0, of: 104, passed: 0, failed: 0, skipped: 0 };
  return {
    target: 'http://127.0.0.1:9',
    level: 'all',
    readOnly: false,
    passed: outcomes.filter((o) => o.state === 'passed').length,
    failed: outcomes.filter((o) => o.state === 'failed' && !o.known),
    known: outcomes.filter((o) => o.state === 'failed' && o.known),
    skipped: outcomes.filter((o) => o.state === 'skipped'),
    outcomes,
    levels: { contract: level, behavior: level },
    coverage: { operations: { hit: 0, all: 104 }, statuses: { hit: 0, all: 531 }, messages: { hit: 0, all: 317 } },
    progress: progressOf(seen, outcomes),
    out: '/tmp/out',
    ...more,
  };
}
