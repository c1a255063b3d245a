// The CLI as a user runs it: help, usage errors (one line, the usage, exit 2), the example names of
// an operation, and a start on PORT that prints how to pick errors and stops on SIGTERM.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { readDocument } from '@marketplace/contract';
import { describe, expect, it } from 'vitest';
import { locateDocument } from './document.ts';
import { documentExamples } from './examples.ts';

const CLI = resolve(import.meta.dirname, 'cli.ts');
const operations = documentExamples(readDocument(locateDocument()));

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [CLI, ...args], { timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

describe('marketplace-mock', () => {
  it('--help prints the usage, the options and PORT', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    for (const text of [
      'Usage: marketplace-mock',
      '--port',
      'npx marketplace-conformance proxy --target <url>',
      '--examples',
      'PORT',
      'Prefer: code=300',
      '--latency <min>-<max>',
      '--fail-rate <0..1>',
      '--seed <n>',
      "Prefer: delay=<ms>'",
      "Prefer: code=429'",
      "Prefer: code=500'",
    ])
      expect(stdout).toContain(text);
  });

  it.each([
    [['--bogus'], "marketplace-mock: Unknown option '--bogus'"],
    [['--port', 'abc'], "marketplace-mock: invalid port 'abc': a number from 0 to 65535"],
    [
      ['--proxy', 'http://127.0.0.1:8080'],
      "marketplace-mock: --proxy is gone: check a running server's traffic with `npx marketplace-conformance proxy",
    ],
    [['--examples', 'noSuchOperation'], "marketplace-mock: unknown operationId 'noSuchOperation'"],
    [['extra'], "marketplace-mock: unexpected argument 'extra'"],
    [['--latency', '800-100'], "marketplace-mock: invalid --latency '800-100': is not a latency in milliseconds"],
    [['--fail-rate', '2'], "marketplace-mock: invalid --fail-rate '2': is not a share from 0 to 1"],
    [['--seed', 'x'], "marketplace-mock: invalid --seed 'x': is not an integer seed"],
  ])('%j is refused with one line, the usage and exit status 2', async (args, line) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const [first, blank, usage] = stderr.split('\n');
    expect(first).toContain(line);
    expect([blank, usage]).toEqual(['', 'Usage: marketplace-mock [options]']);
  });

  it('--examples <operationId> lists every example name of the operation by status', async () => {
    const op = operations.find((o) => o.operationId === 'postItemBuyorder')!;
    const { code, stdout } = await run(['--examples', op.operationId]);
    expect(code).toBe(0);
    expect(stdout).toContain(`${op.operationId}  POST /item/buyorder`);
    for (const s of op.statuses) expect(stdout).toContain(`  ${s.status}  ${s.names.join(', ')}`);
    expect(stdout).toContain('Prefer: code=<status>, example=<name>');
  });

  it('--examples alone lists every operation', async () => {
    const { code, stdout } = await run(['--examples']);
    expect(code).toBe(0);
    for (const o of operations) expect(stdout).toContain(`${o.operationId}  ${o.method} ${o.path}\n`);
  });

  it('Given PORT, then it serves there, says how to pick errors and stops on SIGTERM', async () => {
    const child: ChildProcess = spawn(process.execPath, [CLI], {
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const url = await new Promise<string>((done, fail) => {
        child.stdout?.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const found = /on (http:\/\/127\.0\.0\.1:\d+) /.exec(out)?.[1];
          if (found && out.includes('Ctrl-C stops.')) done(found);
        });
        child.once('exit', (code) => fail(new Error(`exited ${code}: ${out}`)));
      });
      expect(out).toContain("-H 'Prefer: code=300, example=<name>'");
      expect(out).toContain('--examples <operationId>');
      expect((await fetch(`${url}/item/listing/1`)).status).toBe(200);
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await expect(fetch(`${url}/item/listing/1`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 90_000);
});
