// `explore` proven against the reference server in test mode (in process, free port): a bounded
// fixed-seed run finds nothing; behind a planted money fault, a planted ownership fault
// (faults.ts, STATE_FAULTS) and a rounding fault (FAULTS) it fails with a shrunk sequence of at most 10 steps that replays to the
// same failure, printed as curl lines and written as a replay file and an Arazzo workflow; and
// against a target without the test helpers (the mock) the CLI says so and exits 2.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMock } from '../../../packages/mock/src/mock.ts';
import { startTestServer } from '../../../packages/server/src/routes/test-harness.ts';
import { runCli } from '../cli-process.ts';
import { FAULTS, STATE_FAULTS, startFaultyProxy } from '../faults.ts';
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
  });

  it.each([
    ['cashout-fee-not-debited', 'money is conserved', 3],
    ['seller-keeps-sold-asset', 'every asset is in exactly one place', 1],
    ['cashout-fee-rounded-half', 'the answer is the one the seed rules give', 1],
  ])(
    'Given the planted fault %s, then it fails on "%s" with a shrunk sequence that replays',
    { timeout: 180_000 },
    async (name, kind, seed) => {
      const proxy = await startFaultyProxy(reference.baseUrl, STATE_FAULTS[name] ?? FAULTS[name]);
      const out = mkdtempSync(join(scratch, 'fault-'));
      try {
        const result = await explore({ target: proxy.url, seed, steps: 200, time: 150, out });
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
