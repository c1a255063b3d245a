// The progress of a team mid-way, operation by operation: implemented only when something other
// than the unknown-route 404 came back, each state (passing, failing, known failures, not
// implemented, not tested, not in scope) with its tests counted where their failure is pinned, the
// tests waiting on a missing operation or test helper, and the failures --require-all adds.
import { describe, expect, it } from 'vitest';
import { operations } from '../oracle/document.ts';
import type { Seen } from './coverage.ts';
import { operationNames, progressLines, progressOf, requiredFailures, requiredName } from './progress.ts';
import type { TestOutcome } from './report.ts';

const seen: Seen[] = [
  { op: 'POST /user/login', status: 200 },
  { op: 'GET /user/balance', status: 200 },
  { op: 'POST /cart/add', status: 300 },
  { op: 'POST /cart/add', status: 404 },
  { op: 'GET /user/ipList', status: 404 },
  { op: 'GET /user/ipList', status: 404 },
  { op: 'GET /cart/get', status: 200 },
];

const test = (o: Partial<TestOutcome> & Pick<TestOutcome, 'name' | 'state'>): TestOutcome => ({
  file: 'tests/x.test.ts',
  area: 'x',
  level: 'behavior',
  ...o,
});
const failure = (operation: string) => ({ summary: `${operation}: broken`, operation, rules: [], text: 'broken' });

const outcomes: TestOutcome[] = [
  test({ name: 'login works', state: 'passed', operation: 'POST /user/login' }),
  test({ name: 'balance works', state: 'passed', operation: 'GET /user/balance' }),
  // About the cart, but its failure is pinned on the balance read: it counts there.
  test({ name: 'cart debits', state: 'failed', operation: 'POST /cart/add', failure: failure('GET /user/balance') }),
  test({ name: 'cart adds', state: 'passed', operation: 'POST /cart/add' }),
  test({
    name: 'cart lists',
    state: 'failed',
    operation: 'GET /cart/get',
    failure: failure('GET /cart/get'),
    known: {},
  }),
  test({
    name: 'sessions listed',
    state: 'skipped',
    operation: 'GET /user/ipList',
    reason: 'not implemented: GET /user/ipList answered 404 (needed to list sessions)',
    missing: ['GET /user/ipList'],
  }),
  test({
    name: 'cashout completes',
    state: 'skipped',
    operation: 'POST /cashout/process',
    reason: 'not implemented: POST /test_helpers/payments/{cashoutId} answered 404 (needed to settle a cashout)',
    missing: ['POST /test_helpers/payments/{cashoutId}'],
  }),
];
const missing = new Map([
  ['GET /user/ipList', 1],
  ['POST /test_helpers/payments/{cashoutId}', 1],
]);
const row = (p: ReturnType<typeof progressOf>, name: string) => p.operations.find((r) => r.operation === name)!;

