// The project's own tests of the CLI run it as a user would, in a child process: these helpers
// start it with a fresh out directory and collect its exit code, output and results.json, and
// find free ports (Prism cannot listen on port 0, and two test runs may share the machine).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunResult } from '../run/report.ts';

export const CLI = resolve(import.meta.dirname, '../cli/cli.ts');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  out: string;
  /** results.json, when the run wrote one. */
  result?: RunResult;
}

/**
 * Runs `marketplace-conformance <args>` with its reports in a fresh directory under `scratch`
 * (unless `args` give their own `--out`, as `baseline write` does for its file).
 */
export function runCli(args: string[], options: { scratch?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  const out = mkdtempSync(join(options.scratch ?? tmpdir(), 'run-'));
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args, ...(args.includes('--out') ? [] : ['--out', out])], {
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', fail);
    child.on('close', (code) => {
      const file = join(out, 'results.json');
      const result = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunResult) : undefined;
      done({ code: code ?? 1, stdout, stderr, out, result });
    });
  });
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}
