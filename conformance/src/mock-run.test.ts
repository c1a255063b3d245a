// The suite's contract level run through its entry function against Prism on the bundled
// document: green, every skip with its reason, the coverage report written. Every documented
// example of every status is served and validates, so the document is self-consistent as a mock.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMock } from '../../packages/mock/src/mock.ts';
import { freePort } from './cli-process.ts';
import { operations } from './document.ts';
import { type RunResult, runConformance } from './run.ts';
import { PRISM_INVALID, PRISM_LARGE } from './target.ts';

const out = mkdtempSync(join(tmpdir(), 'conformance-mock-'));
let mock: MockServer;
let result: RunResult;

beforeAll(async () => {
  // A free port (Prism cannot listen on 0): two test runs on one machine must not collide.
  mock = await startMock({ port: await freePort() });
  result = await runConformance({ target: mock.url, level: 'contract', out, quiet: true });
}, 300_000);
afterAll(async () => {
  await mock?.stop();
  rmSync(out, { recursive: true, force: true });
});

describe('the contract level against the Prism mock', () => {
  it('Given the mock of the bundle, then nothing fails', () => {
    expect(result.failed.map((f) => `${f.name}\n${f.reason}`)).toEqual([]);
    expect(result.passed).toBeGreaterThanOrEqual(operations.length);
  });

  it('Given the mock, then every skip carries its reason', () => {
    const reasons = new Set(result.skipped.map((s) => s.reason));
    expect(reasons).toEqual(new Set([PRISM_INVALID, PRISM_LARGE, 'left out by --level']));
    expect(result.skipped.filter((s) => s.level === 'contract').every((s) => s.reason !== 'left out by --level')).toBe(
      true,
    );
  });

  it('Given the mock, then every operation, documented status and documented message was exercised', () => {
    expect(result.levels.contract.operations).toBe(operations.length);
    expect(result.coverage.statuses.hit).toBe(result.coverage.statuses.all);
    expect(result.coverage.messages.hit).toBe(result.coverage.messages.all);
  });

  it('writes coverage.md, coverage.html and results.json', () => {
    expect(readFileSync(join(out, 'coverage.md'), 'utf8')).toContain('| `POST /user/login` | ✔ 200 ✔ 300 ✔ 403');
    expect(existsSync(join(out, 'coverage.html'))).toBe(true);
    const saved = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult;
    expect(saved.skipped.length).toBe(result.skipped.length);
  });
});
