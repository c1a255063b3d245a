// Runs the suite against a target and writes its reports: the programmatic entry of the CLI and of
// the project's own tests (against the reference server, the mock and the planted faults).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { startVitest } from 'vitest/node';
import { rulesOf } from '../kit/rules.ts';
import { type Level, levelOf, type ReporterName } from '../kit/settings.ts';
import { readSkips, type SkipRecord } from '../kit/skip.ts';
import { namedOperations, operations } from '../oracle/document.ts';
import { writeBadge } from './badge.ts';
import { applyBaseline, type Baseline, readBaseline } from './baseline.ts';
import { changesSince, readPrevious } from './changes.ts';
import { coverage, readTraffic, totals, writeCoverage } from './coverage.ts';
import { grepPattern } from './grep.ts';
import { htmlReport } from './html-report.ts';
import { junitReport } from './junit.ts';
import { implementedOperations, operationNames, progressOf, requiredFailures } from './progress.ts';
import { type Failure, failureOf, type RunResult, type TestOutcome, writeResults } from './report.ts';

export { REPORTERS, type ReporterName } from '../kit/settings.ts';
export type { RunResult, TestOutcome } from './report.ts';

export interface RunOptions {
  target: string;
  level?: Level;
  readOnly?: boolean;
  /** Treat the target as a mock (Prism) without probing it. */
  mock?: boolean;
  grep?: string;
  reporters?: ReporterName[];
  apiKey?: string;
  adminApiKey?: string;
  blockedCountry?: string;
  out?: string;
  /** --operations: the only operations (report names) the run may call; tests needing others skip. */
  operations?: Iterable<string>;
  /** --require-all: an operation or test helper a test needs that answers 404 is a failure. */
  requireAll?: boolean;
  /** Print the progress, one line per file and one per failure (the CLI does; the project's tests do not). */
  quiet?: boolean;
  /** --baseline: a file of known failures (`baseline write`), reported but not failing until they expire. */
  baseline?: string;
  /** --previous: a previous run's summary.json (or results.json), to report what changed since. */
  previous?: string;
}

// The suite's root: conformance/ in the repository, dist/ of the installed package (compiled tests
// and vitest.config.js beside src/).
const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = import.meta.url.endsWith('.ts') ? 'vitest.config.ts' : 'vitest.config.js';

/** The reports a run writes into its out directory. */
export function reportFiles(options: Pick<RunOptions, 'reporters'>): string[] {
  return [
    'results.json',
    'coverage.md',
    'coverage.html',
    ...(options.reporters?.includes('junit') ? ['junit.xml'] : []),
    ...(options.reporters?.includes('html') ? ['report.html'] : []),
    ...(options.reporters?.includes('badge') ? ['badge.svg', 'summary.json'] : []),
  ];
}

/** Words of a test's name, joined as vitest's name filter and the skip records join them. */
function fullName(test: TestCase): string {
  const names = [test.name];
  for (let at = test.parent; at.type === 'suite'; at = at.parent) names.unshift(at.name);
  return names.join(' ');
}

/** The operation a test is about: the first one its name states, else the first it called. */
function mainOperation(named: string[], called: string[] | undefined): string | undefined {
  return named[0] ?? called?.find((op) => op !== 'POST /user/login') ?? called?.[0];
}

/** Failing tests a file lists as they happen before "and N more" (the summary groups them all). */
const LIVE_FAILURES = 5;

/** Collects every test's outcome and, unless quiet, prints one line per file and its first failures. */
class Collector implements Reporter {
  readonly modules: TestModule[] = [];
  readonly loadErrors: TestOutcome[] = [];
  readonly quiet: boolean;
  /** With --grep, files where nothing ran are not listed. */
  readonly grep: boolean;
  /** Failures the baseline lists are not printed as they happen. */
  readonly known: Set<string>;
  private shown = new Map<string, number>();
  constructor(quiet: boolean, grep: boolean, known: Set<string>) {
    this.quiet = quiet;
    this.grep = grep;
    this.known = known;
  }

