import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingSides, NEEDED_SIDES, RULES, ruleById, ruleMatrix, rules, rulesOf } from './rules.ts';

const seed = readFileSync(resolve(import.meta.dirname, '../../../docs/seed/item-marketplace-api.md'), 'utf8');
const lines = seed.split('\n');
const testsDir = resolve(import.meta.dirname, '../../tests');
/** The rule IDs each test file of the suite names. */
const named = new Map(
  readdirSync(testsDir)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => [f, rulesOf(readFileSync(join(testsDir, f), 'utf8'))]),
);
const namedIds = new Set([...named.values()].flat());

const openapiDir = resolve(import.meta.dirname, '../../../openapi');
/**
 * The text of a file of the written document, whitespace folded, or undefined when `file` is not
 * one: outside openapi/, in the generated bundled/ (quotes come from what people write), or absent.
 */
function documentText(file: string): string | undefined {
  const path = resolve(openapiDir, file);
  const inside = relative(openapiDir, path);
  if (inside.startsWith('..') || isAbsolute(inside) || inside.split(sep)[0] === 'bundled') return undefined;
  if (!existsSync(path)) return undefined;
  return readFileSync(path, 'utf8').replace(/\s+/g, ' ');
}

/** The body rows of the tables under the heading `title` (up to the next heading). */
function tableRows(title: string): string[] {
  const start = lines.findIndex((l) => l.trim() === title);
  expect(start, `the seed has the heading ${title}`).toBeGreaterThanOrEqual(0);
  const rows: string[] = [];
  for (let i = start + 1; i < lines.length && !/^#{2,3} /.test(lines[i]!); i++) {
    const line = lines[i]!;
    const previous = lines[i - 1]!;
    // A body row: a table line after the separator line or after another body row.
    if (
      line.startsWith('|') &&
      !/^\|[-| ]+\|$/.test(line) &&
      (/^\|[-| ]+\|$/.test(previous) || rows.includes(previous))
    )
      rows.push(line);
  }
  return rows;
}

