// Runs the suite against a target and writes its reports: the programmatic entry of the CLI and of
// the project's own tests (against the reference server, the mock and the planted faults).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startVitest } from 'vitest/node';
import { coverage, readTraffic, totals, writeCoverage } from './coverage.ts';
import type { Level } from './settings.ts';
import { readSkips } from './skip.ts';

export interface RunOptions {
  target: string;
  level?: Level;
  readOnly?: boolean;
  grep?: string;
  reporters?: ('junit' | 'json' | 'html')[];
  apiKey?: string;
  adminApiKey?: string;
  blockedCountry?: string;
  out?: string;
  /** Print vitest's progress (the CLI does; the project's tests do not). */
  quiet?: boolean;
}

export interface TestOutcome {
  name: string;
  file: string;
  state: 'passed' | 'failed' | 'skipped';
  reason?: string;
}

export interface RunResult {
  passed: number;
  failed: TestOutcome[];
  skipped: TestOutcome[];
  outcomes: TestOutcome[];
  coverage: ReturnType<typeof totals>;
  out: string;
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
    CONFORMANCE_OUT: out,
    ...(options.apiKey ? { MARKETPLACE_API_KEY: options.apiKey } : {}),
    ...(options.adminApiKey ? { MARKETPLACE_ADMIN_API_KEY: options.adminApiKey } : {}),
    ...(options.blockedCountry ? { MARKETPLACE_BLOCKED_COUNTRY: options.blockedCountry } : {}),
  });
  const jsonFile = join(out, 'vitest.json');
  const reporters: unknown[] = [
    options.quiet ? ['dot', { silent: true }] : 'default',
    ['json', { outputFile: jsonFile }],
  ];
  if (options.reporters?.includes('junit')) reporters.push(['junit', { outputFile: join(out, 'junit.xml') }]);
  const vitest = await startVitest('test', [], {
    config: resolve(import.meta.dirname, '../vitest.config.ts'),
    watch: false,
    reporters: reporters as never,
    testNamePattern: options.grep,
    silent: options.quiet,
  });
  await vitest?.close();
  const raw = JSON.parse(readFileSync(jsonFile, 'utf8')) as {
    testResults: {
      name: string;
      assertionResults: {
        fullName: string;
        status: string;
        failureMessages: string[];
        meta?: { skipReason?: string };
      }[];
    }[];
  };
  const skipReasons = readSkips(out);
  const outcomes: TestOutcome[] = raw.testResults.flatMap((f) =>
    f.assertionResults.map((a) => ({
      name: a.fullName,
      file: f.name.replace(`${resolve(import.meta.dirname, '..')}/`, ''),
      state: a.status === 'passed' ? 'passed' : a.status === 'failed' ? 'failed' : 'skipped',
      reason:
        a.status === 'failed'
          ? a.failureMessages.join('\n')
          : (skipReasons.get(a.fullName) ?? 'skipped: the level or --grep left it out'),
    })),
  );
  const rows = coverage(readTraffic(out));
  writeCoverage(out, rows, options.target);
  const result: RunResult = {
    passed: outcomes.filter((o) => o.state === 'passed').length,
    failed: outcomes.filter((o) => o.state === 'failed'),
    skipped: outcomes.filter((o) => o.state === 'skipped'),
    outcomes,
    coverage: totals(rows),
    out,
  };
  writeFileSync(join(out, 'results.json'), `${JSON.stringify(result, null, 2)}\n`);
  if (options.reporters?.includes('html')) writeFileSync(join(out, 'report.html'), htmlReport(result, options.target));
  rmSync(jsonFile, { force: true });
  return result;
}

const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** A self-contained HTML page of the run: totals, then every failure and skip with its reason. */
function htmlReport(result: RunResult, target: string): string {
  const rows = (list: TestOutcome[], cls: string) =>
    list
      .map((o) => `<tr class="${cls}"><td>${esc(o.name)}</td><td><pre>${esc(o.reason ?? '')}</pre></td></tr>`)
      .join('\n');
  return `<!doctype html><meta charset="utf-8"><title>Conformance of ${esc(target)}</title>
<style>body{font:14px system-ui;margin:2em}td{border-bottom:1px solid #ddd;padding:4px 8px;vertical-align:top}pre{white-space:pre-wrap;margin:0}.failed td:first-child{color:#b00}.skipped td:first-child{color:#777}</style>
<h1>Conformance of ${esc(target)}</h1>
<p>passed ${result.passed}, failed ${result.failed.length}, skipped ${result.skipped.length} · covered operations ${result.coverage.operations.hit}/${result.coverage.operations.all}, statuses ${result.coverage.statuses.hit}/${result.coverage.statuses.all}, messages ${result.coverage.messages.hit}/${result.coverage.messages.all} (<a href="coverage.html">coverage</a>)</p>
<table>${rows(result.failed, 'failed')}${rows(result.skipped, 'skipped')}</table>`;
}
