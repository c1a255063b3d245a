// What a run reports besides the coverage matrix and the other formats: the outcome of every test,
// each failure broken down into what to fix (operation, seed rule, expected, received, curl line),
// the console summary and `results.json`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskMeta } from 'vitest';
import { RULE_SENTENCES } from '../kit/rule.ts';
import type { BaselineUse } from './baseline.ts';
import { type Changes, changesLines } from './changes.ts';
import type { totals } from './coverage.ts';
import { type Progress, progressLines } from './progress.ts';

/** A failure, as every report states it. */
export interface Failure {
  /** One line: the operation, what was checked, expected and received (JUnit's `message`). */
  summary: string;
  operation?: string;
  /** The seed rules the test checks, with their sentences where known. */
  rules: { id: string; sentence?: string }[];
  expected?: string;
  received?: string;
  /** The curl line reproducing the request the failure is about, with `$JWT` for its bearer token. */
  curl?: string;
  /** The bearer token of the curl line (`JWT=<this>` before running it). */
  jwt?: string;
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
  /** Every operation its name states, when it states more than one: the progress credits each. */
  operations?: string[];
  level: 'contract' | 'behavior';
  state: 'passed' | 'failed' | 'skipped';
  /** The failure message or the reason of the skip. */
  reason?: string;
  /** The seed rules the test names (`rule(...)`). */
  rules?: string[];
  /** The sides of its rules the test checks (rule.ts `sides`). */
  sides?: string[];
  /** The fields and events whose meaning the test pins (http.ts `pinsMeaning`). */
  meanings?: string[];
  failure?: Failure;
  /** A skip caused by these operations or test helpers answering 404 (the skip records' `missing`). */
  missing?: string[];
  /** A skip because --operations leaves these operations or test helpers out (nothing was sent to them). */
  outOfScope?: string[];
  /** A failure the baseline lists, not expired: reported, not failing. */
  known?: { expires?: string };
  /** A failure whose baseline entry expired: failing again. */
  baseline?: { expires?: string; expired: true };
  /** Milliseconds. */
  duration?: number;
}

export interface LevelTotals {
  /** Operations of the document that answered the level's requests with something other than 404, of all operations. */
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
  /** --require-all: every operation in scope that is not implemented is a failure. */
  requireAll?: boolean;
  /** --operations: the operations in scope (all when absent). */
  scope?: string[];
  passed: number;
  /** Failures that fail the run (not those the baseline lists). */
  failed: TestOutcome[];
  /** Failures the baseline lists: reported, not failing. */
  known: TestOutcome[];
  skipped: TestOutcome[];
  outcomes: TestOutcome[];
  levels: Record<'contract' | 'behavior', LevelTotals>;
  coverage: ReturnType<typeof totals>;
  /** Each operation: implemented, passing, failing, not implemented, not in scope. */
  progress: Progress;
  baseline?: BaselineUse;
  /** --previous: what changed since that run. */
  changes?: Changes;
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

/** A bearer token in a curl line of http.ts (`-H 'authorization: Bearer <token>'`). */
const BEARER = /-H 'authorization: Bearer ([^']+)'/i;

/**
 * A curl line and the texts around it with `$JWT` for the bearer token of the curl line (double
 * quotes, so the shell expands it), and that token: reports print it once, as `JWT=<token>`.
 */
export function withJwt(curl: string | undefined): { curl?: string; jwt?: string; hide: (s: string) => string } {
  const jwt = curl?.match(BEARER)?.[1];
  if (!curl || !jwt) return { curl, hide: (s) => s };
  const hide = (s: string) =>
    s
      .replaceAll(`-H 'authorization: Bearer ${jwt}'`, () => '-H "authorization: Bearer $JWT"')
      .replaceAll(jwt, () => '$JWT');
  return { curl: hide(curl), jwt, hide };
}

/**
 * Breaks a test's error into what to fix. The operation and curl line come from the exchange the
 * failing check named (`assertThat`, `assertConforms`) or else the test's last exchange; expected
 * and received from the message's `expected:`/`received:` lines or vitest's assertion values; the
 * rules from `ruleIds` (the test's options and its title) or else the test's metadata.
 */
