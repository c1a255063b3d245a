// The suite proven through its CLI: green against the reference server in test mode (every level,
// every skip explained), green through a transparent proxy, and red behind each planted fault.
// (The run against the Prism mock is mock-run.test.ts.)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../packages/server/src/config.ts';
import { composeServer } from '../../packages/server/src/server.ts';
import { FAULTS, startFaultyProxy } from './faults.ts';
import type { RunResult } from './run.ts';

const CLI = resolve(import.meta.dirname, 'cli.ts');
const scratch = mkdtempSync(join(tmpdir(), 'conformance-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the CLI against a target in a child process; its exit code and results.json. */
function runCli(target: string, args: string[] = []): Promise<{ code: number; result: RunResult; output: string }> {
  const out = mkdtempSync(join(scratch, 'run-'));
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, '--target', target, '--out', out, ...args], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('exit', (code) =>
      done({ code: code ?? 1, result: JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')), output }),
    );
  });
}

let reference: string;
let server: Server;
beforeAll(async () => {
  const config = parseConfig({
    MARKETPLACE_DB: ':memory:',
    MARKETPLACE_TEST_MODE: '1',
    MARKETPLACE_BLOCKED_COUNTRIES: 'KP',
  });
  const { app } = await composeServer({ config, logger: pino({ level: 'silent' }) });
  server = await new Promise((done) => {
    const s = app.listen(0, '127.0.0.1', () => done(s));
  });
  reference = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('the conformance suite', () => {
  it('passes every level against the reference server in test mode, and writes its reports', async () => {
    const { code, result, output } = await runCli(reference, [
      '--level',
      'all',
      '--blocked-country',
      'KP',
      '--reporter',
      'junit',
      '--reporter',
      'html',
    ]);
    expect(
      result.failed.map((f) => f.name),
      output.slice(-3000),
    ).toEqual([]);
    expect(code).toBe(0);
    expect(result.levels.behavior.passed).toBeGreaterThan(100);
    expect(result.levels.contract.operations).toBe(result.levels.contract.of);
    expect(result.skipped.filter((s) => !s.reason || s.reason.includes('without a recorded reason'))).toEqual([]);
    expect(readFileSync(join(result.out, 'coverage.md'), 'utf8')).toContain('| `POST /user/login` |');
    // Every seed rule a test names is checked by a passing test (rules.ts, the rule matrix).
    expect(readFileSync(join(result.out, 'coverage.md'), 'utf8')).toMatch(
      /failed 0, named by tests that did not run 0,/,
    );
    expect(readFileSync(join(result.out, 'junit.xml'), 'utf8')).toContain('<testsuites');
    expect(readFileSync(join(result.out, 'report.html'), 'utf8')).toContain('passed');
  }, 300_000);

  it('passes through a transparent proxy (the control of the planted faults)', async () => {
    const proxy = await startFaultyProxy(reference);
    try {
      const greps = [...new Set(Object.values(FAULTS).map((f) => f.grep))].join('|');
      const { result } = await runCli(proxy.url, ['--grep', greps]);
      expect(result.failed.map((f) => f.name)).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 300_000);

  it.each(Object.entries(FAULTS))(
    'fails against a server with the planted fault %s',
    async (_, fault) => {
      const proxy = await startFaultyProxy(reference, fault);
      try {
        const { code, result } = await runCli(proxy.url, ['--grep', fault.grep]);
        expect(code).toBe(1);
        expect(result.failed.length).toBeGreaterThan(0);
      } finally {
        await proxy.close();
      }
    },
    300_000,
  );
});
