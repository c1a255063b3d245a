// What a run reports besides the coverage matrix and the other formats: the outcome of every test,
// each failure broken down into what to fix (operation, seed rule, expected, received, curl line),
// the console summary and `results.json`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskMeta } from 'vitest';
import type { totals } from './coverage.ts';
import { RULE_SENTENCES } from './rule.ts';

/** A failure, as every report states it. */
export interface Failure {
  /** One line: the operation, what was checked, expected and received (JUnit's `message`). */
  summary: string;
  operation?: string;
  /** The seed rules the test checks, with their sentences where known. */
  rules: { id: string; sentence?: string }[];
  expected?: string;
  received?: string;
  /** The curl line reproducing the request the failure is about. */
  curl?: string;
  /** The status and body that came back. */
  response?: string;
  /** The whole message, without stack frames. */
  text: string;
}

export interface TestOutcome {
  name: string;
  file: string;
  /** The test file's domain (`cart`, `auth`, `negative`...): how the HTML report groups tests. */
  area: string;
  /** The operation the test is about (the first its name states, else the first it called). */
  operation?: string;
  level: 'contract' | 'behavior';
  state: 'passed' | 'failed' | 'skipped';
  /** The failure message or the reason of the skip. */
  reason?: string;
  /** The seed rules the test names (`rule(...)`). */
  rules?: string[];
  /** The sides of its rules the test checks (rule.ts `sides`). */
  sides?: string[];
  failure?: Failure;
  /** Milliseconds. */
  duration?: number;
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
  level: string;
  readOnly: boolean;
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

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** The value of a `  label: value` line of a message built by http.ts. */
const labelled = (text: string, label: string) =>
  text.match(new RegExp(`^\\s+${label}:\\s+(.*)$`, 'm'))?.[1]?.trim() || undefined;

/**
 * Breaks a test's error into what to fix. The operation and curl line come from the exchange the
 * failing check named (`assertThat`, `assertConforms`) or else the test's last exchange; expected
 * and received from the message's `expected:`/`received:` lines or vitest's assertion values.
 */
export function failureOf(
  error: { message?: string; expected?: string; actual?: string },
  meta: TaskMeta | Record<string, never>,
  operation?: string,
): Failure {
  const text = withoutStack(error.message ?? 'failed');
  const first = text.split('\n')[0] ?? '';
  const exchange = meta.subject ?? meta.last;
  const op = meta.subject?.operation ?? operation ?? exchange?.operation;
  // A failed assertThat states what was expected as its first line.
  const expected =
    labelled(text, 'expected') ??
    (error.expected === undefined ? undefined : cut(error.expected, 300)) ??
    (meta.subject ? first : undefined);
  const received =
    labelled(text, 'received') ??
    (error.actual === undefined ? undefined : cut(error.actual, 300)) ??
    (meta.subject ? `${meta.subject.status} ${cut(meta.subject.body, 200)}` : undefined);
  const curl = labelled(text, 'request') ?? exchange?.curl;
  const response = labelled(text, 'response') ?? (exchange ? `${exchange.status} ${exchange.body}` : undefined);
  const rules = (meta.rules ?? []).map((id) => ({
    id,
    ...(RULE_SENTENCES.has(id) ? { sentence: RULE_SENTENCES.get(id) } : {}),
  }));
  const parts = [first];
  if (expected && !first.includes(expected)) parts.push(`expected ${expected}`);
  if (received && !first.includes(received)) parts.push(`received ${received}`);
  const summary = cut(`${op ? `${op}: ` : ''}${parts.join('; ')}`.replace(/\s+/g, ' '), 400);
  return {
    summary,
    ...(op ? { operation: op } : {}),
    rules,
    ...(expected ? { expected } : {}),
    ...(received ? { received } : {}),
    ...(curl ? { curl } : {}),
    ...(response ? { response } : {}),
    text,
  };
}

/** The lines of a failure in the console and the HTML report. */
export function failureLines(f: Failure): string[] {
  const lines = [f.summary];
  if (f.operation) lines.push(`operation: ${f.operation}`);
  for (const r of f.rules) lines.push(`rule:      ${r.id}${r.sentence ? ` "${r.sentence}"` : ''}`);
  if (f.expected) lines.push(`expected:  ${f.expected}`);
  if (f.received) lines.push(`received:  ${f.received}`);
  if (f.curl) lines.push(`reproduce: ${f.curl}`);
  if (f.response) lines.push(`response:  ${cut(f.response, 600)}`);
  return lines;
}

/** Skips counted by reason, most frequent first. */
export function skipsByReason(skipped: TestOutcome[]): [string, TestOutcome[]][] {
  const byReason = new Map<string, TestOutcome[]>();
  for (const s of skipped) byReason.set(s.reason ?? '', [...(byReason.get(s.reason ?? '') ?? []), s]);
  return [...byReason].sort((a, b) => b[1].length - a[1].length);
}

/** The closing console summary of a run. */
export function summary(result: RunResult, files: string[]): string {
  const lines: string[] = [];
  const c = result.coverage;
  lines.push(`Conformance of ${result.target} (level ${result.level}${result.readOnly ? ', read-only' : ''})`);
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
      if (f.failure) for (const line of failureLines(f.failure)) lines.push(`    ${line}`);
    }
  }
  if (result.skipped.length) {
    lines.push('', 'Skipped:');
    for (const [reason, tests] of skipsByReason(result.skipped)) lines.push(`  ${tests.length} × ${reason}`);
  }
  lines.push('', `Reports in ${result.out}: ${files.join(', ')}`);
  return lines.join('\n');
}

/** Writes results.json: every test with its level, state and failure or skip reason. */
export function writeResults(out: string, result: RunResult): void {
  writeFileSync(join(out, 'results.json'), `${JSON.stringify(result, null, 2)}\n`);
}

/** Escapes text for HTML and XML. */
export const esc = (s: string): string =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
