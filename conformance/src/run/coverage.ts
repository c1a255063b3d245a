// The contract coverage report: a matrix of operation x documented status x documented message,
// marking what the run exercised (from the recorded traffic), with totals, in Markdown and HTML;
// and the rule matrix: each rule of the seed (rules.ts), the tests of the run that name it, and the
// rules no test checks with the reason.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RuleRow, ruleMatrix } from '../kit/rules.ts';
import { templateRegex } from '../oracle/contract.ts';
import { operations } from '../oracle/document.ts';

/** One recorded exchange, as the traffic files keep it. */
export interface Seen {
  op: string;
  status: number;
  message?: string;
  level?: 'contract' | 'behavior';
}

export interface CoverageRow {
  operation: string;
  /** It answered something other than 404 (the unknown route): only then does its traffic count. */
  implemented: boolean;
  statuses: { status: string; hit: boolean }[];
  messages: { message: string; hit: boolean }[];
}

/** Reads and removes the traffic files the test workers wrote. */
export function readTraffic(out: string, { remove = true } = {}): Seen[] {
  if (!existsSync(out)) return [];
  const seen: Seen[] = [];
  for (const file of readdirSync(out).filter((f) => f.startsWith('traffic-') && f.endsWith('.ndjson'))) {
    for (const line of readFileSync(join(out, file), 'utf8').split('\n')) if (line) seen.push(JSON.parse(line));
    if (remove) rmSync(join(out, file));
  }
  return seen;
}

/**
 * The matrix of what the document promises against what the run saw. An operation that answered
 * nothing but 404 is not implemented: its 404s cover nothing.
 */
export function coverage(seen: Seen[]): CoverageRow[] {
  return operations.map((o) => {
    const all = seen.filter((s) => s.op === o.name);
    const implemented = all.some((s) => s.status !== 404);
    const mine = implemented ? all : [];
    const statuses = Object.keys(o.op.responses).map((status) => ({
      status,
      hit: mine.some((s) => String(s.status) === status),
    }));
    const listed: { message: string; type?: string; status?: number }[] = o.op['x-error-messages'] ?? [];
    const unique = [...new Map(listed.map((m) => [m.type ?? m.message, m])).values()];
    const messages = unique.map((m) => ({
      message: m.type ? `${m.type}: ${m.message}` : m.message,
      hit: mine.some(
        (s) => s.message !== undefined && (m.type ? s.message === m.type : templateRegex(m.message).test(s.message)),
      ),
    }));
    return { operation: o.name, implemented, statuses, messages };
  });
}

/** A test of the run, as the rule matrix reads it (its full name carries the rule IDs). */
export interface Outcome {
  name: string;
  state: 'passed' | 'failed' | 'skipped';
  rules?: string[];
  sides?: string[];
}

const pct = (hit: number, all: number) => (all === 0 ? '—' : `${Math.round((hit / all) * 100)}%`);

/** Totals over the matrix. */
export function totals(rows: CoverageRow[]) {
  const count = (pick: (r: CoverageRow) => { hit: boolean }[]) => {
    const all = rows.flatMap(pick);
    return { hit: all.filter((x) => x.hit).length, all: all.length };
  };
  return {
    operations: { hit: rows.filter((r) => r.statuses.some((s) => s.hit)).length, all: rows.length },
    statuses: count((r) => r.statuses),
    messages: count((r) => r.messages),
  };
}

/** Writes coverage.md and coverage.html into `out`. */
export function writeCoverage(
  out: string,
  rows: CoverageRow[],
  target: string,
  outcomes: Outcome[] = [],
): { markdown: string; html: string } {
  const matrix = ruleMatrix(outcomes);
  const t = totals(rows);
  const head = `Contract coverage of ${target}: operations ${t.operations.hit}/${t.operations.all} (${pct(t.operations.hit, t.operations.all)}), documented statuses ${t.statuses.hit}/${t.statuses.all} (${pct(t.statuses.hit, t.statuses.all)}), documented messages ${t.messages.hit}/${t.messages.all} (${pct(t.messages.hit, t.messages.all)})`;
  const mark = (hit: boolean) => (hit ? '✔' : '·');
  const md = [
    `# Contract coverage`,
    '',
    head,
    '',
    '| Operation | Implemented (answered other than 404) | Statuses (✔ exercised) | Messages exercised |',
    '|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| \`${r.operation}\` | ${r.implemented ? '✔' : '·'} | ${r.statuses.map((s) => `${mark(s.hit)} ${s.status}`).join(' ')} | ${r.messages.length ? `${r.messages.filter((m) => m.hit).length}/${r.messages.length}` : '—'} |`,
    ),
    '',
    '## Messages',
    '',
    ...rows
      .filter((r) => r.messages.length)
      .flatMap((r) => [
        `### \`${r.operation}\``,
        '',
        ...r.messages.map((m) => `- ${mark(m.hit)} \`${m.message}\``),
        '',
      ]),
    ...rulesMarkdown(matrix),
  ].join('\n');
  const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const html = `<!doctype html><meta charset="utf-8"><title>Contract coverage</title>
<style>body{font:14px system-ui;margin:2em}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top}table{border-collapse:collapse}.hit{color:#070}.miss{color:#999}.fail{color:#b00}</style>
<h1>Contract coverage</h1><p>${esc(head)}</p><table><tr><th>Operation</th><th>Statuses</th><th>Messages</th></tr>
${rows.map((r) => `<tr><td><code>${esc(r.operation)}</code></td><td>${r.statuses.map((s) => `<span class="${s.hit ? 'hit' : 'miss'}">${s.status}</span>`).join(' ')}</td><td>${r.messages.map((m) => `<div class="${m.hit ? 'hit' : 'miss'}">${mark(m.hit)} ${esc(m.message)}</div>`).join('')}</td></tr>`).join('\n')}
</table>
${rulesHtml(matrix, esc)}`;
  writeFileSync(join(out, 'coverage.md'), `${md}\n`);
  writeFileSync(join(out, 'coverage.html'), html);
  return { markdown: md, html };
}

