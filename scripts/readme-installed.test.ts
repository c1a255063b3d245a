// The READMEs' commands that need a running server or mock, run as written (addresses and ports
// aside) from the packed tarballs installed into a fresh project: the conformance README's three
// ways to point the suite, its proxy, its explore commands and a team's adoption path; the root
// README's CI commands and many sandboxes on one server; the mock README's failures on purpose. One
// install for all of them, shared with pack-install.test.ts (`installedProject`); a suite command
// that two READMEs show runs once. Every process started is stopped in afterAll.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answering,
  freePort,
  installedProject,
  MINUTE,
  repo,
  run,
  type Started,
  startIn,
  stop,
  userEnv,
} from './packed-project.ts';
import { commandsOf, readmeBlock, shellBlocks } from './readme-blocks.ts';

const SUITE = 'conformance/README.md';
/** The addresses the READMEs write, each replaced by a free port's. */
const SERVER_IN_README = 'http://127.0.0.1:8080';
const MOCK_IN_README = 'http://127.0.0.1:4010';

const started: ChildProcess[] = [];
let scratch: string;
let app: string;
/** The installed reference server in test mode, Country blocked for KP (the suite README's first way). */
let server: string;

/** Starts a command line in the project, in its own process group (its children stop with it). */
const startLine = (line: string, env: Record<string, string> = {}): Started =>
  startIn(started, app, 'bash', ['-c', `exec ${line}`], env);

/** Starts an installed bin and waits until it answers. */
async function startBin(name: string, args: string[], env: Record<string, string> = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const bin = startIn(
    started,
    app,
    join(app, 'node_modules/.bin', name),
    args.concat(name === 'marketplace-mock' ? [] : ['--port', String(port)]),
    {
      PORT: String(port),
      ...env,
    },
  );
  await answering(url, bin);
  return { url, bin };
}

/** Runs a script in bash in the project: its exit code and output. */
async function sh(script: string, env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  return run('bash', ['-c', script], { cwd: app, env: userEnv(env), maxBuffer: 64 * 1024 * 1024 })
    .then(({ stdout, stderr }) => ({ code: 0, output: `${stdout}${stderr}` }))
    .catch((e) => ({ code: typeof e.code === 'number' ? e.code : 1, output: `${e.stdout}${e.stderr}` }));
}

/** What a suite run left in `reports` (results.json). */
const resultsIn = (reports: string) => JSON.parse(readFileSync(join(app, reports, 'results.json'), 'utf8'));

/**
 * A suite run is green: exit 0, or exit 1 from at most three tests that pass when run again alone.
 * Some behaviour tests compare seconds across two requests and fail when the test clock (real time)
 * crosses a second between them, which a loaded machine makes likely; a real fault fails twice.
 */
async function expectGreen(command: string, result: { code: number; output: string }, target: string, reports: string) {
  if (result.code === 0) return;
  expect(result.code, `${command}\n${result.output.slice(-4000)}`).toBe(1);
  const failed: string[] = resultsIn(reports).failed.map((f: { name: string }) => f.name);
  expect(failed.length, result.output.slice(-4000)).toBeLessThanOrEqual(3);
  // results.json joins a test's describe titles with spaces, vitest's --grep sees them with ' > '.
  const exactly = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll(' ', '(?: | > )');
  const again = await sh(
    `npx marketplace-conformance --target ${target} --out reports-again --grep '${failed.map(exactly).join('|').replaceAll("'", "'\\''")}'`,
  );
  expect({ command, code: again.code, failed: resultsIn('reports-again').failed }, again.output.slice(-4000)).toEqual({
    command,
    code: 0,
    failed: [],
  });
}

/** The suite commands run so far, by what the shell runs: a command two READMEs show runs once. */
const ran = new Map<string, Promise<void>>();

/**
 * Runs a suite command of a README as written (`BASE` set, the README's address replaced by the
 * server's) once, checked by what it asks for: a baseline written, a run limited to the listed
 * operations, a release gate passed, else a green run. The same command again (the root README's
 * CI commands repeat the adoption path's) is the same run, not a second one.
 */
