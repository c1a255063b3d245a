// conformance/README's "A team's adoption path", run as a reader copies it but against an address
// where nothing listens (a full run of each step is the suite's own tests' job: baseline.test.ts,
// partial-target.test.ts): every run command gets past the option check to the target check, so
// no documented option is stale, and `baseline write` turns a run's results.json into the
// baseline the next command reads.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../conformance/src/testing/cli-process.ts';

const repo = resolve(import.meta.dirname, '..');
const readme = readFileSync(resolve(repo, 'conformance/README.md'), 'utf8');
const heading = "## A team's adoption path";
const section = readme.slice(readme.indexOf(heading), readme.indexOf('\n## ', readme.indexOf(heading) + 1));
const block = section.match(/```sh\n([\s\S]*?)```/)?.[1] ?? '';
/** The block's commands, continuation lines joined, comments and blank lines left out. */
const commands = block
  .replace(/\\\n\s*/g, '')
  .split('\n')
  .filter((line) => line.trim() && !line.startsWith('#'));

const cwd = mkdtempSync(join(tmpdir(), 'readme-adoption-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
const CLI = `${process.execPath} ${resolve(repo, 'conformance/src/cli/cli.ts')}`;

/** Runs one command of the block in bash, `npx marketplace-conformance` being the CLI of this checkout. */
function run(command: string, base: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = `BASE=${base}\n${command.replace('npx marketplace-conformance', CLI)}`;
  return new Promise((done) => {
    execFile('bash', ['-c', script], { cwd, timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("conformance/README: a team's adoption path", () => {
  it('has the five steps: first run, baseline, CI with the baseline, progress, release gate', () => {
    expect(block).toMatch(/^BASE=http:\/\/127\.0\.0\.1:8080\n/);
    expect(commands.slice(1).map((c) => c.split(' --')[0]!.replace('npx marketplace-conformance', '').trim())).toEqual([
      '',
      'baseline write',
      '',
      '',
      '',
    ]);
    expect(commands[3]).toContain('--baseline conformance-baseline.json');
    expect(commands[4]).toContain('--operations');
    expect(commands[5]).toContain('--require-all');
  });

  it('runs each step: the runs reach the target check, baseline write writes the baseline', {
    timeout: 180_000,
  }, async () => {
    const base = `http://127.0.0.1:${await freePort()}`;
    const [, first, write, ...runs] = commands as [string, string, string, ...string[]];
    const firstRun = await run(first, base);
    expect([firstRun.code, firstRun.stderr]).toEqual([
      2,
      expect.stringMatching(new RegExp(`^marketplace-conformance: the target ${base} does not answer`)),
    ]);
    // What step 1 leaves against a real target: a run with one failure.
    mkdirSync(join(cwd, 'conformance-reports'), { recursive: true });
    const failed = {
      name: 'POST /cart/add Given an own asset, then refused [R-CART-3]',
      state: 'failed',
      rules: ['R-CART-3'],
    };
    writeFileSync(
      join(cwd, 'conformance-reports/results.json'),
      JSON.stringify({ target: base, outcomes: [failed, { name: 'login', state: 'passed' }] }),
    );
    const written = await run(write, base);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toContain('conformance-baseline.json: 1 known failure of conformance-reports/results.json');
    expect(existsSync(join(cwd, 'conformance-baseline.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(cwd, 'conformance-baseline.json'), 'utf8')).failures).toEqual([
      { test: failed.name, rules: ['R-CART-3'], expires: '2027-03-31' },
    ]);
    for (const command of runs) {
      const { code, stderr } = await run(command, base);
      expect([command, code, stderr.split('\n')[0]]).toEqual([
        command,
        2,
        expect.stringMatching(/^marketplace-conformance: the target .* does not answer/),
      ]);
    }
  });
});
