// What changed since a previous run, read from its summary.json (as --reporter badge writes it) or
// its results.json: tests that fail now and did not, failures that pass now, operations that answer
// now; an older summary without states compares counts only, and a file that is neither is refused.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSummary } from './badge.ts';
import { changesLines, changesSince, readPrevious } from './changes.ts';
import type { RunResult, TestOutcome } from './report.ts';
import { madeUpRun } from './run-result.fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'changes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const test = (name: string, operation: string, state: TestOutcome['state'], more: Partial<TestOutcome> = {}) =>
  ({ name, file: 'tests/x.test.ts', area: 'x', operation, level: 'behavior', state, ...more }) as TestOutcome;

/** A run of these outcomes: `answered` with 200, what a test needed and missed with the unknown route's 404. */
const run = (outcomes: TestOutcome[], answered: string[]): RunResult =>
  madeUpRun(outcomes, [
    ...answered.map((op) => ({ op, status: 200 })),
    ...outcomes.flatMap((o) => o.missing ?? []).map((op) => ({ op, status: 404 })),
  ]);

const before = run(
  [
    test('balance read', 'GET /user/balance', 'failed'),
    test('cart add', 'POST /cart/add', 'passed'),
    test('cart add twice', 'POST /cart/add', 'passed'),
    test('order placed', 'POST /item/buyorder', 'skipped', { missing: ['POST /item/buyorder'] }),
  ],
  ['GET /user/balance', 'POST /cart/add'],
);
const after = run(
  [
    test('balance read', 'GET /user/balance', 'passed'),
    test('cart add', 'POST /cart/add', 'passed'),
    test('cart add twice', 'POST /cart/add', 'failed'),
    test('order placed', 'POST /item/buyorder', 'passed'),
    test('order known', 'POST /item/buyorder', 'failed', { known: {} }),
  ],
  ['GET /user/balance', 'POST /cart/add', 'POST /item/buyorder'],
);

const write = (name: string, value: unknown) => {
  writeFileSync(join(dir, name), JSON.stringify(value));
  return join(dir, name);
};

describe('changes since a previous run', () => {
  it('Given the summary.json of --reporter badge, then newly failing, fixed and newly implemented name their operations and tests', () => {
    const file = write('summary.json', runSummary(before, undefined, new Date('2026-11-25T06:00:00Z')));
    const c = changesSince(readPrevious(file), after);
    expect(c.date).toBe('2026-11-25T06:00:00.000Z');
    expect(c.newlyFailing).toEqual([{ operation: 'POST /cart/add', state: 'failing', tests: ['cart add twice'] }]);
    expect(c.fixed).toEqual([{ operation: 'GET /user/balance', state: 'passing', tests: ['balance read'] }]);
    expect(c.newlyImplemented).toEqual([{ operation: 'POST /item/buyorder', state: 'known failures', tests: [] }]);
    expect(c.counts).toMatchObject({ passed: [2, 3], failed: [1, 1], implemented: [2, 3] });
    expect(changesLines(c)).toEqual([
      `Since the previous run (${file} of 2026-11-25T06:00:00.000Z): passed 3 (+1), failed 1, operations implemented 3 (+1)`,
      '  newly failing: 1 operations: POST /cart/add',
      '  fixed: 1 operations: GET /user/balance',
      '  newly implemented: 1 operations: POST /item/buyorder',
    ]);
  });

  it('Given a results.json, then it compares the same way', () => {
    const c = changesSince(readPrevious(write('results.json', before)), after);
    expect(c.newlyFailing.map((o) => o.operation)).toEqual(['POST /cart/add']);
    expect(c.fixed.map((o) => o.operation)).toEqual(['GET /user/balance']);
    expect(c.newlyImplemented.map((o) => o.operation)).toEqual(['POST /item/buyorder']);
  });

  it('Given an operation failing then and passing now through renamed tests, then it is fixed all the same', () => {
    const { states } = runSummary(before);
    const c = changesSince(
      { file: 'x', counts: { passed: 0, failed: 1, skipped: 0 }, states, failures: ['an old name'] },
      after,
    );
    expect(c.fixed).toEqual([{ operation: 'GET /user/balance', state: 'passing', tests: [] }]);
  });

  it('Given an operation no test reached then (--grep, --level), then answering now is no news of implementation', () => {
    const { states } = runSummary(before);
    const c = changesSince(
      {
        file: 'x',
        counts: { passed: 0, failed: 0, skipped: 0 },
        states: { ...states, 'POST /item/buyorder': 'not tested' },
        failures: [],
      },
      after,
    );
    expect(c.newlyImplemented).toEqual([]);
  });

  it('Given a summary.json without states (an earlier suite), then only the counts are compared, and it says so', () => {
    const { states: _, failures: __, ...old } = runSummary(before);
    const c = changesSince(readPrevious(write('old.json', old)), after);
    expect([c.newlyFailing, c.fixed, c.newlyImplemented]).toEqual([[], [], []]);
    expect(c.limited).toContain('only the counts are compared');
    expect(changesLines(c)[1]).toContain('only the counts are compared');
  });

  it('Given a file that is no run, then it is refused in one line', () => {
    expect(() => readPrevious(write('other.json', { failures: [] }))).toThrow(
      /is neither a summary.json \(--reporter badge\) nor a results.json$/,
    );
    expect(() => readPrevious(join(dir, 'absent.json'))).toThrow(/^cannot read the previous run .*absent.json: ENOENT/);
  });
});
