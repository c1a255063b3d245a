// `explore` proven against the reference server in test mode (in process, free port): a bounded
// fixed-seed run finds nothing; behind a planted money fault, a planted ownership fault
// (faults.ts, STATE_FAULTS), a rounding fault and a stranger's step let through (FAULTS: another
// user's asset withdrawn or pooled into a giveaway, another user's deposit status read) it fails
// with a shrunk sequence of at most 10 steps that replays to the same failure, printed as curl
// lines and written as a replay file and an Arazzo workflow; and against a target without the test
// helpers (the mock) the CLI says so and exits 2. On a partial implementation (partial.fixture.ts:
// a seeded half of the operations and helpers answer 404) it exits 0 listing what it left out,
// still fails behind a money fault, and exits 2 without its set-up.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMock } from '../../../packages/mock/src/mock.ts';
import { startTestServer } from '../../../packages/server/src/routes/test-harness.fixture.ts';
import { findHelper, findOperation } from '../oracle/document.ts';
import { runCli } from '../testing/cli-process.ts';
import { FAULTS, type Fault, STATE_FAULTS, startFaultyProxy } from '../testing/faults.ts';
import { partial, removedBy } from '../testing/partial.fixture.ts';
import { curlLines, explore, readReplay, replay } from './explore.ts';

