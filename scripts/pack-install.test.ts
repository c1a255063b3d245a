// The packages as another team gets them: every workspace packed (`npm pack`, which builds it),
// the tarballs installed into a new project outside the repository (its own package.json; the
// third-party dependencies come from the npm registry), then used there only through what they
// install: a client program type-checked with strict nodenext and bundler settings and bundled for
// a browser, the `marketplace-server` bin called by the installed client, the installed suite run
// against it, and the `marketplace-mock` bin. Every process it starts is stopped in afterAll.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_PLACEHOLDER } from '../packages/server/src/routes/documents.ts';
import { chromiumPath } from './ensure-chromium.ts';
import { answering, freePort, installedProject, MINUTE, repo, run, startIn, stop, userEnv } from './packed-project.ts';

const PACKAGES = ['openapi', 'types', 'contract', 'client', 'server', 'mock', 'conformance'].map(
  (p) => `@marketplace/${p}`,
);

const started: ChildProcess[] = [];

/** Starts an installed bin in its own process group (so its children stop with it). */
const startBin = (app: string, name: string, args: string[], env: Record<string, string> = {}) =>
  startIn(started, app, join(app, 'node_modules/.bin', name), args, env);

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile());
}

/**
 * The names of every package installed `name` brings with it, resolved from `node_modules` as Node
 * does (the package's own, then each folder above it up to `root`): what installing it alone would
 * install, although `root` holds the other packages too.
 */
function dependencyTree(root: string, name: string): Set<string> {
  const seen = new Set<string>();
  const visited = new Set<string>();
  const locate = (from: string, dep: string): string | undefined => {
    for (let dir = from; dir.startsWith(root); dir = dirname(dir)) {
      const candidate = join(dir, 'node_modules', dep);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
      if (dir === root) break;
    }
    return undefined;
  };
  const visit = (dir: string) => {
    if (visited.has(dir)) return;
    visited.add(dir);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const found = locate(dir, dep);
      if (!found) continue; // an optional dependency for another platform
      seen.add(dep);
      visit(found);
    }
  };
  visit(join(root, 'node_modules', name));
  return seen;
}

// The first calls of a frontend team, with the installed client and types only. `process` is
// declared rather than taken from @types/node: the project has no Node types, as a browser app.
const CLIENT_PROGRAM = `import { createMarketplaceClient, isMarketplaceError } from '@marketplace/client';
import type { Schema } from '@marketplace/types';

declare const process: { env: Record<string, string | undefined> };

const market = createMarketplaceClient({ baseUrl: process.env.MARKETPLACE_URL ?? '', apiKey: 'demo-alice-api-key' });
const listings: Schema<'Listing'>[] = await market.GET('/item/listing/{item}', { params: { path: { item: 1 } } });
const orders = await market.GET('/user/getBuyorder');
let refused = '';
try {
  await market.POST('/item/buyorder', { body: { itemid: 2, value: 5_000_000, amount: 1000 } });
} catch (error) {
  if (!isMarketplaceError(error, 'post', '/item/buyorder')) throw error;
  if (error.is('Not enough balance')) refused = \`\${error.operation}: \${error.message}\`;
}
const nobody = createMarketplaceClient({ baseUrl: process.env.CLOSED_URL ?? '' });
const gone = await nobody.safe.GET('/infos/admin');
console.log(JSON.stringify({ listings: listings.length, orders: orders.count.nb, refused, offline: gone.ok ? '' : gone.error.message }));
`;

/** The first ```lang block after `heading` in the README: its "Use it from your project" snippets run as written. */
function readmeBlock(heading: string, lang: string): string {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const from = readme.indexOf(`\n${heading}\n`);
  const block = readme.slice(from).match(new RegExp(`\`\`\`${lang}\n([\\s\\S]*?)\`\`\``));
  if (from < 0 || !block?.[1]) throw new Error(`README.md has no ${lang} block under ${heading}`);
  return block[1];
}
const MOCK_URL_IN_README = 'http://127.0.0.1:4010';

const BROWSER_ENTRY = `import { createMarketplaceClient } from '@marketplace/client';
globalThis.marketplace = createMarketplaceClient({ baseUrl: location.origin });
`;

