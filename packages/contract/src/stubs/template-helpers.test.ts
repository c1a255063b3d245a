// The generated project's test helpers answer as the test-helpers document says (the conformance
// suite sets up its tests with them): a project generated from the sources into .tmp/ (inside the
// repository, so its @marketplace imports resolve to the workspaces), started in test mode, each
// helper the template writes called once and its answer validated against the helper's documented
// 200 schema with an Ajv of its own; every helper the template does not write answers 404.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initProject } from './project.ts';

const repo = resolve(import.meta.dirname, '../../../..');
const helpersDocument = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('@marketplace/openapi/test-helpers.json'), 'utf8'),
);
const OWNER = '76561198000000001';

/** What each helper of the template is sent, in order (a later one needs the state an earlier one made). */
const CALLS: [method: string, path: string, body?: unknown][] = [
  ['POST', '/test_helpers/reset', {}],
  ['POST', '/test_helpers/users', { platformId: OWNER, balance: 10_000, country: 'US', name: 'Alice' }],
  ['POST', '/test_helpers/items', { id: 5021, name: 'Mann Co. Supply Crate Key', game: 440 }],
  ['POST', '/test_helpers/assets', { owner: OWNER, itemId: 5021, state: 1, price: 205 }],
  ['POST', '/test_helpers/clock', { advance: 3600 }],
  ['GET', '/test_helpers/clock'],
  ['POST', '/test_helpers/geoip', { ip: '203.0.113.7', country: 'kp' }],
];

let scratch: string;
let child: ChildProcess | undefined;
let base: string;

beforeAll(async () => {
  mkdirSync(join(repo, '.tmp'), { recursive: true });
  scratch = mkdtempSync(join(repo, '.tmp/stub-helpers-'));
  const app = join(scratch, 'market-api');
  initProject(app);
  child = spawn(process.execPath, ['src/main.ts'], {
    cwd: app,
    env: { ...process.env, PORT: '0', MARKETPLACE_TEST_MODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  base = await new Promise<string>((done, fail) => {
    child?.stdout?.on('data', (chunk) => {
      output += chunk;
      const at = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (at?.[1]) done(at[1]);
    });
    child?.once('exit', (code) => fail(new Error(`the project exited ${code}:\n${output}`)));
  });
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((done) => child?.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};

describe("the generated project's test helpers", () => {
  it('answer each call with its documented 200 answer', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(helpersDocument, 'helpers');
    for (const [method, path, body] of CALLS) {
      const answer = await call(method, path, body);
      const pointer = `#/paths/${path.replaceAll('/', '~1')}/${method.toLowerCase()}/responses/200/content/application~1json/schema`;
      const validate = ajv.compile({ $ref: `helpers${pointer}` });
      validate(answer.body);
      expect({ call: `${method} ${path}`, status: answer.status, errors: validate.errors ?? [] }).toEqual({
        call: `${method} ${path}`,
        status: 200,
        errors: [],
      });
    }
  });

  it('answers an asset as the document does, not as the store keeps it', async () => {
    const asset = await call('POST', '/test_helpers/assets', { owner: OWNER, itemId: 5021, state: 1, price: 205 });
    expect(asset.body.content).toEqual({
      id: expect.any(Number),
      assetId: expect.stringMatching(/^\d+$/),
      item_id: 5021,
      user: OWNER,
      state: 1,
      price: 205,
      game: 440,
    });
  });

  it('leaves every other helper out: 404, as an unknown route', async () => {
    const called = new Set(CALLS.map(([method, path]) => `${method} ${path}`));
    const others = Object.entries(helpersDocument.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/test_helpers/'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .filter((route) => !called.has(route));
    expect(others.length).toBeGreaterThan(5);
    for (const route of others) {
      const [method, path] = route.split(' ') as [string, string];
      const concrete = path.replace(/\{[^}]+\}/g, '1');
      const answer = await call(method, concrete, method === 'GET' ? undefined : {});
      expect([route, answer.status]).toEqual([route, 404]);
    }
  });
});
