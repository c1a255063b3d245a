// README.md, "### The API in your HTTP client and your editor's assistant", run as written.
// The collections as a frontend team runs them: @marketplace/openapi and @marketplace/server packed and installed into a new project with newman and Bruno's CLI from the registry, then the
// README's commands run as written (but for the port and the admin key the server prints) from
// node_modules/@marketplace/openapi/tools/ against the installed server's demo world in test mode:
// newman and `bru run` each send every request, every test of theirs passes (a documented status,
// the document's shape), and every request answers a success (the demo world's rows, and what the
// scripts fetch: tools-flows.ts). Each tool meets a fresh demo world: a run changes it.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../packages/contract/src/document.ts';
import { packWorkspaces } from './pack.ts';
import { answering, freePort, MINUTE, repo, run, startIn, stop, userEnv } from './packed-project.ts';
import { toolOperations } from './tools-operations.ts';

const doc = JSON.parse(readFileSync(join(repo, 'openapi/bundled/openapi.json'), 'utf8'));
const operations = toolOperations(doc);
const WORKSPACES = ['openapi', 'types', 'contract', 'server'].map((p) => `@marketplace/${p}`);
const SERVER_ARGS = ['--demo', '--test-mode', '--db', ':memory:'];
const started: ChildProcess[] = [];
let scratch: string;
let app: string;

/** The README's shell block that runs the collections from the installed package. */
function readmeBlock(): string {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('TOOLS='));
  if (!block) throw new Error('README.md has no block running the collections from node_modules');
  return block;
}

/** The installed server with a fresh demo world on a free port: its URL and the admin key it printed. */
async function demoServer(): Promise<{ url: string; adminKey: string; child: ChildProcess }> {
  const port = await freePort();
  const bin = startIn(started, app, join(app, 'node_modules/.bin/marketplace-server'), [
    ...SERVER_ARGS,
    '--port',
    String(port),
  ]);
  const url = `http://127.0.0.1:${port}`;
  await answering(`${url}/openapi.json`, bin);
  const adminKey = bin.output().match(/^\s+Admin: ([0-9a-f]+)$/m)?.[1];
  if (!adminKey) throw new Error(`no admin key in the server's output:\n${bin.output()}`);
  return { url, adminKey, child: bin.child };
}

/** Runs shell lines of the README block in the project, for the server at `url`. */
async function bash(lines: string, server: { url: string; adminKey: string }) {
  const script = lines
    .replace(/^ADMIN_KEY=.*$/m, `ADMIN_KEY=${server.adminKey}`)
    // The environments' baseUrl is the default port; the test's server listens on a free one.
    .replaceAll('--env-var adminApiKey=$ADMIN_KEY', `--env-var adminApiKey=$ADMIN_KEY --env-var baseUrl=${server.url}`);
  return await run('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: app,
    env: userEnv(),
    maxBuffer: 64 * 1024 * 1024,
    timeout: 10 * MINUTE,
  });
}

/** Status by request name, for the requests that did not answer 2xx. */
const notSuccess = (answers: [string, number][]) => answers.filter(([, status]) => status < 200 || status > 299);

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'marketplace-collections-'));
  const tarballs = join(scratch, 'tarballs');
  app = join(scratch, 'app');
  mkdirSync(tarballs);
  mkdirSync(app);
  const files = await packWorkspaces(tarballs, WORKSPACES);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'a-frontend-project', private: true }));
  // The README's install line, with the tarballs in place of the registry's @marketplace packages.
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const install = readme.match(/^npm install --save-dev (@marketplace\/openapi .*)$/m)?.[1]?.split(/\s+/) ?? [];
  expect(install.filter((p) => p.startsWith('@marketplace/'))).toEqual(['@marketplace/openapi', '@marketplace/server']);
  // The server as demoServer starts it, but for the port.
  expect(readme).toContain(`npx marketplace-server ${SERVER_ARGS.join(' ')} --port 8080`);
  const tools = install.filter((p) => !p.startsWith('@marketplace/'));
  await run('npm', ['install', '--save-dev', '--no-audit', '--no-fund', ...files, ...tools], {
    cwd: app,
    env: userEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });
}, 20 * MINUTE);

afterAll(async () => {
  await Promise.all(started.map(stop));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}, 5 * MINUTE); // removing the project (newman and Bruno's CLI with it) is slow on a busy disk

describe('the collections, run from node_modules/@marketplace/openapi/tools as the README says', {
  timeout: 15 * MINUTE,
}, () => {
  const [newmanPart = '', brunoPart = ''] = readmeBlock().split(/^(?=# Bruno)/m);
  const setup = newmanPart
    .split('\n')
    .filter((line) => /^(ADMIN_KEY|TOOLS)=/.test(line))
    .join('\n');

  it('newman sends every request against a demo server: all tests pass, every request succeeds', async () => {
    const server = await demoServer();
    const report = join(scratch, 'newman.json');
    const { stdout } = await bash(
      newmanPart.replace(/(-e \S+)/, `$1 --reporters cli,json --reporter-json-export ${report}`),
      server,
    ).catch((e) => {
      throw new Error(`${e.stdout}${e.stderr}`.slice(-6000));
    });
    const { run: result } = JSON.parse(readFileSync(report, 'utf8'));
    expect(
      result.failures.map((f: Json) => `${f.source?.name}: ${f.error?.message}`),
      stdout.slice(-4000),
    ).toEqual([]);
    const answers: [string, number][] = result.executions.map((e: Json) => [e.item.name, e.response?.code]);
    expect(new Set(answers.map(([name]) => name)).size).toBe(operations.length);
    expect(result.stats.assertions.total).toBeGreaterThanOrEqual(2 * operations.length);
    expect(notSuccess(answers)).toEqual([]);
    await stop(server.child);
  });

  it('bru run, in a copy of the Bruno folder, sends every request against a demo server: every request succeeds', async () => {
    const server = await demoServer();
    const report = join(scratch, 'bruno.json');
    const { stdout } = await bash(
      `${setup}\n${brunoPart.replace(/^(npx bru run .*)$/m, `$1 --reporter-json ${report}`)}`,
      server,
    ).catch((e) => {
      throw new Error(`${e.stdout}${e.stderr}`.slice(-6000));
    });
    const results: Json[] = JSON.parse(readFileSync(report, 'utf8'))[0].results;
    expect(
      results.filter((r) => r.error || r.testResults.some((t: Json) => t.status !== 'pass')),
      stdout.slice(-4000),
    ).toEqual([]);
    expect(results).toHaveLength(operations.length);
    const answers: [string, number][] = results.map((r) => [r.test?.filename ?? r.request?.url, r.response?.status]);
    expect(notSuccess(answers)).toEqual([]);
    await stop(server.child);
  });

  it('bru run inside node_modules runs nothing (Bruno skips such paths): why the README runs a copy', async () => {
    const report = join(scratch, 'bruno-in-node-modules.json');
    await run(join(app, 'node_modules/.bin/bru'), ['run', '-r', '--env', 'sandbox', '--reporter-json', report], {
      cwd: join(app, 'node_modules/@marketplace/openapi/tools/bruno'),
      env: userEnv(),
    }).catch(() => undefined);
    expect(JSON.parse(readFileSync(report, 'utf8'))[0].results).toEqual([]);
  });
});
