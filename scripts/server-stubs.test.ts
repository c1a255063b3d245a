// The generated server stubs as a backend team gets them (ADR 0029), with no registry holding our
// packages: the README's `npm run pack` (into a scratch folder) and its `npx --package <tarball>
// ... init --packages` generating a project outside the repository, which installs our packages from
// its vendor/ folder (the rest from the npm registry) and type-checks. With three handlers filled in
// (server-stubs.fixture.ts; the login applies no limit, the app counts the document's) and the
// project started in test mode, the installed suite runs green: those operations pass, every other
// one is not implemented, and `Country blocked` runs (the project's setting reaches the suite).
// The project's README commands run as it gives them (`npm run typecheck`, `start:test-mode`,
// `conformance`, `baseline write`, the release gate, `stubs:update`), and its CI workflow's `run:`
// steps, read from the YAML, run in order in a clean clone of the committed project (`npm ci` from
// vendor/, every reporter). Then a field of the document changes, an operation goes, and `update`
// leaves the edited handler file alone, lists both handlers and tsc points at them. One pack and one
// install for all; every process stopped.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { answering, freePort, MINUTE, repo, run, startIn, stop, userEnv } from './packed-project.ts';
import { commandsOf, readmeBlock } from './readme-blocks.ts';
import { FILLED, FILLED_OPERATIONS, fillHandlers } from './server-stubs.fixture.ts';

const started: ChildProcess[] = [];
let scratch: string;
let app: string;
let tools: string;

const tsc = () => npmRun('typecheck');

let filled = false;
/** The team's first handlers (server-stubs.fixture.ts), written once. */
function fill(): void {
  if (!filled) fillHandlers(app);
  filled = true;
}

/** `npm run <script> -- <args>` in the project, as its README says; its output, and its exit code. */
async function npmRun(script: string, args: string[] = [], env: Record<string, string> = {}) {
  return run('npm', ['run', '-s', script, '--', ...args], { cwd: app, env: userEnv(env), maxBuffer: 64 * 1024 * 1024 })
    .then(({ stdout, stderr }) => ({ code: 0, output: `${stdout}${stderr}` }))
    .catch((e) => ({ code: e.code as number, output: `${e.stdout}${e.stderr}` }));
}

/**
 * Starts the project in test mode, runs the installed suite against it as the README does
 * (`npm run conformance`, the project's baseline) and stops it: the run must be green. The state of
 * each operation in the progress, each test's outcome, and the console.
 */
async function runSuite() {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // The README's step 3, as written: `npm run start:test-mode &`, then `npm run conformance`.
  const server = startIn(started, app, 'npm', ['run', 'start:test-mode'], { PORT: String(port) });
  await answering(url, server);
  const suite = await npmRun('conformance', [], { MARKETPLACE_URL: url });
  await stop(server.child);
  const results = JSON.parse(readFileSync(join(app, 'conformance-reports/results.json'), 'utf8'));
  expect(
    results.failed.map((f: { name: string; reason?: string }) => `${f.name}: ${f.reason}`),
    suite.output.slice(-6000),
  ).toEqual([]);
  expect(suite.code).toBe(0);
  const states = new Map<string, string>(
    results.progress.operations.map((o: { operation: string; state: string }) => [o.operation, o.state]),
  );
  return {
    states,
    output: suite.output,
    outcomes: results.outcomes as { name: string; file: string; state: string }[],
  };
}

/** Runs `script` in bash in `cwd` as a user's shell would; its output, and its exit code. */
async function shell(cwd: string, script: string, env: Record<string, string> = {}) {
  return run('bash', ['-e', '-c', script], { cwd, env: userEnv(env), maxBuffer: 64 * 1024 * 1024 })
    .then(({ stdout, stderr }) => ({ code: 0, output: `${stdout}${stderr}` }))
    .catch((e) => ({ code: e.code as number, output: `${e.stdout}${e.stderr}` }));
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'marketplace-stubs-'));
  // A folder standing for the team's clone of this repository: the README's commands run there.
  tools = join(scratch, 'toolkit');
  app = join(scratch, 'market-api');
  mkdirSync(tools);
  const [pack, generate, ...rest] = commandsOf(readmeBlock(join(repo, 'README.md'), '#### Without a registry'));
  expect(pack).toMatch(/^npm run pack\b/);
  expect(rest).toEqual([]);
  // `npm run pack` is the repository's: run there, writing into the clone's packed/ folder.
  const packed = await shell(repo, `npm run -s pack -- ${join(tools, 'packed')}`);
  expect(packed.code, packed.output).toBe(0);
  // The generator as a team runs it: npx of the packed tarballs, which asks no registry for them.
  const init = await shell(tools, generate!.replace(/ && cd .*$/, ''));
  expect(init.code, init.output).toBe(0);
  expect(init.output).toContain('104 new operations stubbed');
  // The project's README, step 1: `npm install` (our packages from vendor/, the rest from the registry).
  for (const command of commandsOf(readmeBlock(join(app, 'README.md'), '## 1. Generate (done) and install'))) {
    const done = await shell(app, command);
    expect(done.code, `${command}\n${done.output}`).toBe(0);
  }
}, 20 * MINUTE);