const scratch = mkdtempSync(join(tmpdir(), 'explore-'));
let reference: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  reference = await startTestServer();
}, 60_000);
afterAll(async () => {
  await reference?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('marketplace-conformance explore', () => {
  it('Given the reference server, then a bounded run of seed 7 keeps every invariant', {
    timeout: 120_000,
  }, async () => {
    const result = await explore({ target: reference.baseUrl, seed: 7, steps: 40, time: 100, out: scratch });
    expect(result.failure?.message).toBeUndefined();
    expect(result.steps).toBeGreaterThanOrEqual(40);
    // A complete implementation: nothing left out.
    expect(result.leftOut).toEqual({ steps: [], invariants: [] });
  });

  it.each([
    ['cashout-fee-not-debited', 'money is conserved', 3],
    ['seller-keeps-sold-asset', 'every asset is in exactly one place', 1],
    ['cashout-fee-rounded-half', 'the answer is the one the seed rules give', 1],
    // A stranger's steps: one user withdraws another user's asset, pools one into a giveaway, reads
    // the status of another user's deposit trade.
    ['withdraw-others-asset', 'the answer is the one the seed rules give', 1],
    ['giveaway-pools-others-asset', 'the answer is the one the seed rules give', 1],
    ['deposit-status-others', 'the answer is the one the seed rules give', 1],
  ])(
    'Given the planted fault %s, then it fails on "%s" with a shrunk sequence that replays',
    { timeout: 400_000 },
    async (name, kind, seed) => {
      const proxy = await startFaultyProxy(reference.baseUrl, STATE_FAULTS[name] ?? FAULTS[name]);
      const out = mkdtempSync(join(scratch, 'fault-'));
      try {
        // Bounded by steps, not time: the same sequences on a busy machine as on an idle one.
        const result = await explore({ target: proxy.url, seed, steps: 200, time: 600, out });
        const failure = result.failure!;
        expect(failure.kind).toBe(kind);
        expect(failure.steps.length).toBeGreaterThan(0);
        expect(failure.steps.length).toBeLessThanOrEqual(10);
        expect(failure.replays).toBe(true);
        // Numbered curl lines, from the reset to the read that shows it.
        const lines = curlLines(failure).join('\n');
        expect(lines).toMatch(/^ {2}1\. curl -i -X POST '.*\/test_helpers\/reset'/);
        expect(lines).toContain('then the reads that show it:');
        // The replay file plays to the same failure.
        expect(readReplay(failure.files.replay).steps).toEqual(failure.steps);
        const again = await replay(proxy.url, failure.files.replay, out);
        expect(again.failure?.kind).toBe(kind);
        expect(again.failure?.replays).toBe(true);
        // The Arazzo workflow: one step per request, identifiers taken from the steps that made them.
        const arazzo = JSON.parse(readFileSync(failure.files.arazzo, 'utf8'));
        expect(arazzo.arazzo).toBe('1.0.1');
        const steps = arazzo.workflows[0].steps;
        expect(steps[0].operationId).toBe('$sourceDescriptions.testHelpers.postTestHelpersReset');
        expect(JSON.stringify(steps)).toContain('Bearer {$steps.');
        // The same target without the fault keeps every invariant on that sequence.
        expect((await replay(reference.baseUrl, failure.files.replay, out)).failure).toBeUndefined();
      } finally {
        await proxy.close();
      }
    },
  );

  describe('on a partial implementation: a seeded random half of the operations and helpers answer 404', () => {
    /** What a run's set-up sends: without one of them no run can start. */
    const SETUP = [
      'POST /test_helpers/reset',
      'POST /test_helpers/users',
      'POST /test_helpers/items',
      'POST /test_helpers/assets',
      'POST /user/login',
      'GET /test_helpers/clock',
    ];
    /** Which half is removed (the set-up's needs kept). */
    const PARTIAL_SEED = 3;
    const LEFT_OUT = /↷ (?:step|invariant) .*: not implemented: ((?:GET|POST) \S+) answered 404 \(needed to .+\)$/;

    it('Given half removed, then explore --seed --time exits 0, lists what it left out and sends nothing removed twice', {
      timeout: 120_000,
    }, async () => {
      const removed = removedBy(PARTIAL_SEED, SETUP);
      const sent = new Map<string, number>();
      const removal = partial(removed);
      const counted: Fault = {
        ...removal,
        answer: (r) => {
          const answer = removal.answer!(r);
          const name = findOperation(r.method, r.url.pathname)?.name ?? findHelper(r.method, r.url.pathname)?.name;
          if (answer && name) sent.set(name, (sent.get(name) ?? 0) + 1);
          return answer;
        },
      };
      const proxy = await startFaultyProxy(reference.baseUrl, counted);
      try {
        const { code, stdout } = await runCli(['explore', '--target', proxy.url, '--seed', '11', '--time', '15'], {
          scratch,
        });
        expect(code, stdout).toBe(0);
        expect(stdout).toMatch(/every invariant it could check held \(seed 11; repeat with --seed 11 --time 15\)/);
        const lines = stdout.split('\n').filter((l) => l.includes('↷'));
        expect(lines.some((l) => l.includes('↷ step '))).toBe(true);
        expect(lines.some((l) => l.includes('↷ invariant '))).toBe(true);
        for (const line of lines) expect(removed.has(line.match(LEFT_OUT)?.[1] ?? ''), line).toBe(true);
        // A removed operation is met once (its 404 keeps it out of the session), never sent again.
        expect([...sent].filter(([, n]) => n > 1)).toEqual([]);
      } finally {
        await proxy.close();
      }
    });

    it('Given half removed and a money fault in a present operation, then it still fails, shrunk', {
      timeout: 180_000,
    }, async () => {
      const removed = removedBy(PARTIAL_SEED, [...SETUP, 'POST /cashout/process', 'GET /user/balance']);
      const proxy = await startFaultyProxy(
        reference.baseUrl,
        partial(removed, STATE_FAULTS['cashout-fee-not-debited']),
      );
      try {
        const result = await explore({
          target: proxy.url,
          seed: 1,
          steps: 200,
          time: 100,
          out: mkdtempSync(join(scratch, 'partial-')),
        });
        expect(['money is conserved', 'each balance is what the seed rules make it']).toContain(result.failure?.kind);
        expect(result.failure!.steps.length).toBeLessThanOrEqual(10);
        expect(result.failure!.replays).toBe(true);
        expect(result.leftOut.steps.length + result.leftOut.invariants.length).toBeGreaterThan(0);
      } finally {
        await proxy.close();
      }
    });

    it('Given a helper of the set-up removed, then it says which and exits 2', { timeout: 60_000 }, async () => {
      const proxy = await startFaultyProxy(reference.baseUrl, partial(new Set(['POST /test_helpers/items'])));
      try {
        const { code, stderr } = await runCli(['explore', '--target', proxy.url, '--steps', '5'], { scratch });
        expect(stderr).toContain(
          'explore cannot start a run: not implemented: POST /test_helpers/items answered 404 (needed to set up a run',
        );
        expect(code).toBe(2);
      } finally {
        await proxy.close();
      }
    });
  });

  describe('the command', () => {
    let mock: MockServer;
    beforeAll(async () => {
      mock = await startMock();
    }, 60_000);
    afterAll(() => mock?.stop());

    it('Given the mock (no test helpers), then it says it needs them and exits 2', { timeout: 60_000 }, async () => {
      const { code, stderr } = await runCli(['explore', '--target', mock.url], { scratch });
      expect(code).toBe(2);
      expect(stderr).toContain('explore needs the test helpers');
    });

    it('Given the reference server, then --seed and --steps bound a run that passes, exit 0', {
      timeout: 120_000,
    }, async () => {
      const { code, stdout } = await runCli(['explore', '--target', reference.baseUrl, '--seed', '3', '--steps', '8'], {
        scratch,
      });
      expect(stdout).toMatch(/every invariant held \(seed 3; repeat with --seed 3 --steps 8\)/);
      expect(code).toBe(0);
    });

    it('Given an explore option on a plain run, then it is refused with exit 2', { timeout: 60_000 }, async () => {
      const { code, stderr } = await runCli(['--target', reference.baseUrl, '--seed', '3'], { scratch });
      expect(code).toBe(2);
      expect(stderr).toContain('--seed is an option of explore');
    });
  });
});
