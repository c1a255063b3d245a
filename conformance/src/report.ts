// What a run reports besides the coverage matrix: the console summary (what was tested, per level;
// every failure with its curl line and the response seen; every skip with its reason),
// `results.json`, and the self-contained `report.html`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { totals } from './coverage.ts';

export interface TestOutcome {
  name: string;
  file: string;
  level: 'contract' | 'behavior';
  state: 'passed' | 'failed' | 'skipped';
  /** The failure (assertion, curl line, response) or the reason of the skip. */
  reason?: string;
}

export interface LevelTotals {
  /** Operations of the document the level's requests addressed, of all operations. */
  operations: number;
  of: number;
  passed: number;
  failed: number;
  skipped: number;
}

export interface RunResult {
  target: string;
  passed: number;
  failed: TestOutcome[];
  skipped: TestOutcome[];
  outcomes: TestOutcome[];
  levels: Record<'contract' | 'behavior', LevelTotals>;
  coverage: ReturnType<typeof totals>;
  out: string;
}

/** A failure message without vitest's stack frames: the assertion, the curl line, the response. */
export const withoutStack = (message: string): string =>
  message
    .split('\n')
    .filter((line) => !/^\s+at /.test(line))
    .join('\n')
    .trim();

/** The closing console summary of a run. */
export function summary(result: RunResult, options: { level: string; readOnly?: boolean; files: string[] }): string {
  const lines: string[] = [];
  const c = result.coverage;
  lines.push(`Conformance of ${result.target} (level ${options.level}${options.readOnly ? ', read-only' : ''})`);
  lines.push(`  passed ${result.passed}, failed ${result.failed.length}, skipped ${result.skipped.length}`);
  lines.push('', 'Tested (operations × levels):');
  for (const [level, t] of Object.entries(result.levels))
    lines.push(
      `  ${level.padEnd(9)} ${t.operations}/${t.of} operations addressed; tests: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`,
    );
  lines.push(
    `  coverage: operations ${c.operations.hit}/${c.operations.all}, documented statuses ${c.statuses.hit}/${c.statuses.all}, documented messages ${c.messages.hit}/${c.messages.all}`,
  );
  if (result.failed.length) {
    lines.push('', 'Failed:');
    for (const f of result.failed) {
      lines.push(`  ✗ ${f.name}  (${f.file})`);
      for (const line of withoutStack(f.reason ?? '')
        .split('\n')
        .slice(0, 8))
        lines.push(`    ${line}`);
    }
  }
  if (result.skipped.length) {
    const byReason = new Map<string, number>();
    for (const s of result.skipped) byReason.set(s.reason ?? '', (byReason.get(s.reason ?? '') ?? 0) + 1);
    lines.push('', 'Skipped:');
    for (const [reason, n] of byReason) lines.push(`  ${n} × ${reason}`);
  }
  lines.push('', `Reports in ${result.out}: ${options.files.join(', ')}`);
  return lines.join('\n');
}

/** Writes results.json: every test with its level, state and failure or skip reason. */
export function writeResults(out: string, result: RunResult): void {
  writeFileSync(join(out, 'results.json'), `${JSON.stringify(result, null, 2)}\n`);
}

const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** A self-contained HTML page of the run: totals, then every failure and skip with its reason. */
export function htmlReport(result: RunResult): string {
  const rows = (list: TestOutcome[], cls: string) =>
    list
      .map(
        (o) =>
          `<tr class="${cls}"><td>${esc(o.name)}</td><td>${o.level}</td><td><pre>${esc(withoutStack(o.reason ?? ''))}</pre></td></tr>`,
      )
      .join('\n');
  const c = result.coverage;
  return `<!doctype html><meta charset="utf-8"><title>Conformance of ${esc(result.target)}</title>
<style>body{font:14px system-ui;margin:2em}td{border-bottom:1px solid #ddd;padding:4px 8px;vertical-align:top}pre{white-space:pre-wrap;margin:0}.failed td:first-child{color:#b00}.skipped td:first-child{color:#777}</style>
<h1>Conformance of ${esc(result.target)}</h1>
<p>passed ${result.passed}, failed ${result.failed.length}, skipped ${result.skipped.length} · covered operations ${c.operations.hit}/${c.operations.all}, statuses ${c.statuses.hit}/${c.statuses.all}, messages ${c.messages.hit}/${c.messages.all} (<a href="coverage.html">coverage</a>)</p>
<table>${rows(result.failed, 'failed')}${rows(result.skipped, 'skipped')}</table>`;
}
