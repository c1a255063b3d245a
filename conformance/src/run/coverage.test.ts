import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RULES, ruleMatrix } from '../kit/rules.ts';
import { operations } from '../oracle/document.ts';
import { coverage, readTraffic, ruleTotals, totals, writeCoverage } from './coverage.ts';

const dir = mkdtempSync(join(tmpdir(), 'coverage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const seen = [
  { op: 'POST /user/login', status: 200 },
  { op: 'POST /user/login', status: 300, message: 'Missing required parameter: apiKey' },
  { op: 'POST /deposit/trade', status: 300, message: 'invalid deposit key for assetId: 991' },
  { op: 'POST /deposit/trade', status: 418 },
];
const rows = coverage(seen);
const row = (name: string) => rows.find((r) => r.operation === name)!;

describe('coverage', () => {
  it('has a row per operation, with its documented statuses and messages', () => {
    expect(rows.map((r) => r.operation)).toEqual(operations.map((o) => o.name));
    expect(row('POST /user/login').statuses.map((s) => s.status)).toEqual(['200', '300', '403', '429', '500', '503']);
  });

  it('marks the statuses and messages the traffic exercised', () => {
    const loginRow = row('POST /user/login');
    expect(loginRow.statuses.filter((s) => s.hit).map((s) => s.status)).toEqual(['200', '300']);
    expect(loginRow.messages.filter((m) => m.hit).map((m) => m.message)).toEqual([
      'Missing required parameter: apiKey',
    ]);
    expect(loginRow.messages.filter((m) => !m.hit).map((m) => m.message)).toEqual([
      'Invalid API key',
      'Country blocked',
      'forbidden',
    ]);
  });

  it('matches message templates and ignores undocumented statuses', () => {
    const deposit = row('POST /deposit/trade');
    expect(deposit.messages.find((m) => m.message === 'invalid deposit key for assetId: <asset_id>')?.hit).toBe(true);
    expect(deposit.statuses.find((s) => s.status === '418')).toBeUndefined();
  });

  it('totals operations, statuses and messages', () => {
    const t = totals(rows);
    expect(t.operations).toEqual({ hit: 2, all: operations.length });
    expect(t.statuses.hit).toBe(3);
    expect(t.messages.hit).toBe(2);
    expect(t.statuses.all).toBe(rows.flatMap((r) => r.statuses).length);
  });

  it('counts nothing of an operation that answered only 404 (the unknown route): not implemented', () => {
    const bare = coverage([
      ...seen,
      { op: 'GET /user/balance', status: 404, message: 'Unknown route or resource' },
      { op: 'GET /user/balance', status: 404 },
      { op: 'GET /item/listing/{item}', status: 404 },
      { op: 'GET /item/listing/{item}', status: 200 },
    ]);
    const balance = bare.find((r) => r.operation === 'GET /user/balance')!;
    expect([balance.implemented, balance.statuses.some((s) => s.hit), balance.messages.some((m) => m.hit)]).toEqual([
      false,
      false,
      false,
    ]);
    const listing = bare.find((r) => r.operation === 'GET /item/listing/{item}')!;
    expect(listing.implemented).toBe(true);
    expect(listing.statuses.filter((s) => s.hit).map((s) => s.status)).toEqual(['200', '404']);
    expect(totals(bare).operations).toEqual({ hit: 3, all: operations.length });
  });

  it('writes coverage.md and coverage.html with the totals and percentages', () => {
    writeCoverage(dir, rows, 'http://api.test');
    const md = readFileSync(join(dir, 'coverage.md'), 'utf8');
    expect(md).toContain(`operations 2/${operations.length} (${Math.round((2 / operations.length) * 100)}%)`);
    expect(md).toContain('| `POST /user/login` | ✔ | ✔ 200 ✔ 300 · 403 · 429 · 500 · 503 | 1/4 |');
    expect(md).toContain('| `GET /user/balance` | · | ');
    expect(md).toContain('- ✔ `Missing required parameter: apiKey`');
    const html = readFileSync(join(dir, 'coverage.html'), 'utf8');
    expect(html).toContain('<code>POST /user/login</code>');
    expect(html).toContain('&lt;asset_id&gt;');
  });

  it('reads the traffic files the workers wrote, and removes them', () => {
    writeFileSync(join(dir, 'traffic-1.ndjson'), `${JSON.stringify(seen[0])}\n${JSON.stringify(seen[1])}\n`);
    writeFileSync(join(dir, 'traffic-2.ndjson'), `${JSON.stringify(seen[2])}\n`);
    expect(readTraffic(dir)).toHaveLength(3);
    expect(readTraffic(dir)).toEqual([]);
  });

  it('adds the rule matrix: each rule with the tests naming it, their outcome, and the rules no test checks with the reason', () => {
    const outcomes = [
      {
        name: 'auth Given a token from another IP [R-AUTH-IP, R-ERR-403]',
        state: 'passed' as const,
        sides: ['before', 'at'],
      },
      { name: 'admin Given <b> a ban [R-TRANS-BAN]', state: 'failed' as const },
      { name: 'cashouts Given a request [R-LIMIT-CASHOUT]', state: 'skipped' as const },
      {
        name: 'login Given 100 and 101 header fields [R-LIMIT-HEADER-FIELDS]',
        state: 'passed' as const,
        sides: ['at the limit', 'past the limit'],
      },
    ];
    const { markdown, html } = writeCoverage(dir, rows, 'http://api.test', outcomes);
    const t = ruleTotals(ruleMatrix(outcomes));
    expect(t).toEqual({ rules: RULES.length, checked: 3, failed: 1, notRun: 1, unchecked: RULES.length - 5 });
    expect(markdown).toContain('# Rule matrix');
    expect(markdown).toContain(`Seed rules: ${RULES.length}; checked by a passing test 3`);
    // A rule of the document's own shows the document's words.
    expect(markdown).toContain(
      '| `R-LIMIT-HEADER-FIELDS` | Limits | 431 `Request header fields too large` for headers over 16,384 bytes or more than 100 header fields / - status: 431',
    );
    expect(markdown).toMatch(/\| ✔ checked \| at the limit, past the limit \| ✔ login Given 100 and 101 header fields/);
    // One quoted from a path's own file names that file first.
    expect(markdown).toContain(
      '| `R-LIMIT-LOGIN-IP` | Limits | paths/user_login.yaml: at most 20 attempts answered `Invalid API key` per IP in 5 minutes / ',
    );
    expect(markdown).toMatch(
      /\| `R-AUTH-IP` \| Authentication \| The JWT is bound to the client IP used at login[^|]*\| ✔ checked \| before, at \| ✔ auth Given a token from another IP \[R-AUTH-IP, R-ERR-403\] \|/,
    );
    expect(markdown).toMatch(/\| `R-TRANS-BAN` \| States and transitions \| .* \| ✘ failed \| — \|/);
    expect(markdown).toMatch(/\| `R-LIMIT-CASHOUT` \| Limits \| .* \| · not run \|/);
    const reason = RULES.find((r) => r.id === 'R-ERR-500')!.unchecked!;
    expect(markdown).toContain(`- \`R-ERR-500\`: ${reason}`);
    expect(markdown).toContain(`- \`R-STATE-OFFER\`: `);
    expect(markdown).toContain('## Parts of checked rules no test can check through HTTP');
    expect(html).toContain('<h1>Rule matrix</h1>');
    expect(html).toContain('admin Given &lt;b&gt; a ban [R-TRANS-BAN]');
    expect(readFileSync(join(dir, 'coverage.html'), 'utf8')).toBe(html);
  });
});