function suiteStep(command: string): Promise<void> {
  const asRun = command
    .replaceAll('$BASE', server)
    .replaceAll(SERVER_IN_README, server)
    .replace(/\s+#.*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  let step = ran.get(asRun);
  if (!step) {
    step = (async () => {
      const result = await sh(`BASE=${server}\n${command}`);
      if (command.includes('baseline write')) {
        expect(result.code, result.output).toBe(0);
        expect(JSON.parse(readFileSync(join(app, 'conformance-baseline.json'), 'utf8')).failures).toBeDefined();
        return;
      }
      await expectGreen(command, result, server, 'conformance-reports');
      const reports = resultsIn('conformance-reports');
      // The adoption path's step 4 ran the listed operations only; step 5 was the release gate.
      if (command.includes('--operations')) expect(reports.scope).toHaveLength(3);
      if (command.includes('--require-all')) expect(reports).toMatchObject({ requireAll: true, failed: [] });
    })();
    ran.set(asRun, step);
  }
  return step;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'marketplace-readme-'));
  app = await installedProject(scratch);
  // As the suite README's comment starts it: test mode, KP blocked.
  ({ url: server } = await startBin('marketplace-server', ['--db', ':memory:', '--test-mode'], {
    MARKETPLACE_BLOCKED_COUNTRIES: 'KP',
  }));
}, 20 * MINUTE);

afterAll(async () => {
  await Promise.all(started.map(stop));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}, 5 * MINUTE);