export function failureOf(
  error: { message?: string; expected?: string; actual?: string },
  meta: TaskMeta | Record<string, never>,
  operation?: string,
  ruleIds: string[] = meta.rules ?? [],
): Failure {
  const raw = withoutStack(error.message ?? 'failed');
  const exchange = meta.subject ?? meta.last;
  const { curl, jwt, hide } = withJwt(labelled(raw, 'request') ?? exchange?.curl);
  const text = hide(raw);
  const first = text.split('\n')[0] ?? '';
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
  const response = labelled(text, 'response') ?? (exchange ? hide(`${exchange.status} ${exchange.body}`) : undefined);
  const rules = [...new Set(ruleIds)].map((id) => ({
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
    ...(jwt ? { jwt } : {}),
    ...(response ? { response } : {}),
    text,
  };
}

/** A seed rule's quote on one line, cut for the console. */
const quote = (sentence: string, n = 200) => cut(sentence.replace(/\s+/g, ' '), n);

/**
 * The lines of a failure in the console and the HTML report. `JWT=<token>` comes before the curl
 * line unless `shown` says the report printed that token already.
 */
export function failureLines(f: Failure, shown = new Set<string>()): string[] {
  const lines = [f.summary];
  if (f.operation) lines.push(`operation: ${f.operation}`);
  for (const r of f.rules) lines.push(`rule:      ${r.id}${r.sentence ? ` "${quote(r.sentence)}"` : ''}`);
  if (f.expected) lines.push(`expected:  ${f.expected}`);
  if (f.received) lines.push(`received:  ${f.received}`);
  if (f.jwt && !shown.has(f.jwt)) {
    shown.add(f.jwt);
    lines.push(`JWT=${f.jwt}`);
  }
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

/**
 * A number standing alone (a balance, a price, a count, a timestamp), not a digit inside a token,
 * an identifier or a word: `1426` in `{"balance":1426}`, never the `1` of `eyJhbGciOiJIUzI1NiIs`.
 */
const LONE_NUMBER = /(?<![\w.$%-])-?\d+(?:\.\d+)?(?![\w.%])/g;

/** A text with its lone numbers masked: two failures differing only in those are one cause. */
const numbersAside = (s: string) => s.replace(LONE_NUMBER, '#');

/**
 * What a failure is about, in its own words: what was expected and what came back, else its first
 * line. Shown as it is (tokens and identifiers never altered); grouping compares it numbers aside.
 */
export function causeOf(f: Failure | undefined, reason = ''): string {
  if (f?.received) return cut(`${f.expected ? `expected ${f.expected}, ` : ''}received ${f.received}`, 200);
  return cut((f?.text ?? reason).split('\n')[0] ?? '', 200);
}

export interface FailureGroup {
  operation: string;
  /** The seed rules the group's tests check: the same for every test of the group. */
  rules: string[];
  /** The first test's cause, as it is (the others differ from it in lone numbers at most). */
  cause: string;
  tests: TestOutcome[];
}

/** The rule IDs of a failed test, sorted: tests breaking different rules are never one group. */
const rulesOfFailure = (o: TestOutcome) => [...new Set(o.failure?.rules.map((r) => r.id) ?? o.rules ?? [])].sort();

/**
 * Failures grouped by the operation they are pinned on, the rules they break and what differed
 * (expected and received, lone numbers aside), largest group first.
 */
export function groupFailures(failed: TestOutcome[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const o of failed) {
    const operation = o.failure?.operation ?? o.operation ?? '(no operation)';
    const rules = rulesOfFailure(o);
    const cause = causeOf(o.failure, o.reason);
    const key = JSON.stringify([operation, rules, numbersAside(cause)]);
    if (!groups.has(key)) groups.set(key, { operation, rules, cause, tests: [] });
    groups.get(key)!.tests.push(o);
  }
  return [...groups.values()].sort((a, b) => b.tests.length - a.tests.length || a.operation.localeCompare(b.operation));
}

/** A group as results.json lists it: the console's head line and its tests by name. */
export const groupSummary = (g: FailureGroup) => ({
  operation: g.operation,
  rules: g.rules,
  cause: g.cause,
  tests: g.tests.map((t) => t.name),
});

/** A group's head: its operation, the rules its tests break and what differed. */
const groupHead = (g: FailureGroup) => `${g.operation}${g.rules.length ? ` [${g.rules.join(', ')}]` : ''}: ${g.cause}`;

/** `1 test`, `2 tests`. */
const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Test names a group lists in the console before "and N more". */
const LISTED = 5;

/** A failure group in the console: its head, each test, the breakdown of its first test. */
function groupLines(g: FailureGroup, shown: Set<string>, detail = true): string[] {
  const lines = [`  ✗ ${groupHead(g)} (${count(g.tests.length, 'test')})`];
  for (const t of g.tests.slice(0, LISTED)) {
    const expiry = t.baseline?.expired ? ` (its baseline entry expired ${t.baseline.expires})` : '';
    lines.push(`    - ${t.name}  (${t.file})${expiry}`);
  }
  if (g.tests.length > LISTED) lines.push(`    - and ${g.tests.length - LISTED} more (results.json, report.html)`);
  if (!detail) return lines;
  const first = g.tests[0]!;
  // The same parts as the failure of results.json, its one-line summary first.
  const breakdown = first.failure
    ? [`summary:   ${first.failure.summary}`, ...failureLines(first.failure, shown).slice(1)]
    : (first.reason ?? '').split('\n');
  lines.push(...breakdown.filter(Boolean).map((l) => `    ${l}`));
  return lines;
}

/** Failure groups the console breaks down; the others get one line each. */
const DETAILED = 10;

/** Skip reasons the console lists before "and N more". */
const REASONS = 12;

/** The closing console summary of a run: the result, the progress, failures grouped, skips by reason. */
export function summary(result: RunResult, files: string[]): string {
  const lines: string[] = [];
  const c = result.coverage;
  const flags = [
    result.readOnly ? 'read-only' : '',
    result.requireAll ? '--require-all' : '',
    result.scope ? `--operations: ${result.scope.length}` : '',
  ]
    .filter(Boolean)
    .map((f) => `, ${f}`)
    .join('');
  lines.push(`Conformance of ${result.target} (level ${result.level}${flags})`);
  const known = result.known.length ? `, known ${result.known.length} (baseline)` : '';
  lines.push(`  passed ${result.passed}, failed ${result.failed.length}${known}, skipped ${result.skipped.length}`);
  lines.push(
    result.failed.length
      ? `  Result: FAILED: ${count(result.failed.length, 'test')} failed`
      : `  Result: passed: nothing the run could test failed${result.known.length ? ' (besides the known failures of the baseline)' : ''}`,
  );
  if (result.changes) lines.push('', ...changesLines(result.changes));
  lines.push('', ...progressLines(result.progress));
  lines.push('', 'Tested (operations × levels):');
  for (const [level, t] of Object.entries(result.levels))
    lines.push(
      `  ${level.padEnd(9)} ${t.operations}/${t.of} operations answered (not 404); tests: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`,
    );
  lines.push(
    `  coverage: operations ${c.operations.hit}/${c.operations.all}, documented statuses ${c.statuses.hit}/${c.statuses.all}, documented messages ${c.messages.hit}/${c.messages.all}`,
  );
  const shown = new Set<string>();
  if (result.failed.length) {
    const groups = groupFailures(result.failed);
    lines.push(
      '',
      `Failed (${count(result.failed.length, 'test')} in ${count(groups.length, 'group')} by operation, rule and what differed):`,
    );
    groups.forEach((g, i) => {
      // Past the first groups, one line each: results.json and report.html have every test.
      lines.push(...(i < DETAILED ? groupLines(g, shown) : groupLines(g, shown, false).slice(0, 1)));
    });
  }
  const b = result.baseline;
  if (b) {
    lines.push('', `Baseline ${b.file}: ${b.known} known failures (reported, not failing)`);
    // A line per operation and cause: the team knows these; results.json and report.html list each test.
    for (const g of groupFailures(result.known)) {
      const first = g.tests.map((t) => t.known?.expires ?? '9999').sort()[0];
      const until = first && first !== '9999' ? `, the first known until ${first}` : '';
      lines.push(`  ~ ${groupHead(g)} (${count(g.tests.length, 'test')}${until})`);
    }
    if (b.fixed.length) {
      lines.push(
        `  fixed: remove from the baseline (${b.fixed.length}; \`marketplace-conformance baseline write\` writes it without them):`,
      );
      for (const e of b.fixed) lines.push(`    ✓ ${e.test}`);
    }
    if (b.expired.length) {
      lines.push(`  expired, failing again (${b.expired.length}):`);
      for (const e of b.expired) lines.push(`    ✗ ${e.test} (expired ${e.expires})`);
    }
    if (b.notRun.length) lines.push(`  not run or skipped this time: ${b.notRun.length} entries (kept)`);
  }
  if (result.skipped.length) {
    lines.push('', 'Skipped:');
    // The skips of a missing operation or test helper are counted in the progress, each with its
    // operation; report.html and results.json have each reason.
    const missing = result.skipped.filter((o) => o.missing?.length);
    if (missing.length)
      lines.push(
        `  ${missing.length} × not implemented: an operation or test helper they need answered 404 (Progress above)`,
      );
    const outOfScope = result.skipped.filter((o) => o.outOfScope?.length);
    if (outOfScope.length)
      lines.push(
        `  ${outOfScope.length} × not in scope: an operation or test helper they need is left out by --operations (nothing was sent to it)`,
      );
    const reasons = skipsByReason(result.skipped.filter((o) => !o.missing?.length && !o.outOfScope?.length));
    for (const [reason, tests] of reasons.slice(0, REASONS)) lines.push(`  ${tests.length} × ${reason}`);
    if (reasons.length > REASONS)
      lines.push(
        `  and ${reasons.slice(REASONS).reduce((n, [, t]) => n + t.length, 0)} more skips for ${reasons.length - REASONS} other reasons (results.json)`,
      );
  }
  lines.push('', `Reports in ${result.out}: ${files.join(', ')}`);
  return lines.join('\n');
}

/** Writes results.json: every test with its level, state and failure or skip reason. */
export function writeResults(out: string, result: RunResult): void {
  // The failures grouped as the console groups them, so both say the same.
  const groups = groupFailures(result.failed).map(groupSummary);
  writeFileSync(join(out, 'results.json'), `${JSON.stringify({ ...result, groups }, null, 2)}\n`);
}

/** Escapes text for HTML and XML. */
export const esc = (s: string): string =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