  onTestCaseResult(test: TestCase): void {
    if (this.quiet || test.result().state !== 'failed' || this.known.has(fullName(test))) return;
    const file = test.module.moduleId;
    const n = (this.shown.get(file) ?? 0) + 1;
    this.shown.set(file, n);
    if (n <= LIVE_FAILURES) process.stdout.write(`    ✗ ${fullName(test)}\n`);
  }

  onTestModuleEnd(module: TestModule): void {
    this.modules.push(module);
    if (this.quiet) return;
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const t of module.children.allTests()) {
      const state = t.result().state;
      if (state === 'passed' || state === 'failed' || state === 'skipped') count[state] += 1;
    }
    const ok = count.failed === 0 && module.state() !== 'failed';
    if (this.grep && ok && count.passed === 0) return;
    const more = (this.shown.get(module.moduleId) ?? 0) - LIVE_FAILURES;
    if (more > 0) process.stdout.write(`    ✗ and ${more} more (grouped in the summary)\n`);
    const ms = Math.round(module.diagnostic().duration);
    process.stdout.write(
      `${ok ? '✓' : '✗'} ${relative(ROOT, module.moduleId)}  ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped (${ms} ms)\n`,
    );
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<{ message?: string }>): void {
    for (const e of errors)
      this.loadErrors.push({
        name: 'an error outside any test',
        file: '',
        area: 'suite',
        level: 'behavior',
        state: 'failed',
        reason: e.message ?? String(e),
        failure: failureOf({ message: e.message ?? String(e) }, {}),
      });
  }
}

/** Every test of the run with its state, reason and, for a failure, what to fix. */
function outcomesOf(collector: Collector, skips: Map<string, SkipRecord>, grep: string | undefined): TestOutcome[] {
  const unexplained = grep ? `left out by --grep ${grep}` : 'skipped without a recorded reason';
  const outcomes: TestOutcome[] = [...collector.loadErrors];
  for (const module of collector.modules) {
    const file = relative(ROOT, module.moduleId);
    const area = basename(file).replace(/\.test\.ts$/, '');
    const level = levelOf(file);
    for (const error of module.errors())
      outcomes.push({
        name: `${file} could not run`,
        file,
        area,
        level,
        state: 'failed',
        reason: error.message,
        failure: failureOf(error, {}),
      });
    for (const test of module.children.allTests()) {
      const name = fullName(test);
      const meta = test.meta();
      const result = test.result();
      const named = namedOperations(name).map((o) => o.name);
      const operation = mainOperation(named, meta.operations);
      // Rules named in the test's options (`rule(...)`) or in its title (`[R-…]`).
      const rules = [...new Set([...(meta.rules ?? []), ...rulesOf(name)])];
      const outcome: TestOutcome = {
        name,
        file,
        area,
        ...(operation ? { operation } : {}),
        ...(named.length > 1 ? { operations: named } : {}),
        level,
        state: result.state === 'passed' ? 'passed' : result.state === 'failed' ? 'failed' : 'skipped',
        ...(rules.length ? { rules } : {}),
        ...(meta.sides?.length ? { sides: meta.sides } : {}),
        ...(meta.meanings?.length ? { meanings: meta.meanings } : {}),
        duration: Math.round(test.diagnostic()?.duration ?? 0),
      };
      if (result.state === 'failed') {
        const failure: Failure = failureOf(result.errors[0] ?? { message: 'failed' }, meta, operation, rules);
        outcome.failure = failure;
        outcome.reason = failure.text;
      } else if (outcome.state === 'skipped') {
        const note = result.state === 'skipped' ? result.note : undefined;
        const record = skips.get(name);
        outcome.reason = record?.reason ?? note ?? unexplained;
        if (record?.missing?.length) outcome.missing = record.missing;
        if (record?.outOfScope?.length) outcome.outOfScope = record.outOfScope;
      }
      outcomes.push(outcome);
    }
  }
  return outcomes;
}