describe('the READMEs, run from the installed packages', { timeout: 15 * MINUTE }, () => {
  it('# Conformance suite: the three ways to point it (test mode, a deployment read-only, the mock), each green', async () => {
    const commands = commandsOf(readmeBlock(join(repo, SUITE), '# Conformance suite'));
    expect(commands.map((c) => c.match(/--blocked-country KP|--read-only|--level contract/g))).toEqual([
      ['--blocked-country KP'],
      ['--read-only'],
      ['--level contract'],
    ]);
    const [testMode = '', deployment = '', mock = ''] = commands;

    const first = await sh(testMode.replaceAll(SERVER_IN_README, server));
    await expectGreen(testMode, first, server, 'conformance/reports');
    // --blocked-country made the Country blocked tests run.
    const blocked = resultsIn('conformance/reports').outcomes.filter((o: { name: string }) =>
      /Country blocked/.test(o.name),
    );
    expect(blocked.length).toBeGreaterThan(0);
    expect(blocked.filter((o: { state: string }) => o.state === 'skipped')).toEqual([]);

    // A deployment: a server without test mode, with accounts of its own (the demo's, an admin's
    // key printed once at its start).
    const deployed = await startBin('marketplace-server', ['--db', ':memory:', '--demo']);
    const admin = deployed.bin.output().match(/Demo admin API keys[^\n]*\n\s+\S+: (\S+)/)?.[1];
    expect(admin, deployed.bin.output()).toBeDefined();
    const readOnly = await sh(deployment.replaceAll('https://api.example.com', deployed.url), {
      MARKETPLACE_API_KEY: 'demo-alice-api-key',
      MARKETPLACE_ADMIN_API_KEY: admin ?? '',
    });
    expect(readOnly.code, readOnly.output.slice(-4000)).toBe(0);
    expect(resultsIn('conformance/reports')).toMatchObject({ readOnly: true, failed: [] });
    await stop(deployed.bin.child);

    const mocked = await startBin('marketplace-mock', []);
    const contract = await sh(mock.replaceAll(MOCK_IN_README, mocked.url));
    expect(contract.code, contract.output.slice(-4000)).toBe(0);
    expect(resultsIn('conformance/reports')).toMatchObject({ level: 'contract', failed: [] });
    await stop(mocked.bin.child);
  });

  it('### Live traffic: `marketplace-conformance proxy`: forwards, and on Ctrl-C writes the reports it names', async () => {
    const [command = ''] = commandsOf(
      readmeBlock(join(repo, SUITE), '### Live traffic: `marketplace-conformance proxy`'),
    );
    expect(command).toContain('--port 8090 --reporter html');
    const port = await freePort();
    const proxy = startLine(command.replaceAll(SERVER_IN_README, server).replace('--port 8090', `--port ${port}`));
    const url = `http://127.0.0.1:${port}`;
    await answering(url, proxy);
    // A client pointed at the proxy: the answers are the server's.
    const count = await fetch(`${url}/item/listing/count/1`);
    expect(count.status).toBe(200);
    const login = await fetch(`${url}/user/login`, { method: 'POST' });
    expect((await login.json()).err).toBe(true);
    // Ctrl-C: SIGINT to the whole process group, npx included (which ends by the signal).
    const exit = new Promise((done) => proxy.child.once('exit', (code, signal) => done(code ?? signal)));
    process.kill(-(proxy.child.pid as number), 'SIGINT');
    expect([0, 'SIGINT']).toContain(await exit);
    expect(proxy.output()).toMatch(/: 2 exchanges checked, 0 violations,/);
    expect(existsSync(join(app, 'conformance/reports/report.html'))).toBe(true);
    const seen = resultsIn('conformance/reports').outcomes.map((o: { name: string }) => o.name);
    expect(seen).toEqual(expect.arrayContaining([expect.stringContaining('GET /item/listing/count/{item}')]));
  });

  it('### Seeded exploration: `marketplace-conformance explore`: a session, a seeded one, a replay once fixed', async () => {
    const commands = commandsOf(
      readmeBlock(join(repo, SUITE), '### Seeded exploration: `marketplace-conformance explore`'),
    );
    expect(commands).toHaveLength(3);
    const [session = '', seeded = '', replay = ''] = commands.map((c) => c.replaceAll(SERVER_IN_README, server));
    for (const command of [session, seeded]) {
      const result = await sh(command);
      expect([command, result.code, result.output]).toEqual([
        command,
        0,
        expect.stringMatching(/\nexplore: \d+ runs, \d+ steps, every invariant held/),
      ]);
    }
    // What a failed run writes (the README's shrunk cashout, money not conserved), played again
    // against a target that has it right: fixed, exit 0.
    const file = replay.match(/--replay (\S+)/)?.[1] ?? '';
    mkdirSync(join(app, file, '..'), { recursive: true });
    writeFileSync(
      join(app, file),
      JSON.stringify({
        format: 'marketplace-explore-replay',
        version: 1,
        seed: 1,
        failure: {
          kind: 'money is conserved',
          message: 'money is conserved: balances + ... = 38100, but 38000 was put in',
        },
        steps: [{ step: 'cashout', args: { user: 0, amount: 5000, method: 'provider_a' } }],
      }),
    );
    const replayed = await sh(replay);
    expect([replayed.code, replayed.output]).toEqual([0, expect.stringContaining(`the replay of ${file} passes`)]);
  });

  it("## A team's adoption path: each step green against a reference server with the test helpers", async () => {
    const block = readmeBlock(join(repo, SUITE), "## A team's adoption path");
    const [base = '', ...steps] = commandsOf(block);
    expect(base).toBe(`BASE=${SERVER_IN_README}`);
    expect(steps.map((c) => c.match(/baseline write|--baseline|--operations|--require-all|--reporter \S+/g))).toEqual([
      ['--reporter html'],
      ['baseline write'],
      ['--baseline', '--reporter junit,html,badge'],
      ['--operations'],
      ['--require-all', '--reporter junit,badge'],
    ]);
    for (const step of steps) await suiteStep(step);
    for (const file of ['junit.xml', 'report.html', 'badge.svg', 'summary.json'])
      expect(existsSync(join(app, 'conformance-reports', file)), file).toBe(true);
  });

  it(
    "### Backend: the conformance suite in CI: the root README's commands, each green (the adoption path's, run once)",
    async () => {
      const commands = commandsOf(readmeBlock(join(repo, 'README.md'), '### Backend: the conformance suite in CI'));
      expect(commands.map((c) => c.match(/baseline write|--baseline|--reporter \S+|--require-all/g) ?? [])).toEqual([
        ['--reporter html'],
        ['baseline write'],
        ['--baseline', '--reporter junit,html,badge'],
        ['--require-all', '--reporter junit,badge'],
      ]);
      const before = ran.size;
      for (const command of commands) {
        expect(command.startsWith('npx marketplace-conformance ')).toBe(true);
        await suiteStep(command);
      }
      // The same commands as the adoption path's steps 1, 2, 3 and 5: nothing ran again (when that test ran).
      if (before > 0) expect(ran.size).toBe(before);
      // The CI line's reporters wrote their files (the badge crashed the installed suite before).
      for (const file of ['results.json', 'junit.xml', 'badge.svg', 'summary.json'])
        expect(existsSync(join(app, 'conformance-reports', file)), file).toBe(true);
      expect(existsSync(join(app, 'conformance-baseline.json'))).toBe(true);
    },
    30 * MINUTE,
  );

  it('### Many sandboxes on one server: the server started, a sandbox asked for, the suite green in it, the sandbox gone', async () => {
    const [serve = '', ...rest] = commandsOf(readmeBlock(join(repo, 'README.md'), '### Many sandboxes on one server'));
    expect(serve).toMatch(/^npx marketplace-server .*--port 8080 &$/);
    const port = await freePort();
    const here = `http://127.0.0.1:${port}`;
    const sandboxes = startLine(serve.replace('--port 8080', `--port ${port}`).replace(/ &$/, ''));
    await answering(`${here}/openapi.json`, sandboxes);
    const script = rest.join('\n').replaceAll(SERVER_IN_README, here);
    const result = await sh(script);
    const created = JSON.parse(readFileSync(join(app, 'sandbox.json'), 'utf8')).content;
    expect(created.url).toBe(`${here}/sandboxes/${created.id}`);
    expect(created.users).toHaveLength(2);
    // The suite ran in the sandbox: green (a flaky test again alone, in a sandbox of its own).
    const results = resultsIn('conformance/reports');
    expect(results.target, result.output.slice(-4000)).toBe(created.url);
    if (results.failed.length) {
      const again = await (
        await fetch(`${here}/sandboxes`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).json();
      await expectGreen(
        'npx marketplace-conformance --target $SANDBOX',
        { code: 1, output: result.output },
        again.content.url,
        'conformance/reports',
      );
    }
    expect(results.passed).toBeGreaterThan(100);
    // The last line removed it.
    expect(result.code, result.output.slice(-2000)).toBe(0);
    expect((await fetch(`${created.url}/item/listing/count/1`)).status).toBe(404);
    await stop(sandboxes.child);
  });

  it('# @marketplace/mock: slow and failing on purpose, per request and per run', async () => {
    // The README's second block under its title: the first is the install.
    const onPurpose = shellBlocks(readFileSync(join(repo, 'packages/mock/README.md'), 'utf8')).filter(
      (b) => b.heading === '# @marketplace/mock',
    )[1];
    const commands = commandsOf(onPurpose?.text ?? '');
    const curls = commands.filter((c) => c.startsWith('curl '));
    expect(curls.map((c) => c.match(/Prefer: [^']+/)?.[0])).toEqual([
      'Prefer: delay=1500',
      'Prefer: code=429',
      'Prefer: code=500',
    ]);
    const mock = await startBin('marketplace-mock', []);
    // curl -w adds the status (and the time taken) after the body, as a reader sees them with -i.
    const answer = async (line: string) => {
      const out = await sh(
        `${line.replaceAll(MOCK_IN_README, mock.url).replace(/\s+#.*$/, '')} -s -w '\\n%{http_code} %{time_total}'`,
      );
      const [body = '', last = ''] = out.output.trimEnd().split(/\n(?=[^\n]*$)/);
      const [status, seconds] = last.split(' ');
      return { body: JSON.parse(body), status: Number(status), seconds: Number(seconds) };
    };
    const [delay = '', tooMany = '', broken = ''] = curls;
    const slow = await answer(delay);
    expect(slow.status).toBe(200);
    expect(slow.seconds).toBeGreaterThanOrEqual(1.5);
    expect(await answer(tooMany)).toMatchObject({
      status: 429,
      body: { err: true, content: 'Rate limit exceeded. Retry after 1 seconds.' },
    });
    expect(await answer(broken)).toMatchObject({ status: 500, body: { err: true, content: 'Internal server error' } });
    await stop(mock.bin.child);

    // The run-wide line: every run meets the same delays and failures (the same draws, seed 42).
    const perRun = commands.find((c) => c.startsWith('npx marketplace-mock '))!.replace(/\s+#.*$/, '');
    expect(perRun).toBe('npx marketplace-mock --latency 100-800 --fail-rate 0.1 --seed 42');
    const fates: string[][] = [];
    for (const _ of [1, 2]) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const seeded = startLine(perRun, { PORT: String(port) });
      await answering(`${url}/openapi.json`, seeded);
      const fate: string[] = [];
      for (let i = 0; i < 20; i += 1) {
        const t = Date.now();
        const r = await fetch(`${url}/item/listing/count/1`);
        await r.arrayBuffer();
        expect(Date.now() - t).toBeGreaterThanOrEqual(95);
        fate.push(String(r.status));
      }
      fates.push(fate);
      await stop(seeded.child);
    }
    expect(fates[0]).toEqual(fates[1]);
    expect(fates[0]!.filter((s) => s !== '200').length).toBeGreaterThan(0);
  });
});