afterAll(async () => {
  await Promise.all(started.map(stop));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}, 2 * MINUTE);

describe('generated server stubs, outside the repository', { timeout: 10 * MINUTE }, () => {
  it('init writes the project: one file per tag, the gate, the store, the test helpers, README and CI', () => {
    const handlers = readdirSync(join(app, 'src/handlers')).sort();
    expect(handlers).toEqual(expect.arrayContaining(['account.ts', 'authentication.ts', 'items.ts']));
    for (const file of ['README.md', '.github/workflows/conformance.yml', '.marketplace-stubs.json', 'src/store.ts'])
      expect(existsSync(join(app, file)), file).toBe(true);
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    expect(
      Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((d) => /server/.test(d)),
    ).toEqual([]);
    const auth = readFileSync(join(app, 'src/handlers/authentication.ts'), 'utf8');
    expect(auth).toContain(' * POST /user/login: Log in with an API key\n * Permission (x-permission): None\n');
    expect(auth).toContain(' * - INVALID_API_KEY "Invalid API key": no account has this API key (HTTP 403)\n');
    // Our packages from the project's vendor/ folder (init --packages), so no registry is asked for them.
    const ours = { ...manifest.dependencies, ...manifest.devDependencies };
    const vendored = Object.fromEntries(Object.entries(ours).filter(([name]) => name.startsWith('@marketplace/')));
    expect(Object.keys(vendored).sort()).toEqual(
      ['conformance', 'contract', 'openapi', 'types'].map((p) => `@marketplace/${p}`),
    );
    for (const [name, spec] of Object.entries(vendored)) {
      expect(spec, name).toMatch(/^file:vendor\/marketplace-[a-z]+-\d+\.\d+\.\d+\.tgz$/);
      expect(existsSync(join(app, String(spec).slice('file:'.length))), name).toBe(true);
    }
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'));
    expect(lock.packages['node_modules/@marketplace/contract'].resolved).toMatch(/^file:vendor\//);
  });

  it(
    'type-checks and runs the suite green: all not implemented, then with three handlers filled in, those pass',
    async () => {
      const stubs = await tsc();
      expect(stubs.code, stubs.output).toBe(0);
      // Nothing implemented: the operations the run reached are not implemented, the others (their
      // tests need a login first) not tested.
      const first = await runSuite();
      expect(first.output).toContain(`Progress: 0 of ${first.states.size} operations implemented`);
      expect(first.states.get('POST /user/login')).toBe('not implemented');
      expect([...first.states].filter(([, state]) => !['not implemented', 'not tested'].includes(state))).toEqual([]);
      // The README's baseline command (step 4, as written) records the run's failures (none) until a date.
      for (const command of commandsOf(readmeBlock(join(app, 'README.md'), '## 4. Baseline'))) {
        const written = await shell(app, command);
        expect(written.code, `${command}\n${written.output}`).toBe(0);
      }
      expect(JSON.parse(readFileSync(join(app, 'conformance-baseline.json'), 'utf8')).failures).toEqual([]);

      fill();
      const filled = await tsc();
      expect(filled.code, filled.output).toBe(0);
      const { states, output, outcomes } = await runSuite();
      const names = ['POST /user/login', 'GET /user/balance', 'GET /item/listing/count/{item}'];
      expect(FILLED_OPERATIONS).toHaveLength(names.length);
      for (const name of names) expect([name, states.get(name)]).toEqual([name, 'passing']);
      const others = [...states].filter(([name]) => !names.includes(name));
      expect(others.length).toBeGreaterThan(90);
      expect(others.filter(([, state]) => state !== 'not implemented')).toEqual([]);
      expect(output).toContain(`Progress: 3 of ${states.size} operations implemented`);
      // The login's handler applies no limit: the app counts its two documented rules (429, headers;
      // the three tests of the rules, the third that good logins use up none of an IP's refused
      // keys). That a login answered 429 (per key, per IP) or 431 opens no session is read from GET
      // /user/ipList, not filled in here: those three tests skip; so do the two that take another
      // operation first (a compact price-list refresh, a ban), to show the IP counts only refused keys.
      const loginLimits = outcomes.filter((o) => /login-limits\.test\.[jt]s$/.test(o.file));
      expect(
        loginLimits
          .map((o) => [
            o.name.includes('opens no session')
              ? 'reads the sessions'
              : /compact price list|banned account/.test(o.name)
                ? 'takes another operation'
                : 'limit rule',
            o.state,
          ])
          .sort(),
      ).toEqual([
        ['limit rule', 'passed'],
        ['limit rule', 'passed'],
        ['limit rule', 'passed'],
        ['reads the sessions', 'skipped'],
        ['reads the sessions', 'skipped'],
        ['reads the sessions', 'skipped'],
        ['takes another operation', 'skipped'],
        ['takes another operation', 'skipped'],
      ]);
      // The project's blocked countries reach the suite (`--blocked-country`): the test runs, and passes.
      const blocked = outcomes.filter((o) => o.name.includes('Country blocked'));
      expect(blocked.map((o) => o.state)).toEqual(['passed']);
    },
    15 * MINUTE,
  );

  it('the release gate of the README (step 5) fails naming only what is not implemented yet', async () => {
    const port = await freePort();
    const server = startIn(started, app, 'npm', ['run', 'start:test-mode'], { PORT: String(port) });
    await answering(`http://127.0.0.1:${port}`, server);
    const [gate, ...none] = commandsOf(readmeBlock(join(app, 'README.md'), '## 5. Release gate'));
    expect(none).toEqual([]);
    expect(gate).toContain('http://127.0.0.1:3000 --require-all');
    const result = await shell(app, gate!.replace('http://127.0.0.1:3000', `http://127.0.0.1:${port}`));
    await stop(server.child);
    expect(result.code, result.output.slice(-4000)).toBe(1);
    const results = JSON.parse(readFileSync(join(app, 'conformance-reports/results.json'), 'utf8'));
    const reasons = results.failed.map((f: { reason?: string }) => f.reason ?? '');
    expect(reasons.length).toBeGreaterThan(0);
    expect(reasons.filter((r: string) => !r.includes('--require-all makes every missing operation a failure'))).toEqual(
      [],
    );
  });

  it("the CI workflow's run steps, read from the YAML, pass in a clean clone of the committed project", async () => {
    const workflow = parse(readFileSync(join(app, '.github/workflows/conformance.yml'), 'utf8'));
    const job = workflow.jobs.conformance as { env: Record<string, string | number>; steps: { run?: string }[] };
    const steps = job.steps.filter((step) => step.run).map((step) => step.run as string);
    expect(steps[0]).toBe('npm ci');
    // What actions/checkout gives: the committed project (node_modules and reports ignored, vendor/ kept).
    const git = (cwd: string, args: string[]) =>
      run('git', ['-c', 'user.name=team', '-c', 'user.email=team@example.com', ...args], { cwd, env: userEnv() });
    await git(app, ['init', '-q']);
    await git(app, ['add', '-A']);
    await git(app, ['commit', '-q', '-m', 'generated']);
    const clone = join(scratch, 'ci-clone');
    await git(scratch, ['clone', '-q', app, clone]);
    expect(readdirSync(join(clone, 'vendor')).length).toBe(4);
    // The job's environment, on a free port instead of 3000 (this machine may run other tests).
    const port = await freePort();
    const env = {
      ...Object.fromEntries(Object.entries(job.env).map(([k, v]) => [k, String(v)])),
      PORT: String(port),
      MARKETPLACE_URL: `http://127.0.0.1:${port}`,
    };
    // Each step in its own shell, as Actions runs them; a process a step leaves running (the API)
    // stays in the step's process group, stopped at the end.
    const groups: number[] = [];
    try {
      for (const step of steps) {
        const shellRun = startIn(started, clone, 'bash', ['-e', '-c', step], env);
        if (shellRun.child.pid) groups.push(shellRun.child.pid);
        const code = await new Promise<number | null>((done) => shellRun.child.once('exit', (c) => done(c)));
        expect({ step, code }, shellRun.output().slice(-4000)).toEqual({ step, code: 0 });
      }
    } finally {
      for (const group of groups)
        try {
          process.kill(-group, 'SIGTERM');
        } catch {}
    }
    expect(readdirSync(join(clone, 'conformance-reports'))).toEqual(
      expect.arrayContaining(['results.json', 'junit.xml', 'report.html', 'badge.svg', 'summary.json']),
    );
  });

  it('update after a field changed and an operation went: the edited handler file is kept, both listed, and tsc points at each', async () => {
    const document = JSON.parse(
      readFileSync(join(app, 'node_modules/@marketplace/openapi/bundled/openapi.json'), 'utf8'),
    );
    const balance = document.paths['/user/balance'].get.responses['200'].content['application/json'].schema;
    balance.allOf[1].properties.content.properties.balance.description = 'Balance in whole cents.';
    balance.allOf[1].properties.content.properties.currency = { type: 'string' };
    // An operation of the same (edited) file leaves the document.
    delete document.paths['/user/getContactMail'];
    const changed = join(scratch, 'changed-openapi.json');
    writeFileSync(changed, JSON.stringify(document));
    fill();
    const before = Object.fromEntries(Object.keys(FILLED).map((f) => [f, readFileSync(join(app, f), 'utf8')]));
    const cart = readFileSync(join(app, 'src/handlers/cart.ts'), 'utf8');
    const update = await npmRun('stubs:update', ['--document', changed]);
    expect(update.code, update.output).toBe(0);
    expect(update.output).toContain('Changed since you wrote their handler');
    expect(update.output).toContain('  getUserBalance (src/handlers/account.ts)');
    expect(update.output).toContain(
      'No longer in the document (delete their handler):\n  getUserGetContactMail (src/handlers/account.ts)',
    );
    // Nothing the team wrote is overwritten; untouched stubs stay as they were (their operations did not change).
    for (const [file, text] of Object.entries(before)) expect(readFileSync(join(app, file), 'utf8'), file).toBe(text);
    expect(readFileSync(join(app, 'src/handlers/cart.ts'), 'utf8')).toBe(cart);
    const checked = await tsc();
    expect(checked.code).not.toBe(0);
    const lineOf = (id: string) =>
      before['src/handlers/account.ts']!.split('\n').findIndex((l) => l.includes(`export const ${id}:`)) + 1;
    const errors = checked.output.split('\n').filter((l) => /error TS/.test(l));
    expect(errors).toHaveLength(2);
    for (const id of ['getUserBalance', 'getUserGetContactMail'])
      expect(errors).toContainEqual(
        expect.stringMatching(new RegExp(`^src/handlers/account\\.ts\\(${lineOf(id)},\\d+\\): error TS2344: `)),
      );
  });

  it('a fix in the contract reaches the project by a version bump: its files stay as they are, its answers change', async () => {
    // A contract 1.0.1 whose request flow sets a header on every answer (createApi, dist/api.js):
    // the vendored tarball unpacked, changed and packed again, as a release of the package would be.
    const vendor = join(app, 'vendor');
    const tarball = readdirSync(vendor).find((f) => /^marketplace-contract-.*\.tgz$/.test(f))!;
    const unpacked = join(scratch, 'contract-fix');
    mkdirSync(unpacked);
    await run('tar', ['-xzf', join(vendor, tarball), '-C', unpacked]);
    const flow = join(unpacked, 'package/dist/api.js');
    const disabled = "app.disable('x-powered-by');";
    expect(readFileSync(flow, 'utf8')).toContain(disabled);
    writeFileSync(
      flow,
      readFileSync(flow, 'utf8').replace(
        disabled,
        `${disabled} app.use((_q, r, n) => { r.set('x-contract', '1.0.1'); n(); });`,
      ),
    );
    const manifest = join(unpacked, 'package/package.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/"version": "[^"]+"/, '"version": "1.0.1"'));
    // Packed as it is: its prepack would build dist/ again from sources the tarball does not hold.
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', vendor, join(unpacked, 'package')], {
      env: userEnv(),
    });
    const files = (dir: string): string[] =>
      readdirSync(join(app, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
      );
    const source = () => Object.fromEntries(files('src').map((f) => [f, readFileSync(join(app, f), 'utf8')]));
    const before = source();
    const bump = await shell(app, 'npm install ./vendor/marketplace-contract-1.0.1.tgz');
    expect(bump.code, bump.output).toBe(0);
    expect(source()).toEqual(before);
    const port = await freePort();
    const server = startIn(started, app, 'npm', ['run', 'start:test-mode'], { PORT: String(port) });
    await answering(`http://127.0.0.1:${port}`, server);
    // An unknown route and an operation still a stub: both answered by the contract's flow, fixed.
    const answers = await Promise.all(
      ['/no/such/route', '/user/getContactMail'].map((path) => fetch(`http://127.0.0.1:${port}${path}`)),
    );
    await stop(server.child);
    expect(answers.map((a) => [a.status, a.headers.get('x-contract')])).toEqual([
      [404, '1.0.1'],
      [404, '1.0.1'],
    ]);
  });
});