/** How many skipped tests each missing operation or test helper held back. */
function missingCounts(outcomes: TestOutcome[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const o of outcomes) for (const name of o.missing ?? []) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

/** Runs the suite once and returns what passed, failed and was skipped (with reasons). */
export async function runConformance(options: RunOptions): Promise<RunResult> {
  const out = resolve(options.out ?? 'conformance/reports');
  const baseline: Baseline | undefined = options.baseline ? readBaseline(options.baseline) : undefined;
  const previous = options.previous ? readPrevious(options.previous) : undefined;
  mkdirSync(out, { recursive: true });
  readTraffic(out); // a previous run's leftovers
  readSkips(out);
  Object.assign(process.env, {
    CONFORMANCE_TARGET: options.target,
    CONFORMANCE_LEVEL: options.level ?? 'all',
    CONFORMANCE_READ_ONLY: options.readOnly ? '1' : '0',
    CONFORMANCE_MOCK: options.mock ? '1' : '0',
    CONFORMANCE_OUT: out,
    CONFORMANCE_OPERATIONS: options.operations ? [...options.operations].join('\n') : '',
    CONFORMANCE_REQUIRE_ALL: options.requireAll ? '1' : '0',
    ...(options.apiKey ? { MARKETPLACE_API_KEY: options.apiKey } : {}),
    ...(options.adminApiKey ? { MARKETPLACE_ADMIN_API_KEY: options.adminApiKey } : {}),
    ...(options.blockedCountry ? { MARKETPLACE_BLOCKED_COUNTRY: options.blockedCountry } : {}),
  });
  const known = new Set(baseline?.failures.map((f) => f.test));
  const collector = new Collector(options.quiet ?? false, options.grep !== undefined, known);
  const vitest = await startVitest('test', [], {
    root: ROOT,
    config: resolve(ROOT, CONFIG),
    watch: false,
    reporters: [collector],
    testNamePattern: options.grep === undefined ? undefined : grepPattern(options.grep),
    silent: options.quiet,
  });
  await vitest?.close();
  const outcomes = outcomesOf(collector, readSkips(out), options.grep);
  const traffic = readTraffic(out);
  const rows = coverage(traffic);
  const scope = options.operations ? operationNames(options.operations) : undefined;
  const progress = progressOf(traffic, outcomes, { scope, missing: missingCounts(outcomes) });
  if (options.requireAll) outcomes.push(...requiredFailures(progress));
  const used = baseline && options.baseline ? applyBaseline(outcomes, baseline, options.baseline) : undefined;
  writeCoverage(out, rows, options.target, outcomes);
  const perLevel = (level: 'contract' | 'behavior') => {
    const mine = outcomes.filter((o) => o.level === level);
    return {
      operations: implementedOperations(traffic.filter((s) => s.level === level)).size,
      of: operations.length,
      passed: mine.filter((o) => o.state === 'passed').length,
      failed: mine.filter((o) => o.state === 'failed' && !o.known).length,
      skipped: mine.filter((o) => o.state === 'skipped').length,
    };
  };
  const failed = outcomes.filter((o) => o.state === 'failed');
  const result: RunResult = {
    target: options.target,
    level: options.level ?? 'all',
    readOnly: options.readOnly ?? false,
    ...(options.requireAll ? { requireAll: true } : {}),
    ...(scope ? { scope: [...scope] } : {}),
    passed: outcomes.filter((o) => o.state === 'passed').length,
    failed: failed.filter((o) => !o.known),
    known: failed.filter((o) => o.known),
    skipped: outcomes.filter((o) => o.state === 'skipped'),
    outcomes,
    levels: { contract: perLevel('contract'), behavior: perLevel('behavior') },
    coverage: totals(rows),
    // Counted again: the baseline made some failures known, --require-all added some.
    progress: progressOf(traffic, outcomes, { scope, missing: missingCounts(outcomes) }),
    ...(used ? { baseline: used } : {}),
    out,
  };
  if (previous) result.changes = changesSince(previous, result);
  writeResults(out, result);
  if (options.reporters?.includes('junit')) writeFileSync(join(out, 'junit.xml'), junitReport(result));
  if (options.reporters?.includes('html')) writeFileSync(join(out, 'report.html'), htmlReport(result));
  if (options.reporters?.includes('badge')) writeBadge(out, result);
  return result;
}

/** The reports of a run that are there (the console names only those). */
export const writtenReports = (result: RunResult, options: Pick<RunOptions, 'reporters'>): string[] =>
  reportFiles(options).filter((f) => existsSync(join(result.out, f)));
