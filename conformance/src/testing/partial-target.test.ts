// The suite on implementations that are not ours: the reference server behind a proxy that answers
// the unknown-route 404 (envelope A `Not found`) for a seeded random half of the operations and of
// the test helpers, as a team's backend mid-way does. The run is green, nothing crashes, every skip
// names an operation or helper that is missing, and the tests that need nothing missing still run.
// With one bug planted in a present operation, the run fails naming that operation only.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../packages/server/src/routes/test-harness.fixture.ts';
import { noCredentials, noCredentialsFailure } from '../kit/helpers.ts';
import { LEVEL } from '../kit/settings.ts';
import { NO_HELPERS } from '../kit/target.ts';
import { findHelper, findOperation, helperOperations, isConnected, operations } from '../oracle/document.ts';
import { type CliRun, runCli } from './cli-process.ts';
import { FAULTS, type Fault, startFaultyProxy } from './faults.ts';
import { FRAMEWORK_PAGE, type Missing, partial, removedBy, UNKNOWN_ROUTE } from './partial.fixture.ts';

const scratch = mkdtempSync(join(tmpdir(), 'conformance-partial-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the suite (all of it, unless `args` narrow it) against the reference server behind the partial proxy. */
async function runPartial(removed: Set<string>, bug?: Fault, args: string[] = [], missing: Missing = UNKNOWN_ROUTE) {
  const server = await startTestServer({ env: { MARKETPLACE_BLOCKED_COUNTRIES: 'KP' } });
  const proxy = await startFaultyProxy(server.baseUrl, partial(removed, bug, missing));
  try {
    return await runCli(['--target', proxy.url, '--blocked-country', 'KP', ...args], {
      scratch,
      env: { NO_COLOR: '1' },
    });
  } finally {
    await proxy.close();
    await server.close();
  }
}

/** A proxy fault that changes nothing and adds the name of every operation (and test helper) it is sent to `sent`. */
const countingInto = (sent: Set<string>, helpers = false): Fault => ({
  description: 'counts the operations it is sent',
  grep: '',
  response: (x) => {
    const name = findOperation(x.method, x.path)?.name ?? (helpers ? findHelper(x.method, x.path)?.name : undefined);
    if (name) sent.add(name);
  },
});

/** A run that failed nothing and exited 0. */
function expectGreen(run: CliRun) {
  expect(
    run.result?.failed.map((f) => `${f.name}: ${f.reason}`),
    run.stdout.slice(-3000),
  ).toEqual([]);
  expect(run.code).toBe(0);
}

/** A run that failed nothing and exited 0, having sent nothing outside `scope`. */
function expectGreenWithin(run: CliRun, sent: Set<string>, scope: string[]) {
  expectGreen(run);
  expect([...sent].filter((n) => !scope.includes(n))).toEqual([]);
}

/**
 * Runs `args` against a target without test helpers (every helper 404), plain and with
 * --require-all: the plain run is green with tests skipped for `why`, and under the gate exactly
 * those tests fail (beside the operations no test reached), each saying `failure`. Returns the
 * plain run and the names of those tests.
 */
async function skipsFailUnderGate(args: string[], why: string, failure: string) {
  const noHelpers = new Set(helperOperations.map((h) => h.name));
  const plain = await runPartial(noHelpers, undefined, args);
  expectGreen(plain);
  const names = plain
    .result!.skipped.filter((s) => s.reason === why)
    .map((s) => s.name)
    .sort();
  expect(names.length).toBeGreaterThan(0);
  const gate = await runPartial(noHelpers, undefined, [...args, '--require-all']);
  expect(gate.code, gate.stdout.slice(-3000)).toBe(1);
  expect(gate.result!.skipped.filter((s) => s.reason === why)).toEqual([]);
  const failed = gate.result!.failed.filter((f) => !f.name.endsWith(' is implemented (--require-all)'));
  expect(failed.map((f) => f.name).sort()).toEqual(names);
  for (const f of failed) expect(f.reason).toContain(failure);
  return { plain, names };
}

const NOT_IMPLEMENTED = /^not implemented: ((?:GET|POST) \S+) answered 404 \(needed to .+\)$/;
const HELPER_PROBES = ['GET /test_helpers/clock', 'GET /test_helpers/outbox', 'GET /test_helpers/platform/offers'];

describe('a partial implementation: a random half of the operations and of the test helpers answer 404', () => {
  it.each([
    [1, 'the unknown-route 404 of the document', UNKNOWN_ROUTE],
    [5, "a web framework's 404 page", FRAMEWORK_PAGE],
  ] as const)(
    'seed %i, missing routes answering %s: exit 0, no failure, every skip names a missing operation, the rest runs',
    {
      timeout: 300_000,
    },
    async (seed, _, missing) => {
      const removed = removedBy(seed);
      const { code, result, stdout, stderr } = await runPartial(removed, undefined, [], missing);
      expect(
        result?.failed.map((f) => `${f.name}: ${f.reason}`),
        `${stdout.slice(-3000)}${stderr}`,
      ).toEqual([]);
      expect(code).toBe(0);
      const helpersDetected = HELPER_PROBES.some((h) => !removed.has(h));
      for (const s of result!.skipped) {
        if (!helpersDetected && s.reason === NO_HELPERS) continue;
        const missing = s.reason?.match(NOT_IMPLEMENTED)?.[1];
        expect(missing, `${s.name}: ${s.reason}`).toBeDefined();
        expect(removed.has(missing!), `${s.name} skipped for ${missing}, which is present`).toBe(true);
      }
      // A test that needs nothing missing runs: the contract test of every present operation (called
      // as a fresh user or admin made by the users helper and a login, where it needs a session).
      const sessions =
        ['POST /user/login', 'POST /test_helpers/users'].every((n) => !removed.has(n)) && helpersDetected;
      const contract = (name: string) =>
        result!.outcomes.find((o) => o.name.startsWith(`contract: every operation answers as documented ${name} `));
      const present = operations.filter((o) => !removed.has(o.name) && (sessions || !isConnected(o)));
      expect(present.length).toBeGreaterThan(0);
      for (const o of present) expect(contract(o.name)?.state, o.name).toBe('passed');
      if (helpersDetected && !removed.has('POST /test_helpers/reset'))
        expect(result!.levels.behavior.passed).toBeGreaterThan(0);
      // The progress: a removed operation is never implemented (its 404s cover nothing), a present
      // one never failing; the coverage counts the implemented ones only.
      for (const r of result!.progress.operations)
        if (removed.has(r.operation)) {
          expect([r.operation, r.implemented, ['not implemented', 'not tested'].includes(r.state)]).toEqual([
            r.operation,
            false,
            true,
          ]);
        } else expect([r.operation, r.state]).not.toEqual([r.operation, 'failing']);
      expect(result!.progress.implemented).toBeGreaterThan(0);
      expect(result!.coverage.operations.hit).toBe(result!.progress.implemented);
      expect(stdout).toContain(
        `Progress: ${result!.progress.implemented} of ${operations.length} operations implemented`,
      );
    },
  );

  it('with a bug planted in a present operation, the run fails naming that operation only', {
    timeout: 300_000,
  }, async () => {
    const buggy = 'GET /item/listing/count/{item}';
    const { code, result, stdout, stderr } = await runPartial(removedBy(2, [buggy]), FAULTS['missing-field']);
    expect(code, `${stdout.slice(-3000)}${stderr}`).toBe(1);
    expect(result!.failed.length).toBeGreaterThan(0);
    expect(new Set(result!.failed.map((f) => f.failure?.operation))).toEqual(new Set([buggy]));
  });

  it('--operations: the tests needing another operation skip as not in scope, and nothing is sent to it', {
    timeout: 300_000,
  }, async () => {
    const scope = ['GET /item/listing/count/{item}', 'POST /user/login'];
    const sent = new Set<string>();
    const counting = countingInto(sent);
    const { code, result } = await runPartial(new Set(), counting, [
      '--level',
      'contract',
      '--operations',
      scope.join(),
    ]);
    expect(code).toBe(0);
    expect([...sent].filter((n) => !scope.includes(n))).toEqual([]);
    for (const name of scope)
      expect(
        result!.outcomes.find((o) => o.name.startsWith(`contract: every operation answers as documented ${name} `))
          ?.state,
      ).toBe('passed');
    const reasons = new Set(result!.skipped.map((s) => s.reason?.replace(/ \(needed to .*/, '')));
    expect(reasons).toContain('not in scope: GET /user/balance is left out by --operations');
    expect([...reasons].filter((r) => !r?.startsWith('not in scope: ') && r !== LEVEL)).toEqual([]);
  });

  it('a target implementing only POST /item/buyorder/update (and the log-in), run with --operations and --require-all: nothing outside the list is sent, failed or blamed, and the progress credits the operation with its tests in every report', {
    timeout: 300_000,
  }, async () => {
    const update = 'POST /item/buyorder/update';
    const scope = [update, 'POST /user/login'];
    const sent = new Set<string>();
    const counting = countingInto(sent);
    // The buy orders helper is missing too: the tests of the operations left out that use it must
    // not fail on its 404 under --require-all (they are not in scope as a whole).
    const removed = new Set([
      ...operations.map((o) => o.name).filter((n) => !scope.includes(n)),
      'POST /test_helpers/buyorders',
    ]);
    const run = await runPartial(removed, counting, [
      '--operations',
      scope.join(),
      '--require-all',
      '--grep',
      'buyorder',
      '--reporter',
      'junit',
    ]);
    expectGreenWithin(run, sent, scope);
    const { result, stdout, out } = run;
    // Skips say "not in scope" in results.json and in the console alike; no helper is blamed.
    for (const s of result!.skipped) if (s.outOfScope) expect(s.reason).toMatch(/^not in scope: /);
    expect(result!.skipped.filter((s) => s.missing?.length)).toEqual([]);
    expect(stdout).toMatch(/\d+ × not in scope: /);
    expect(stdout).not.toMatch(/× not implemented|test helpers answering 404/);
    // Its tests counted for it, not for POST /item/buyorder, whose template it extends.
    const row = result!.progress.operations.find((r) => r.operation === update)!;
    const passedNamingIt = result!.outcomes.filter((o) => o.state === 'passed' && o.name.includes(update));
    expect(passedNamingIt.length).toBeGreaterThan(0);
    expect(row).toMatchObject({ state: 'passing', implemented: true, passed: passedNamingIt.length });
    expect(result!.progress.operations.find((r) => r.operation === 'POST /item/buyorder')).toMatchObject({
      state: 'not in scope',
      passed: 0,
    });
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain(
      `<property name="operation ${update}" value="passing: ${row.passed} passed, 0 failed, 0 known, ${row.skipped} skipped"/>`,
    );
  });

  it('--operations naming test helpers but none of the reading ones: the helpers are found by asking the named ones (nothing sent outside the list), and without test mode they are told missing', {
    timeout: 300_000,
  }, async () => {
    const scope = [
      'POST /item/buyorder',
      'POST /user/login',
      'POST /test_helpers/reset',
      'POST /test_helpers/users',
      'POST /test_helpers/assets',
    ];
    const args = ['--operations', scope.join(), '--grep', 'POST /item/buyorder'];
    const sent = new Set<string>();
    const run = await runPartial(new Set(), countingInto(sent, true), args);
    expectGreenWithin(run, sent, scope);
    const { result } = run;
    expect(sent).toContain('POST /test_helpers/users');
    const reasons = new Set(result!.skipped.map((s) => s.reason?.replace(/ \(needed to .*/, '')));
    expect(
      [...reasons].filter((r) => !r?.startsWith('not in scope: ') && !r?.startsWith('left out by --grep')),
    ).toEqual([]);
    expect(result!.levels.behavior.passed).toBeGreaterThan(0);
    // Connected routes get accounts from the users helper: their contract tests run.
    expect(
      result!.outcomes.find((o) =>
        o.name.startsWith('contract: every operation answers as documented POST /item/buyorder '),
      )?.state,
    ).toBe('passed');

    // The same list against a target without test mode (every helper 404): the probe finds none.
    const without = await runPartial(new Set(helperOperations.map((h) => h.name)), undefined, args);
    expect(without.code, without.stdout.slice(-3000)).toBe(0);
    expect(without.result!.skipped.map((s) => s.reason)).toContain(NO_HELPERS);
  });

  it('--require-all: an operation that answers 404 fails the test that needs it, named', {
    timeout: 300_000,
  }, async () => {
    const { code, result } = await runPartial(new Set(['GET /user/balance']), undefined, [
      '--require-all',
      '--grep',
      'documented GET /user/balance ',
    ]);
    expect(code).toBe(1);
    const failed = result!.failed.find((f) =>
      f.name.startsWith('contract: every operation answers as documented GET /user/balance '),
    );
    expect(failed?.failure?.operation).toBe('GET /user/balance');
    expect(failed?.reason).toContain('not implemented: GET /user/balance answered 404');
  });

  it('a target without test helpers (every helper 404, a target run without test mode): its behaviour tests skip naming that, and fail under --require-all, naming what the helpers answered', {
    timeout: 300_000,
  }, async () => {
    const { plain } = await skipsFailUnderGate(
      ['--grep', 'POST /user/login attempts'],
      NO_HELPERS,
      `${NO_HELPERS}: --require-all makes a target without working test helpers a failure (GET /test_helpers/clock answered 404 `,
    );
    // The tests --grep leaves out skip as such; all the others need the helpers.
    const needing = plain.result!.skipped.filter((s) => !s.reason?.startsWith('left out by --grep'));
    expect(new Set(needing.map((s) => s.reason))).toEqual(new Set([NO_HELPERS]));
  });

  it('a target without test helpers and no --api-key: the contract and negative tests of logged-in routes skip for want of credentials, and fail under --require-all saying so', {
    timeout: 300_000,
  }, async () => {
    const args = [
      '--level',
      'contract',
      '--grep',
      '(documented GET /user/balance |negative data: POST /item/buyorder )',
    ];
    const { names } = await skipsFailUnderGate(args, noCredentials(false), noCredentialsFailure(false, true)!);
    expect(names.some((n) => n.startsWith('contract: every operation answers as documented GET /user/balance '))).toBe(
      true,
    );
    expect(names.some((n) => n.startsWith('negative data: POST /item/buyorder '))).toBe(true);
    // A test of an operation --operations leaves out skips as not in scope, credentials or not.
    const scoped = await runPartial(new Set(helperOperations.map((h) => h.name)), undefined, [
      ...args,
      '--require-all',
      '--operations',
      'GET /user/balance',
    ]);
    const failed = scoped.result!.failed.filter((f) => !f.name.endsWith(' is implemented (--require-all)'));
    expect(failed.map((f) => f.name)).toEqual(names.filter((n) => n.includes('GET /user/balance')));
    const buyorder = scoped.result!.skipped.filter((s) => s.name.startsWith('negative data: POST /item/buyorder '));
    expect(buyorder.length).toBeGreaterThan(0);
    for (const s of buyorder) expect(s.outOfScope).toEqual(['POST /item/buyorder']);
  });
});
