// The known-failures baseline: read with one-line errors, applied to a run (known until the date,
// fixed when the test passes, failing again once expired), written from a run's results.json by
// `baseline write` (known entries keep their date, what passed is dropped), and through the CLI
// against a server with a planted fault: red, then green with the baseline, then "fixed" once the
// fault is gone.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../packages/server/src/routes/test-harness.fixture.ts';
import { runCli } from '../testing/cli-process.ts';
import { FAULTS, startFaultyProxy } from '../testing/faults.ts';
import { applyBaseline, type Baseline, baselineOf, isDate, readBaseline } from './baseline.ts';
import type { TestOutcome } from './report.ts';

const scratch = mkdtempSync(join(tmpdir(), 'conformance-baseline-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const path = join(scratch, name);
  writeFileSync(path, content);
  return path;
};

const outcome = (name: string, state: TestOutcome['state'], extra: Partial<TestOutcome> = {}): TestOutcome => ({
  name,
  file: 'tests/cart.test.ts',
  area: 'cart',
  level: 'behavior',
  state,
  ...extra,
});

describe('a baseline file', () => {
  it.each([
    ['not JSON', '{', /^cannot read the baseline .*: /],
    ['no failures list', '{"known": []}', /has no "failures" list$/],
    ['an entry without a test', '{"failures": [{"rules": []}]}', /failures\[0\] has no "test" name$/],
    [
      'a date that is not one',
      '{"failures": [{"test": "a", "expires": "2027-02-30"}]}',
      /failures\[0\]\.expires must be a date YYYY-MM-DD, got 2027-02-30$/,
    ],
  ])('Given %s, then reading it says what is wrong in one line', (_, content, message) => {
    expect(() => readBaseline(file('bad.json', content))).toThrow(message);
  });

  it('knows a real date from a look-alike', () => {
    expect([isDate('2027-01-31'), isDate('2027-1-31'), isDate('2027-02-29'), isDate('2028-02-29')]).toEqual([
      true,
      false,
      false,
      true,
    ]);
  });
});

describe('applying a baseline', () => {
  const baseline: Baseline = {
    failures: [
      { test: 'still broken', rules: ['R-CART-3'] },
      { test: 'broken until spring', expires: '2027-03-01' },
      { test: 'broken, expired', expires: '2026-11-24' },
      { test: 'fixed meanwhile' },
      { test: 'renamed or gone' },
      { test: 'skipped now' },
    ],
  };
  const outcomes = [
    outcome('still broken', 'failed'),
    outcome('broken until spring', 'failed'),
    outcome('broken, expired', 'failed'),
    outcome('fixed meanwhile', 'passed'),
    outcome('skipped now', 'skipped'),
    outcome('new failure', 'failed'),
  ];
  const use = applyBaseline(outcomes, baseline, 'baseline.json', '2026-11-25');

  it('Given failures it lists, then they are known until their date (the date itself included)', () => {
    expect(use.known).toBe(2);
    expect(outcomes.filter((o) => o.known).map((o) => [o.name, o.known])).toEqual([
      ['still broken', {}],
      ['broken until spring', { expires: '2027-03-01' }],
    ]);
    const onTheDay = [outcome('broken until spring', 'failed')];
    expect(applyBaseline(onTheDay, baseline, 'b', '2027-03-01').known).toBe(1);
    expect(applyBaseline(onTheDay, baseline, 'b', '2027-03-02').expired.map((e) => e.test)).toEqual([
      'broken until spring',
    ]);
  });

  it('Given an expired entry, then its failure fails again and says so; a new failure fails', () => {
    expect(use.expired.map((e) => e.test)).toEqual(['broken, expired']);
    const expired = outcomes.find((o) => o.name === 'broken, expired');
    expect([expired?.known, expired?.baseline]).toEqual([undefined, { expires: '2026-11-24', expired: true }]);
    expect(outcomes.find((o) => o.name === 'new failure')?.known).toBeUndefined();
  });

  it('Given a listed test that passes, then it is reported fixed; one that did not run is kept', () => {
    expect(use.fixed.map((e) => e.test)).toEqual(['fixed meanwhile']);
    expect(use.notRun.map((e) => e.test)).toEqual(['renamed or gone', 'skipped now']);
  });

  it('writes the failures of a run again: known ones keep their date, new ones get the given one, fixed ones go', () => {
    const written = baselineOf({ target: 'http://t', outcomes }, '2027-01-31');
    expect(written.failures.map((f) => [f.test, f.expires])).toEqual([
      ['still broken', '2027-01-31'],
      ['broken until spring', '2027-03-01'],
      ['broken, expired', '2027-01-31'],
      ['new failure', '2027-01-31'],
    ]);
    expect(written.$comment).toMatch(/^Known failures of marketplace-conformance against http:\/\/t/);
  });
});

describe('the baseline through the CLI', () => {
  const cli = (args: string[]) => runCli(args, { scratch, env: { NO_COLOR: '1' } });

  it('Given a bad --expires or --baseline, then one line and exit 2, before any run', { timeout: 60_000 }, async () => {
    const expires = await cli(['baseline', 'write', '--expires', 'soon']);
    expect([expires.code, expires.stderr.split('\n')[0]]).toEqual([
      2,
      'marketplace-conformance: --expires must be a date YYYY-MM-DD, got soon',
    ]);
    const bad = file('not-a-baseline.json', '[]');
    const run = await cli(['--target', 'http://127.0.0.1:1', '--baseline', bad]);
    expect([run.code, run.stderr]).toEqual([
      2,
      `marketplace-conformance: the baseline ${bad} has no "failures" list\n`,
    ]);
    const missing = await cli(['baseline', 'write', '--from', join(scratch, 'none.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^marketplace-conformance: cannot read .*none\.json: /);
  });

  it('Given a planted fault: red; baseline write; green with the baseline, known in every report; fixed once the fault is gone', {
    timeout: 300_000,
  }, async () => {
    const server = await startTestServer({ env: { MARKETPLACE_BLOCKED_COUNTRIES: 'KP' } });
    const fault = FAULTS['closed-ticket-open']!;
    const faulty = await startFaultyProxy(server.baseUrl, fault);
    const clean = await startFaultyProxy(server.baseUrl);
    try {
      const grep = ['--grep', fault.grep, '--reporter', 'junit,html,badge'];
      const red = await cli(['--target', faulty.url, ...grep]);
      expect(red.code, red.stdout).toBe(1);
      const failed = red.result!.failed.map((f) => f.name);
      expect(failed.length).toBeGreaterThan(0);

      const baselineFile = join(scratch, 'conformance-baseline.json');
      const write = await cli([
        'baseline',
        'write',
        '--from',
        join(red.out, 'results.json'),
        '--out',
        baselineFile,
        '--expires',
        '2099-12-31',
      ]);
      expect(write.code, write.stderr).toBe(0);
      expect(write.stdout).toContain(`${baselineFile}: ${failed.length} known failure`);
      const written = readBaseline(baselineFile);
      expect(written.failures.map((f) => f.test)).toEqual(failed);
      expect(written.failures.every((f) => f.expires === '2099-12-31' && f.operation)).toBe(true);

      const green = await cli(['--target', faulty.url, ...grep, '--baseline', baselineFile]);
      expect(green.code, green.stdout).toBe(0);
      expect(green.result!.failed).toEqual([]);
      expect(green.result!.known.map((k) => k.name)).toEqual(failed);
      expect(green.stdout).toContain(
        `Baseline ${baselineFile}: ${failed.length} known failures (reported, not failing)`,
      );
      expect(green.stdout).toContain('Result: passed');
      const junit = readFileSync(join(green.out, 'junit.xml'), 'utf8');
      expect(junit).toContain('failures="0"');
      expect(junit).toContain('<skipped message="known failure (baseline until 2099-12-31)');
      expect(readFileSync(join(green.out, 'report.html'), 'utf8')).toContain(
        `<span class="c-known">${failed.length} known failures</span>`,
      );
      const summary = JSON.parse(readFileSync(join(green.out, 'summary.json'), 'utf8'));
      expect(summary).toMatchObject({ result: 'passed', counts: { failed: 0, known: failed.length } });

      const fixed = await cli(['--target', clean.url, ...grep, '--baseline', baselineFile]);
      expect(fixed.code, fixed.stdout).toBe(0);
      expect(fixed.result!.baseline?.fixed.map((e) => e.test)).toEqual(failed);
      expect(fixed.stdout).toContain(`fixed: remove from the baseline (${failed.length};`);
      // Written again from the fixed run, the baseline is empty.
      const again = await cli(['baseline', 'write', '--from', join(fixed.out, 'results.json'), '--out', baselineFile]);
      expect(again.code).toBe(0);
      expect(readBaseline(baselineFile).failures).toEqual([]);
    } finally {
      await Promise.all([faulty.close(), clean.close()]);
      await server.close();
    }
  });
});