const RULE_MARK: Record<RuleRow['state'], string> = {
  checked: '✔ checked',
  failed: '✘ failed',
  'not run': '· not run',
  unchecked: '— no test',
};

/** Counts of the rule matrix by state. */
export function ruleTotals(matrix: RuleRow[]) {
  const count = (state: RuleRow['state']) => matrix.filter((r) => r.state === state).length;
  return {
    rules: matrix.length,
    checked: count('checked'),
    failed: count('failed'),
    notRun: count('not run'),
    unchecked: count('unchecked'),
  };
}

const ruleHead = (matrix: RuleRow[]) => {
  const t = ruleTotals(matrix);
  return `Seed rules: ${t.rules}; checked by a passing test ${t.checked} (${pct(t.checked, t.rules)}), failed ${t.failed}, named by tests that did not run ${t.notRun}, checked by no test ${t.unchecked} (each with the reason below)`;
};
/**
 * The rule's words on one line, cut to a readable length: the seed's, or the document's for a rule
 * of its own (`document`), led by the file of openapi/ they come from when it is not openapi.yaml.
 */
const quoteOf = (r: RuleRow) => {
  const words = [...r.rule.seed, ...(r.rule.document ?? [])].join(' / ');
  const text = `${r.rule.documentFile ? `${r.rule.documentFile}: ` : ''}${words}`.replace(/\s+/g, ' ');
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
};

function rulesMarkdown(matrix: RuleRow[]): string[] {
  const cell = (s: string) => s.replaceAll('|', '\\|');
  const unchecked = matrix.filter((r) => r.state === 'unchecked');
  const partly = matrix.filter((r) => r.rule.partly);
  return [
    '# Rule matrix',
    '',
    ruleHead(matrix),
    '',
    '| Rule | Section | Seed | State | Sides checked | Tests |',
    '|---|---|---|---|---|---|',
    ...matrix.map(
      (r) =>
        `| \`${r.rule.id}\` | ${r.rule.section} | ${cell(quoteOf(r))} | ${RULE_MARK[r.state]} | ${r.sides.join(', ') || '—'} | ${r.tests.map((t) => cell(`${t.state === 'passed' ? '✔' : t.state === 'failed' ? '✘' : '·'} ${t.name}`)).join('<br>') || '—'} |`,
    ),
    '',
    '## Rules no test checks',
    '',
    ...(unchecked.length
      ? unchecked.map((r) => `- \`${r.rule.id}\`: ${r.rule.unchecked ?? 'no test of the suite names it'}`)
      : ['None.']),
    '',
    '## Parts of checked rules no test can check through HTTP',
    '',
    ...partly.map((r) => `- \`${r.rule.id}\`: ${r.rule.partly}`),
    '',
  ];
}

function rulesHtml(matrix: RuleRow[], esc: (s: string) => string): string {
  const css = { checked: 'hit', failed: 'fail', 'not run': 'miss', unchecked: 'miss' } as const;
  return `<h1>Rule matrix</h1><p>${esc(ruleHead(matrix))}</p>
<table><tr><th>Rule</th><th>Section</th><th>Seed</th><th>State</th><th>Sides checked</th><th>Tests</th></tr>
${matrix
  .map(
    (r) =>
      `<tr><td><code>${esc(r.rule.id)}</code></td><td>${esc(r.rule.section)}</td><td>${esc(quoteOf(r))}${r.rule.partly ? `<div class="miss">Not checkable: ${esc(r.rule.partly)}</div>` : ''}</td><td class="${css[r.state]}">${esc(RULE_MARK[r.state])}${r.rule.unchecked ? `<div>${esc(r.rule.unchecked)}</div>` : ''}</td><td>${esc(r.sides.join(', ') || '—')}</td><td>${r.tests.map((t) => `<div class="${t.state === 'passed' ? 'hit' : t.state === 'failed' ? 'fail' : 'miss'}">${esc(t.name)}</div>`).join('')}</td></tr>`,
  )
  .join('\n')}
</table>`;
}