describe('the seed rules', () => {
  it('have unique IDs of the form R-WORDS', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^R-[A-Z0-9]+(-[A-Z0-9]+)*$/);
  });

  it('quote the seed verbatim', () => {
    const missing = RULES.flatMap((r) => r.seed.filter((q) => !seed.includes(q)).map((q) => `${r.id}: ${q}`));
    expect(missing).toEqual([]);
  });

  it("quote the document verbatim (but for line breaks) where a rule is the document's own, in the file of openapi/ it names, and quote something", () => {
    const flat = (text: string) => text.replace(/\s+/g, ' ');
    const missing = RULES.flatMap((r) => {
      if (!r.document) return [];
      const text = documentText(r.documentFile ?? 'openapi.yaml');
      return r.document.filter((q) => !text?.includes(flat(q))).map((q) => `${r.id}: ${q}`);
    });
    expect(missing).toEqual([]);
    // A file named but quoted from nowhere is a slip; openapi.yaml is the default, never named.
    expect(RULES.filter((r) => r.documentFile && !r.document).map((r) => r.id)).toEqual([]);
    expect(RULES.filter((r) => r.documentFile === 'openapi.yaml').map((r) => r.id)).toEqual([]);
    expect(RULES.filter((r) => r.seed.length + (r.document?.length ?? 0) === 0).map((r) => r.id)).toEqual([]);
    expect(RULES.filter((r) => r.seed.length > 0 && r.document).map((r) => r.id)).toEqual([]);
  });

  it('take a document quote from a written file of openapi/ only, never the generated bundle or a file outside', () => {
    const quote = 'at most 20 attempts answered `Invalid API key` per IP in 5 minutes';
    expect(documentText('paths/user_login.yaml')).toContain(quote);
    // The bundle holds the same words, but a quote names the file people edit.
    expect(documentText('bundled/openapi.yaml')).toBeUndefined();
    expect(documentText('../README.md')).toBeUndefined();
    expect(documentText('paths/no_such_path.yaml')).toBeUndefined();
  });

  it.each([
    '### Backpack / listing state',
    '### Transitions shown',
    '### Other state sets',
    '### Envelope A errors',
    '### Messages by endpoint',
    '## Limits',
    '### JWT claims',
    '### Permission levels',
  ])('quote every row of the tables under %s', (title) => {
    const quoted = new Set(RULES.flatMap((r) => r.seed));
    const rows = tableRows(title);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((row) => !quoted.has(row))).toEqual([]);
  });

  it('are each named by a test of the suite, or say why no test can check them through HTTP', () => {
    const orphans = RULES.filter((r) => !r.unchecked && !namedIds.has(r.id)).map((r) => r.id);
    expect(orphans, 'rules no test names and no reason excuses').toEqual([]);
    const excused = RULES.filter((r) => r.unchecked && namedIds.has(r.id)).map((r) => r.id);
    expect(excused, 'rules said to be unchecked that a test names').toEqual([]);
  });

  it('are the only IDs the tests name (no misspelt ID)', () => {
    const known = new Set(RULES.map((r) => r.id));
    const unknown = [...named.entries()].flatMap(([file, ids]) =>
      ids.filter((id) => !known.has(id)).map((id) => `${file}: ${id}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe('rulesOf and ruleMatrix', () => {
  it('read the rule IDs of a test title', () => {
    expect(rulesOf('cashouts > Given a request [R-LIMIT-CASHOUT, R-MSG-CASHOUT-PROCESS] more')).toEqual([
      'R-LIMIT-CASHOUT',
      'R-MSG-CASHOUT-PROCESS',
    ]);
    expect(rulesOf(`x ${rules('R-AUTH-IP')}`)).toEqual(['R-AUTH-IP']);
    expect(rulesOf('no tags [not-a-rule]')).toEqual([]);
    expect(ruleById('R-AUTH-IP')?.seed).toEqual([
      'The JWT is bound to the client IP used at login; a different IP may fail authentication.',
    ]);
  });

  it('marks rules checked, failed, not run or unchecked from the outcomes of a run', () => {
    const matrix = ruleMatrix([
      { name: 'a [R-AUTH-IP]', state: 'passed' },
      { name: 'b [R-AUTH-IP, R-AUTH-ADMIN]', state: 'failed' },
      { name: 'c [R-AUTH-EXPIRY]', state: 'skipped' },
      { name: 'd [R-AUTH-LOGIN]', state: 'passed' },
    ]);
    const state = (id: string) => matrix.find((r) => r.rule.id === id)?.state;
    expect(state('R-AUTH-IP')).toBe('failed');
    expect(state('R-AUTH-ADMIN')).toBe('failed');
    expect(state('R-AUTH-EXPIRY')).toBe('not run');
    expect(state('R-AUTH-LOGIN')).toBe('checked');
    expect(state('R-AUTH-CLAIMS')).toBe('unchecked');
    expect(matrix.find((r) => r.rule.id === 'R-AUTH-IP')?.tests.map((t) => t.name)).toEqual([
      'a [R-AUTH-IP]',
      'b [R-AUTH-IP, R-AUTH-ADMIN]',
    ]);
    expect(matrix).toHaveLength(RULES.length);
  });
});

describe('missingSides', () => {
  it('names each rule of a time, order, amount or count nature whose passing tests lack a side its nature needs', () => {
    const sides = (...list: string[]) => list;
    const matrix = ruleMatrix([
      // R-LIMIT-CASHOUT is a time, an amount and a count: both roundings, only one side of its time, no
      // side of its count.
      {
        name: 'a',
        state: 'passed',
        rules: ['R-LIMIT-CASHOUT'],
        sides: sides('before', 'floor ≠ round', 'round ≠ ceil'),
      },
      // A failed or skipped test shows no side.
      { name: 'b', state: 'failed', rules: ['R-LIMIT-CASHOUT'], sides: sides('after') },
      { name: 'c', state: 'skipped', rules: ['R-LISTINGS'], sides: sides('order') },
      { name: 'd', state: 'passed', rules: ['R-CASHOUT-HISTORY'], sides: sides('order') },
      // The exact second of the chart's day windows is open (`openAt`): before and after suffice.
      { name: 'e', state: 'passed', rules: ['R-SALES-CHART'], sides: sides('before', 'after') },
      { name: 'f', state: 'passed', rules: ['R-LIMIT-EMAIL-CHANGE'], sides: sides('before', 'after') },
      // A count served at its number but never shown refused past it.
      { name: 'g', state: 'passed', rules: ['R-LIMIT-HEADER-FIELDS'], sides: sides('at the limit') },
    ]);
    const missing = missingSides(matrix);
    expect(missing).toContain('R-LIMIT-CASHOUT (time: at, time: after, count: at the limit, count: past the limit)');
    expect(missing.find((m) => m.startsWith('R-SALES-CHART '))).toBeUndefined();
    // A time the document settles to the second needs the exact second too.
    expect(missing).toContain('R-LIMIT-EMAIL-CHANGE (time: at, count: at the limit, count: past the limit)');
    expect(missing).toContain('R-LISTINGS (order: order)');
    expect(missing.find((m) => m.startsWith('R-CASHOUT-HISTORY '))).toBeUndefined();
    expect(missing).toContain('R-LIMIT-HEADER-FIELDS (count: past the limit)');
    // A rule of no such nature needs no side.
    expect(missing.find((m) => m.startsWith('R-AUTH-IP '))).toBeUndefined();
    // With every side a nature needs, nothing is missing.
    const all = Object.values(NEEDED_SIDES).flat();
    expect(
      missingSides(ruleMatrix(RULES.map((r) => ({ name: r.id, state: 'passed', rules: [r.id], sides: all })))),
    ).toEqual([]);
  });

  it('the rules of a time, order, amount or count nature are all checkable through HTTP', () => {
    expect(RULES.filter((r) => r.nature?.length && r.unchecked).map((r) => r.id)).toEqual([]);
  });

  it('only a time rule says why its exact second is open', () => {
    expect(RULES.filter((r) => r.openAt && !r.nature?.includes('time')).map((r) => r.id)).toEqual([]);
  });
});
