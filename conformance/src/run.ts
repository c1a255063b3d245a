// Runs the suite against a target and writes its reports: the programmatic entry of the CLI and of
// the project's own tests (against the reference server, the mock and the planted faults).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startVitest } from 'vitest/node';
import { coverage, readTraffic, totals, writeCoverage } from './coverage.ts';
import { operations } from './document.ts';
import { htmlReport, type RunResult, type TestOutcome, writeResults } from './report.ts';
import { type Level, levelOf } from './settings.ts';
import { readSkips } from './skip.ts';

export type { RunResult, TestOutcome } from './report.ts';

export interface RunOptions {
  target: string;
  level?: Level;
  readOnly?: boolean;
  /** Treat the target as a mock (Prism) without probing it. */
  mock?: boolean;
  grep?: string;
  reporters?: ('junit' | 'json' | 'html')[];
  apiKey?: string;
  adminApiKey?: string;
  blockedCountry?: string;
  out?: string;
  /** Print vitest's progress (the CLI does; the project's tests do not). */
  quiet?: boolean;
}

const ROOT = resolve(import.meta.dirname, '..');

/** The reports a run writes into its out directory. */
export function reportFiles(options: Pick<RunOptions, 'reporters'>): string[] {
  return [
    'results.json',
    'coverage.md',
    'coverage.html',
    ...(options.reporters?.includes('junit') ? ['junit.xml'] : []),
    ...(options.reporters?.includes('html') ? ['report.html'] : []),
  ];
}

/** Runs the suite once and returns what passed, failed and was skipped (with reasons). */
export async function runConformance(options: RunOptions): Promise<RunResult> {
  const out = resolve(options.out ?? 'conformance/reports');
  mkdirSync(out, { recursive: true });
  readTraffic(out); // a previous run's leftovers
  readSkips(out);
  Object.assign(process.env, {
    CONFORMANCE_TARGET: options.target,
    CONFORMANCE_LEVEL: options.level ?? 'all',
    CONFORMANCE_READ_ONLY: options.readOnly ? '1' : '0',
    CONFORMANCE_MOCK: options.mock ? '1' : '0',
    CONFORMANCE_OUT: out,
    ...(options.apiKey ? { MARKETPLACE_API_KEY: options.apiKey } : {}),
    ...(options.adminApiKey ? { MARKETPLACE_ADMIN_API_KEY: options.adminApiKey } : {}),
    ...(options.blockedCountry ? { MARKETPLACE_BLOCKED_COUNTRY: options.blockedCountry } : {}),
  });
  const jsonFile = join(out, 'vitest.json');
  const reporters: unknown[] = [...(options.quiet ? [] : ['default']), ['json', { outputFile: jsonFile }]];
  if (options.reporters?.includes('junit')) reporters.push(['junit', { outputFile: join(out, 'junit.xml') }]);
  const vitest = await startVitest('test', [], {
    root: ROOT,
    config: resolve(ROOT, 'vitest.config.ts'),
    watch: false,
    reporters: reporters as never,
    testNamePattern: options.grep,
    silent: options.quiet,
  });
  await vitest?.close();
  const raw = JSON.parse(readFileSync(jsonFile, 'utf8')) as {
    testResults: {
      name: string;
      assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
    }[];
  };
  const skipReasons = readSkips(out);
  const unexplained = options.grep ? `left out by --grep ${options.grep}` : 'skipped without a recorded reason';
  const outcomes: TestOutcome[] = raw.testResults.flatMap((f) =>
    f.assertionResults.map((a) => ({
      name: a.fullName,
      file: f.name.replace(`${ROOT}/`, ''),
      level: levelOf(f.name),
      state: a.status === 'passed' ? 'passed' : a.status === 'failed' ? 'failed' : 'skipped',
      reason: a.status === 'failed' ? a.failureMessages.join('\n') : (skipReasons.get(a.fullName) ?? unexplained),
    })),
  );
  for (const o of outcomes) if (o.state === 'passed') delete o.reason;
  const traffic = readTraffic(out);
  const rows = coverage(traffic);
  writeCoverage(out, rows, options.target, outcomes);
  const perLevel = (level: 'contract' | 'behavior') => {
    const mine = outcomes.filter((o) => o.level === level);
    return {
      operations: new Set(traffic.filter((s) => s.level === level).map((s) => s.op)).size,
      of: operations.length,
      passed: mine.filter((o) => o.state === 'passed').length,
      failed: mine.filter((o) => o.state === 'failed').length,
      skipped: mine.filter((o) => o.state === 'skipped').length,
    };
  };
  const result: RunResult = {
    target: options.target,
    passed: outcomes.filter((o) => o.state === 'passed').length,
    failed: outcomes.filter((o) => o.state === 'failed'),
    skipped: outcomes.filter((o) => o.state === 'skipped'),
    outcomes,
    levels: { contract: perLevel('contract'), behavior: perLevel('behavior') },
    coverage: totals(rows),
    out,
  };
  writeResults(out, result);
  if (options.reporters?.includes('html')) writeFileSync(join(out, 'report.html'), htmlReport(result));
  rmSync(jsonFile, { force: true });
  return result;
}
