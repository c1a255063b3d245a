// The generated server stubs as a backend team gets them (ADR 0029): the packed packages installed
// into a tools folder, `marketplace-contract init` writing a project outside the repository, the
// project installed from the same tarballs (the rest from the npm registry) and type-checked. With
// three handlers filled in (server-stubs.fixture.ts; the login applies no limit, the app counts the
// document's) and the project started in test mode, the installed suite runs green: those
// operations pass, every other one is not implemented. Then a field of the document changes, an
// operation goes, and `update` leaves the edited handler file alone, lists both handlers and tsc
// points at them. The project's commands are run as its README gives them (`npm run typecheck`,
// `conformance`, `stubs:update`, `baseline write`). One pack and one install for both; every
// process stopped.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answering, freePort, MINUTE, packWorkspaces, run, startIn, stop, userEnv } from './packed-project.ts';
import { FILLED, FILLED_OPERATIONS, fillHandlers } from './server-stubs.fixture.ts';

const started: ChildProcess[] = [];
let scratch: string;
let app: string;
let tools: string;

/** Runs an installed bin of `dir` to its end; its output, and its exit code. */
async function runBin(dir: string, name: string, args: string[]) {
  return run(join(dir, 'node_modules/.bin', name), args, { cwd: dir, env: userEnv(), maxBuffer: 64 * 1024 * 1024 })
    .then(({ stdout, stderr }) => ({ code: 0, output: `${stdout}${stderr}` }))
    .catch((e) => ({ code: e.code as number, output: `${e.stdout}${e.stderr}` }));
}

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
  const server = startIn(started, app, join(app, 'node_modules/.bin/node'), ['src/main.ts'], {
    PORT: String(port),
    MARKETPLACE_TEST_MODE: '1',
  });
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
  return { states, output: suite.output, outcomes: results.outcomes as { file: string; state: string }[] };
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'marketplace-stubs-'));
  const tarballs = join(scratch, 'tarballs');
  tools = join(scratch, 'tools');
  app = join(scratch, 'market-api');
  mkdirSync(tarballs);
  mkdirSync(tools);
  const files = await packWorkspaces(tarballs, ['openapi', 'packages/types', 'packages/contract', 'conformance']);
  const install = (dir: string, specs: string[]) =>
    run('npm', ['install', '--no-audit', '--no-fund', ...specs], {
      cwd: dir,
      env: userEnv(),
      maxBuffer: 64 * 1024 * 1024,
    });
  // The generator as a team runs it: `npx @marketplace/contract init` from the installed package.
  writeFileSync(join(tools, 'package.json'), JSON.stringify({ name: 'tools', private: true }));
  await install(
    tools,
    files.filter((f) => /marketplace-(openapi|types|contract)-/.test(f)),
  );
  // `--no`: the installed package's bin or nothing (never a download).
  const init = await run('npx', ['--no', '@marketplace/contract', 'init', app], { cwd: tools, env: userEnv() });
  expect(init.stdout).toContain('104 new operations stubbed');
  // The project's own @marketplace dependencies from the tarballs, the rest from the registry.
  await install(app, files);
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
    expect(readFileSync(join(app, '.github/workflows/conformance.yml'), 'utf8')).toMatch(
      /marketplace-conformance .*--baseline conformance-baseline\.json/,
    );
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
      // The README's baseline command records the run's failures (none) until a date.
      const baseline = join(scratch, 'baseline.json');
      const written = await runBin(app, 'marketplace-conformance', [
        ...['baseline', 'write', '--from', 'conformance-reports/results.json'],
        ...['--out', baseline, '--expires', '2027-03-31'],
      ]);
      expect(written.code, written.output).toBe(0);
      expect(JSON.parse(readFileSync(baseline, 'utf8')).failures).toEqual([]);

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
      // The login's handler applies no limit: the app counts its two documented rules (429, headers).
      const loginLimits = outcomes.filter((o) => /login-limits\.test\.[jt]s$/.test(o.file));
      expect(loginLimits.map((o) => o.state)).toEqual(['passed', 'passed']);
    },
    15 * MINUTE,
  );

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
});
