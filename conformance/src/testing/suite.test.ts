// The suite proven through its CLI: green against the reference server in test mode (every level,
// every skip explained), green through a transparent proxy, and red behind each planted fault, each
// failure saying what to fix. Every run gets a reference server of its own (fresh state, fresh rate
// limits: a run cannot consume what another needs, also when two `npm test` share the machine),
// and timeouts are sized for a loaded 2-core machine. (The run against the Prism mock is
// mock-run.test.ts; the CLI's options and target check are cli.test.ts.)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../packages/server/src/routes/test-harness.fixture.ts';
import { missingSides, ruleMatrix } from '../kit/rules.ts';
import { runCli } from './cli-process.ts';
import { FAULTS, startFaultyProxy } from './faults.ts';
import { allMeanings, missingMeanings, notYetPinned } from './meanings.ts';

const scratch = mkdtempSync(join(tmpdir(), 'conformance-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A reference server in test mode of its own for one run; stopped whatever happens. */
async function withReference<T>(use: (url: string) => Promise<T>): Promise<T> {
  const server = await startTestServer({ env: { MARKETPLACE_BLOCKED_COUNTRIES: 'KP' } });
  try {
    return await use(server.baseUrl);
  } finally {
    await server.close();
  }
}

const cli = (target: string, args: string[] = []) =>
  runCli(['--target', target, ...args], { scratch, env: { NO_COLOR: '1' } });

describe('the conformance suite', () => {
  it(
    'passes every level against the reference server in test mode, and writes its reports',
    {
      timeout: 300_000,
    },
    () =>
      withReference(async (reference) => {
        const { code, result, stdout, stderr, out } = await cli(reference, [
          '--level',
          'all',
          '--blocked-country',
          'KP',
          '--reporter',
          'junit,html,badge',
        ]);
        expect(
          result?.failed.map((f) => f.name),
          `${stdout.slice(-3000)}${stderr}`,
        ).toEqual([]);
        expect(code).toBe(0);
        expect(result!.levels.behavior.passed).toBeGreaterThan(100);
        expect(result!.levels.contract.operations).toBe(result!.levels.contract.of);
        // Every operation implemented and passing; no test that only a mock can take shows up.
        expect(result!.progress).toMatchObject({ implemented: result!.progress.of, passing: result!.progress.of });
        expect(result!.skipped.filter((s) => /only a mock/.test(s.reason ?? ''))).toEqual([]);
        expect(stdout).toContain(`Progress: ${result!.progress.of} of ${result!.progress.of} operations implemented`);
        expect(result!.skipped.filter((s) => !s.reason || s.reason.includes('without a recorded reason'))).toEqual([]);
        expect(readFileSync(join(out, 'coverage.md'), 'utf8')).toContain('| `POST /user/login` |');
        // Every seed rule a test names is checked by a passing test (rules.ts, the rule matrix).
        expect(readFileSync(join(out, 'coverage.md'), 'utf8')).toMatch(/failed 0, named by tests that did not run 0,/);
        // Every time rule, list order, computed amount and count limit shows the sides a passing test checks.
        expect(missingSides(ruleMatrix(result!.outcomes))).toEqual([]);
        // Every field and event of the document has a passing test whose data tells its meaning from
        // the near misses (meanings.ts), but for the committed list still to do, which is exactly the rest.
        const unpinned = missingMeanings(result!.outcomes);
        const pending = notYetPinned();
        expect(unpinned.filter((m) => !pending.has(m))).toEqual([]);
        expect(
          [...pending].filter((m) => !unpinned.includes(m)),
          'pinned now: off meanings-not-yet.txt',
        ).toEqual([]);
        const documented = new Set(allMeanings());
        expect(result!.outcomes.flatMap((o) => o.meanings ?? []).filter((m) => !documented.has(m))).toEqual([]);
        expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain(
          `tests="${result!.outcomes.length}" failures="0"`,
        );
        expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('id="summary"');
        expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toMatchObject({
          target: reference,
          result: 'passed',
          counts: { passed: result!.passed, failed: 0 },
        });
        // The console names only reports that are there.
        const named = stdout.match(/^Reports in .*: (.*)$/m)?.[1]?.split(', ') ?? [];
        expect(named).toEqual([
          'results.json',
          'coverage.md',
          'coverage.html',
          'junit.xml',
          'report.html',
          'badge.svg',
          'summary.json',
        ]);
      }),
  );

  it('passes through a transparent proxy (the control of the planted faults)', { timeout: 300_000 }, () =>
    withReference(async (reference) => {
      const proxy = await startFaultyProxy(reference);
      try {
        const greps = [...new Set(Object.values(FAULTS).map((f) => f.grep))].join('|');
        const { result } = await cli(proxy.url, ['--grep', greps]);
        expect(result?.failed.map((f) => f.name)).toEqual([]);
        expect(result?.passed).toBeGreaterThan(0);
      } finally {
        await proxy.close();
      }
    }),
  );

  it.each(Object.entries(FAULTS))(
    'fails against a server with the planted fault %s, saying what to fix',
    { timeout: 180_000 },
    (_, fault) =>
      withReference(async (reference) => {
        const proxy = await startFaultyProxy(reference, fault);
        try {
          const { code, result, stdout } = await cli(proxy.url, ['--grep', fault.grep, '--reporter', 'junit']);
          expect(code).toBe(1);
          expect(result!.failed.length).toBeGreaterThan(0);
          for (const f of result!.failed) {
            // Every failure names the operation and gives the request to reproduce it.
            expect(f.failure?.operation, f.reason).toMatch(/^(GET|POST) \//);
            expect(f.failure?.curl, f.reason).toMatch(/^curl -i -X (GET|POST) 'http/);
            expect(f.failure?.received ?? f.failure?.response, f.reason).toBeTruthy();
            // The console groups the failures by operation, rule and what differed.
            expect(stdout).toContain(`✗ ${f.failure?.operation}`);
            if (fault.says) expect(f.reason).toContain(fault.says);
          }
        } finally {
          await proxy.close();
        }
      }),
  );
});
