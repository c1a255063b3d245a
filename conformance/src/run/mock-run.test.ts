// The suite's contract level run through its entry function against the mock (packages/mock):
// green, nothing of the contract level skipped, the coverage report written. Every documented
// example of every status is served and validates, so the document is self-consistent as a mock,
// and every negative case gets the documented error, so the mock answers bad input as the API does.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMock } from '../../../packages/mock/src/mock.ts';
import { operations } from '../oracle/document.ts';
import { type RunResult, runConformance } from './run.ts';

const out = mkdtempSync(join(tmpdir(), 'conformance-mock-'));
let mock: MockServer;
let result: RunResult;

beforeAll(async () => {
  mock = await startMock();
  result = await runConformance({ target: mock.url, level: 'contract', out, quiet: true });
}, 300_000);
afterAll(async () => {
  await mock?.stop();
  rmSync(out, { recursive: true, force: true });
});

describe('the contract level against the mock', () => {
  it('Given the mock of the bundle, then nothing fails', () => {
    expect(result.failed.map((f) => `${f.name}\n${f.reason}`)).toEqual([]);
    expect(result.passed).toBeGreaterThanOrEqual(operations.length);
  });

  it('Given the mock, then only the levels left out are skipped: the negative data runs too', () => {
    expect(new Set(result.skipped.map((s) => s.reason))).toEqual(new Set(['left out by --level']));
    expect(result.skipped.filter((s) => s.level === 'contract')).toEqual([]);
  });

  it('Given the mock, then every operation, documented status and documented message was exercised', () => {
    expect(result.levels.contract.operations).toBe(operations.length);
    expect(result.coverage.statuses.hit).toBe(result.coverage.statuses.all);
    expect(result.coverage.messages.hit).toBe(result.coverage.messages.all);
  });

  it('writes coverage.md, coverage.html and results.json', () => {
    expect(readFileSync(join(out, 'coverage.md'), 'utf8')).toContain('| `POST /user/login` | ✔ | ✔ 200 ✔ 300 ✔ 403');
    expect(existsSync(join(out, 'coverage.html'))).toBe(true);
    const saved = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult;
    expect(saved.skipped.length).toBe(result.skipped.length);
  });
});