/** The installed suite against the installed server, reports in `out`: its exit code, results and output. */
async function suite(out: string, args: string[]) {
  const bin = startBin(app, 'marketplace-conformance', ['--target', server.url, '--out', out, ...args]);
  const code = await new Promise<number | null>((done) => bin.child.once('exit', (c) => done(c)));
  const file = join(out, 'results.json');
  const results = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  if (!results) throw new Error(`no results.json:\n${bin.output().slice(-4000)}`);
  return { code, results, output: bin.output() };
}

/** The tests named (as results.json names them) run again alone. */
function suiteAgain(failed: string[]) {
  // results.json joins a test's describe titles with spaces, vitest's --grep sees them with ' > '.
  const exactly = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll(' ', '(?: | > )');
  return suite(join(scratch, 'reports-again'), ['--grep', failed.map(exactly).join('|')]);
}

let scratch: string;
let app: string;
let server: { url: string; bin: ReturnType<typeof startBin> };

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'marketplace-pack-'));
  // npm pack runs each workspace's prepack: a clean build of dist/ and, for the document, the docs page.
  // The install is shared with readme-installed.test.ts (packed and installed once per tree).
  app = await installedProject(scratch);
  writeFileSync(join(app, 'first-calls.ts'), CLIENT_PROGRAM);
  writeFileSync(join(app, 'readme-frontend.ts'), readmeBlock('### Frontend: the client against the mock', 'ts'));
  writeFileSync(join(app, 'readme-docs.js'), readmeBlock('### Docs: the document and the docs page', 'js'));
  writeFileSync(join(app, 'browser.js'), BROWSER_ENTRY);
  const port = await freePort();
  const bin = startBin(app, 'marketplace-server', [
    '--port',
    String(port),
    '--db',
    ':memory:',
    '--test-mode',
    '--demo',
  ]);
  server = { url: `http://127.0.0.1:${port}`, bin };
  await answering(`${server.url}/openapi.json`, bin);
}, 20 * MINUTE);

afterAll(async () => {
  await Promise.all(started.map(stop));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}, 2 * MINUTE);

