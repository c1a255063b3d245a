// The contract coverage report: a matrix of operation x documented status x documented message,
// marking what the run exercised (from the recorded traffic), with totals, in Markdown and HTML.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { templateRegex } from './contract.ts';
import { operations } from './document.ts';

/** One recorded exchange, as the traffic files keep it. */
export interface Seen {
  op: string;
  status: number;
  message?: string;
  level?: 'contract' | 'behavior';
}

export interface CoverageRow {
  operation: string;
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

/** The matrix of what the document promises against what the run saw. */
export function coverage(seen: Seen[]): CoverageRow[] {
  return operations.map((o) => {
    const mine = seen.filter((s) => s.op === o.name);
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
    return { operation: o.name, statuses, messages };
  });
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
export function writeCoverage(out: string, rows: CoverageRow[], target: string): { markdown: string; html: string } {
  const t = totals(rows);
  const head = `Contract coverage of ${target}: operations ${t.operations.hit}/${t.operations.all} (${pct(t.operations.hit, t.operations.all)}), documented statuses ${t.statuses.hit}/${t.statuses.all} (${pct(t.statuses.hit, t.statuses.all)}), documented messages ${t.messages.hit}/${t.messages.all} (${pct(t.messages.hit, t.messages.all)})`;
  const mark = (hit: boolean) => (hit ? '✔' : '·');
  const md = [
    `# Contract coverage`,
    '',
    head,
    '',
    '| Operation | Statuses (✔ exercised) | Messages exercised |',
    '|---|---|---|',
    ...rows.map(
      (r) =>
        `| \`${r.operation}\` | ${r.statuses.map((s) => `${mark(s.hit)} ${s.status}`).join(' ')} | ${r.messages.length ? `${r.messages.filter((m) => m.hit).length}/${r.messages.length}` : '—'} |`,
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
  ].join('\n');
  const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const html = `<!doctype html><meta charset="utf-8"><title>Contract coverage</title>
<style>body{font:14px system-ui;margin:2em}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top}table{border-collapse:collapse}.hit{color:#070}.miss{color:#999}</style>
<h1>Contract coverage</h1><p>${esc(head)}</p><table><tr><th>Operation</th><th>Statuses</th><th>Messages</th></tr>
${rows.map((r) => `<tr><td><code>${esc(r.operation)}</code></td><td>${r.statuses.map((s) => `<span class="${s.hit ? 'hit' : 'miss'}">${s.status}</span>`).join(' ')}</td><td>${r.messages.map((m) => `<div class="${m.hit ? 'hit' : 'miss'}">${mark(m.hit)} ${esc(m.message)}</div>`).join('')}</td></tr>`).join('\n')}
</table>`;
  writeFileSync(join(out, 'coverage.md'), `${md}\n`);
  writeFileSync(join(out, 'coverage.html'), html);
  return { markdown: md, html };
}