describe('progress', () => {
  const p = progressOf(seen, outcomes, { missing });

  it('Given answers other than 404, then the operation is implemented; only 404s, not implemented; no request, not tested', () => {
    expect(p.of).toBe(operations.length);
    expect(p.implemented).toBe(4);
    expect(row(p, 'POST /cart/add')).toMatchObject({ implemented: true, state: 'passing', passed: 1, failed: 0 });
    expect(row(p, 'GET /user/ipList')).toMatchObject({ implemented: false, state: 'not implemented', waiting: 1 });
    expect(row(p, 'GET /giveaways')).toMatchObject({ implemented: false, state: 'not tested' });
    expect([p.notImplemented, p.notTested]).toEqual([1, operations.length - 5]);
  });

  it('counts a failure where it is pinned, and a failure of the baseline as known', () => {
    expect(row(p, 'GET /user/balance')).toMatchObject({ state: 'failing', passed: 1, failed: 1 });
    expect(row(p, 'GET /cart/get')).toMatchObject({ state: 'known failures', failed: 0, known: 1 });
    expect([p.passing, p.failing, p.known]).toEqual([2, 1, 1]);
  });

  it('Given --operations, then the others are not in scope (by name or operationId)', () => {
    const login = operations.find((o) => o.name === 'POST /user/login')!;
    const scope = operationNames([login.id, 'GET /user/balance', 'POST /cart/add', 'GET /cart/get']);
    expect(scope).toEqual(new Set(['POST /user/login', 'GET /user/balance', 'POST /cart/add', 'GET /cart/get']));
    const scoped = progressOf(seen, outcomes, { scope, missing });
    expect(row(scoped, 'GET /user/ipList').state).toBe('not in scope');
    expect(scoped.notInScope).toBe(operations.length - 4);
    expect(scoped.notImplemented + scoped.notTested).toBe(0);
    expect(progressLines(scoped)).toContain(`  - not in scope (--operations): ${operations.length - 4}`);
  });

  it('credits a test naming several operations to each it names, and a failure only where it is pinned', () => {
    const two = ['POST /item/buyorder', 'POST /item/buyorder/update'];
    const listed = progressOf(
      [
        { op: 'POST /item/buyorder', status: 200 },
        { op: 'POST /item/buyorder/update', status: 200 },
      ],
      [
        test({ name: 'POST /item/buyorder and /update: both', state: 'passed', operation: two[0], operations: two }),
        test({
          name: 'POST /item/buyorder and /update: skipped',
          state: 'skipped',
          operation: two[0],
          operations: two,
        }),
        test({ name: 'POST /item/buyorder: alone', state: 'passed', operation: two[0] }),
        test({
          name: 'POST /item/buyorder and /update: broken',
          state: 'failed',
          operation: two[0],
          operations: two,
          failure: failure('POST /item/buyorder/update'),
        }),
      ],
    );
    expect(row(listed, 'POST /item/buyorder')).toMatchObject({ state: 'passing', passed: 2, failed: 0, skipped: 1 });
    expect(row(listed, 'POST /item/buyorder/update')).toMatchObject({
      state: 'failing',
      passed: 1,
      failed: 1,
      skipped: 1,
    });
  });

  it('lists the missing test helpers with the tests waiting on them', () => {
    expect(p.missing).toEqual([
      { name: 'GET /user/ipList', tests: 1 },
      { name: 'POST /test_helpers/payments/{cashoutId}', tests: 1 },
    ]);
    const text = progressLines(p).join('\n');
    expect(text).toContain(`Progress: 4 of ${operations.length} operations implemented: 2 passing, 1 failing`);
    expect(text).toContain('  ✗ GET /user/balance: 1 failed, 1 passed, 0 skipped');
    expect(text).toContain('  ~ GET /cart/get: 0 failed, 1 known, 0 passed, 0 skipped');
    expect(text).toMatch(/ {2}· not implemented, most awaited first \(1\):\n {6}GET \/user\/ipList \(1 tests wait\)/);
    expect(text).toContain('POST /test_helpers/payments/{cashoutId} (1 tests wait)');
  });

  it('Given --require-all, then each missing operation without a failure of its own is a failure, named after it', () => {
    const failing = [
      ...outcomes,
      test({ name: 'ipList fails (--require-all)', state: 'failed', failure: failure('GET /user/ipList') }),
    ];
    const required = requiredFailures(progressOf(seen, failing, { missing }));
    const names = required.map((o) => o.name);
    expect(names).toContain(requiredName('GET /giveaways'));
    expect(names).not.toContain(requiredName('GET /user/ipList')); // its tests fail already
    expect(names).not.toContain(requiredName('POST /user/login'));
    expect(required.find((o) => o.name === requiredName('GET /giveaways'))).toMatchObject({
      state: 'failed',
      operation: 'GET /giveaways',
      failure: { operation: 'GET /giveaways', summary: expect.stringMatching(/^GET \/giveaways: not tested/) },
    });
    const scoped = requiredFailures(progressOf(seen, outcomes, { missing, scope: new Set(['GET /user/ipList']) }));
    expect(scoped.map((o) => o.name)).toEqual([requiredName('GET /user/ipList')]);
    expect(scoped[0]!.failure!.summary).toMatch(/not implemented: it answered only 404/);
  });
});