describe('the packed workspaces, installed into a project outside the repository', { timeout: 5 * MINUTE }, () => {
  it('install every package, each carrying only what runs', () => {
    for (const name of PACKAGES) {
      const dir = join(app, 'node_modules', name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      expect(manifest.private, name).toBeUndefined();
      const files = filesUnder(dir);
      // Sources, unit tests and build state stay home; declarations and compiled suite tests ship, and
      // the contract's templates of a team's project (stub-template/, ADR 0029).
      const stray = files.filter(
        (f) =>
          ((/\.ts$/.test(f) && !f.endsWith('.d.ts')) || /^src\//.test(f) || /tsbuildinfo|fixture/.test(f)) &&
          !f.startsWith('stub-template/'),
      );
      expect(stray, name).toEqual([]);
      const unitTests = files.filter((f) => /\.test\.js$/.test(f) && !f.startsWith('dist/tests/'));
      expect(unitTests, name).toEqual([]);
      // The suite's support for its own tests (planted faults, CLI process helpers) stays home too.
      expect(
        files.filter((f) => f.includes('/testing/')),
        name,
      ).toEqual([]);
    }
    // The mock shares the document's run-time rules and the failures on purpose with the server
    // through the contract package, not the server: installing it brings no database driver.
    const manifest = (name: string) =>
      JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')).dependencies ?? {};
    expect(Object.keys(manifest('@marketplace/mock'))).toContain('@marketplace/contract');
    const mockTree = dependencyTree(app, '@marketplace/mock');
    expect(mockTree).toContain('@marketplace/contract');
    expect(mockTree).toContain('@stoplight/prism-cli');
    expect([...mockTree].filter((d) => d === '@marketplace/server' || d === 'pg')).toEqual([]);
    expect(dependencyTree(app, '@marketplace/server')).toContain('pg'); // the walk does find them
    expect(Object.keys(manifest('@marketplace/contract')).filter((d) => /server|pg|nodemailer|pino/.test(d))).toEqual(
      [],
    );
    const openapiFiles = filesUnder(join(app, 'node_modules/@marketplace/openapi')).sort();
    expect(openapiFiles.filter((f) => !f.startsWith('tools/'))).toEqual([
      'README.md',
      'bundled/openapi.json',
      'bundled/openapi.yaml',
      'bundled/test-helpers.json',
      'bundled/test-helpers.yaml',
      'docs.html',
      'package.json',
    ]);
    // The tool files (scripts/tools.ts): collections, llms.txt and one page per operation.
    expect(openapiFiles).toEqual(
      expect.arrayContaining([
        'tools/llms.txt',
        'tools/operations/postUserLogin.md',
        'tools/postman/item-marketplace.postman_collection.json',
        'tools/postman/mock.postman_environment.json',
        'tools/postman/sandbox.postman_environment.json',
        'tools/bruno/bruno.json',
        'tools/bruno/environments/sandbox.bru',
      ]),
    );
  });

  it('type-check a client program with strict nodenext and with bundler resolution, no skipLibCheck', async () => {
    const strict = { strict: true, skipLibCheck: false, noEmit: true, target: 'ES2023' };
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { ...strict, module: 'nodenext' },
        files: ['first-calls.ts', 'readme-frontend.ts'],
      }),
    );
    writeFileSync(
      join(app, 'tsconfig.bundler.json'),
      JSON.stringify({
        compilerOptions: { ...strict, module: 'esnext', moduleResolution: 'bundler' },
        files: ['first-calls.ts', 'readme-frontend.ts'],
      }),
    );
    const tsc = join(repo, 'node_modules/typescript/bin/tsc');
    for (const project of ['tsconfig.json', 'tsconfig.bundler.json'])
      await run(process.execPath, [tsc, '-p', project], { cwd: app, env: userEnv() }).catch((e) => {
        throw new Error(`${project}: ${e.stdout}${e.stderr}`);
      });
  });

  it('run the client program against the installed marketplace-server', async () => {
    const closed = await freePort();
    const { stdout } = await run(process.execPath, ['first-calls.ts'], {
      cwd: app,
      env: userEnv({ MARKETPLACE_URL: server.url, CLOSED_URL: `http://127.0.0.1:${closed}` }),
    });
    const result = JSON.parse(stdout);
    expect(result.listings).toBeGreaterThan(0);
    expect(result.orders).toBeGreaterThanOrEqual(0);
    expect(result.refused).toBe('postItemBuyorder: Not enough balance');
    expect(result.offline).toMatch(new RegExp(`^GET http://127\\.0\\.0\\.1:${closed}/infos/admin did not answer: `));
  });

  it('serve the document, the docs page and the tool files of @marketplace/openapi from the installed server', async () => {
    const installed = JSON.parse(
      readFileSync(join(app, 'node_modules/@marketplace/openapi/bundled/openapi.json'), 'utf8'),
    );
    expect(await (await fetch(`${server.url}/openapi.json`)).json()).toEqual(installed);
    const docs = await fetch(`${server.url}/docs`);
    expect(docs.status).toBe(200);
    // The page of the package, with the server's own origin in place of the placeholder (documents.ts).
    const page = readFileSync(join(app, 'node_modules/@marketplace/openapi/docs.html'), 'utf8');
    expect(page).toContain(SERVER_PLACEHOLDER);
    expect(await docs.text()).toBe(page.replaceAll(SERVER_PLACEHOLDER, new URL(server.url).origin));
    // The tool files the page links (tools/...), from the installed package.
    const llms = await fetch(`${server.url}/tools/llms.txt`);
    expect(await llms.text()).toBe(readFileSync(join(app, 'node_modules/@marketplace/openapi/tools/llms.txt'), 'utf8'));
  });

  it('bundle the client for a browser (no Node-only import) and call the server from a page', async () => {
    const rolldown = join(repo, 'node_modules/rolldown/bin/cli.mjs');
    await run(
      process.execPath,
      [rolldown, 'browser.js', '--platform', 'browser', '--format', 'iife', '--file', 'bundle.js'],
      {
        cwd: app,
        env: userEnv(),
      },
    );
    const bundle = readFileSync(join(app, 'bundle.js'), 'utf8');
    expect(bundle).not.toMatch(/\brequire\(|from ["']node:|["']node:[a-z_]+["']/);
    const browser = await chromium.launch({ executablePath: chromiumPath() });
    try {
      const page = await browser.newPage();
      // A page of the server's own origin, so the call needs no CORS.
      await page.goto(`${server.url}/openapi.json`);
      await page.addScriptTag({ content: bundle });
      const count = await page.evaluate(async () => {
        // biome-ignore lint/suspicious/noExplicitAny: the bundle's global
        const market = (globalThis as any).marketplace;
        return (await market.GET('/item/listing/{item}', { params: { path: { item: 1 } } })).length;
      });
      expect(count).toBeGreaterThan(0);
    } finally {
      await browser.close();
    }
  });

  it(
    'pass the installed conformance suite against the installed server',
    async () => {
      const out = join(scratch, 'reports');
      // Every reporter, from the installed package: the badge read the suite's version from a path
      // that exists only in the repository (dist/package.json) and crashed the run after its tests.
      const first = await suite(out, ['--reporter', 'junit,json,html,badge']);
      expect(first.results.passed, first.output.slice(-4000)).toBeGreaterThan(100);
      expect(readdirSync(out)).toEqual(
        expect.arrayContaining(['junit.xml', 'report.html', 'badge.svg', 'summary.json']),
      );
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
      expect(summary.suite).toEqual({
        name: '@marketplace/conformance',
        version: JSON.parse(readFileSync(join(repo, 'conformance/package.json'), 'utf8')).version,
      });
      // Both levels ran from the compiled test files of the package.
      expect(first.results.levels.contract.passed).toBeGreaterThan(0);
      expect(first.results.levels.behavior.passed).toBeGreaterThan(0);
      expect(readdirSync(out)).toEqual(expect.arrayContaining(['results.json', 'coverage.md', 'coverage.html']));
      // Some behaviour tests compare seconds across two requests and fail when the test clock (real
      // time) crosses a second between them, which a loaded machine makes likely. Such a failure
      // passes only if the test then passes when run again alone: a real fault fails twice.
      const failed: string[] = first.results.failed.map((f: { name: string }) => f.name);
      if (failed.length === 0) return expect(first.code).toBe(0);
      expect(failed.length, first.output.slice(-4000)).toBeLessThanOrEqual(3);
      const again = await suiteAgain(failed);
      expect({ code: again.code, failed: again.results.failed }, again.output.slice(-4000)).toEqual({
        code: 0,
        failed: [],
      });
      expect(again.results.passed).toBe(failed.length);
    },
    20 * MINUTE,
  );

  it(
    "start the installed marketplace-mock on PORT and answer the README's frontend snippet",
    async () => {
      const port = await freePort();
      const mock = startBin(app, 'marketplace-mock', [], { PORT: String(port) });
      const url = `http://127.0.0.1:${port}`;
      await answering(url, mock);
      // The snippet as written, but for the port: the test takes a free one instead of Prism's 4010.
      const snippet = readFileSync(join(app, 'readme-frontend.ts'), 'utf8');
      expect(snippet).toContain(MOCK_URL_IN_README);
      writeFileSync(join(app, 'readme-frontend-here.ts'), snippet.replace(MOCK_URL_IN_README, url));
      const { stdout } = await run(process.execPath, ['readme-frontend-here.ts'], { cwd: app, env: userEnv() });
      expect(stdout).toBe('Not enough balance\n');
      await stop(mock.child);
    },
    5 * MINUTE,
  );

  it("read the document as the README's docs snippet says", async () => {
    const { stdout } = await run(process.execPath, ['readme-docs.js'], { cwd: app, env: userEnv() });
    const version = JSON.parse(readFileSync(join(repo, 'openapi/bundled/openapi.json'), 'utf8')).info.version;
    expect(stdout).toBe(`${version} ${join(app, 'node_modules/@marketplace/openapi/bundled/openapi.yaml')}\n`);
  });
});
