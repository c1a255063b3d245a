// The tool files of openapi/tools/ in the tools themselves: the Postman collection loaded by
// Postman's SDK and run by newman, the Bruno collection run by Bruno's CLI, each against the
// reference server in test mode with demo data (the sandbox) behind the conformance suite's
// validating proxy, so every request they send must get an answer the document allows; and
// llms.txt linking every operation's page.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { bruToJsonV2 } from '@usebruno/lang';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startValidatingProxy, type ValidatingProxy } from '../conformance/src/proxy/proxy.ts';
import type { Json } from '../packages/contract/src/document.ts';
import { startMock } from '../packages/mock/src/mock.ts';
import { startSandbox } from '../packages/server/src/sandbox.ts';
import { TOOLS_DIR } from './generated-files.ts';
import { toolFiles } from './tools.ts';
import { folderDir } from './tools-bruno.ts';
import { FILLS } from './tools-flows.ts';
import { LOGIN, toolOperations } from './tools-operations.ts';

const root = resolve(import.meta.dirname, '..');
const tools = join(root, TOOLS_DIR);
const require = createRequire(import.meta.url);
const doc = JSON.parse(readFileSync(join(root, 'openapi/bundled/openapi.json'), 'utf8'));
const operations = toolOperations(doc);
const read = (rel: string) => readFileSync(join(tools, rel), 'utf8');

/**
 * A demo sandbox (test mode, response validation on) with an admin's key, or the mock, behind the
 * validating proxy.
 */
async function behindProxy(target: 'sandbox' | 'mock' = 'sandbox') {
  const server =
    target === 'mock'
      ? await startMock({ log: () => {} }).then((m) => ({ url: m.url, close: m.stop, adminKey: 'any-admin-key' }))
      : await startSandbox({ demo: true }).then((s) => ({
          url: s.url,
          close: s.close,
          adminKey: s.demoAccounts.find((a) => a.admin)!.apiKey,
        }));
  const out = mkdtempSync(join(tmpdir(), 'tools-proxy-'));
  const proxy = await startValidatingProxy({ target: server.url, out, log: () => {} });
  return {
    proxy,
    adminKey: server.adminKey,
    stop: async () => {
      await proxy.close();
      await server.close();
      rmSync(out, { recursive: true, force: true });
    },
  };
}

/** Runs the Postman collection with newman in one of its environments, its baseUrl set to `url`. */
async function runNewman(collection: Json, target: 'mock' | 'sandbox', url: string, adminKey: string): Promise<Json> {
  const environment = JSON.parse(read(`postman/${target}.postman_environment.json`));
  environment.values.find((v: Json) => v.key === 'baseUrl').value = url;
  environment.values.find((v: Json) => v.key === 'adminApiKey').value = adminKey;
  const newman = require('newman');
  return await new Promise((done, fail) =>
    newman.run({ collection, environment, reporters: [], timeoutRequest: 30_000 }, (error: Error, s: Json) =>
      error ? fail(error) : done(s),
    ),
  );
}

// The scripted requests are executions too: the logins (the admin operations' and the log-out's:
// tools-postman.ts) and the GETs of the body fills (tools-flows.ts); those to the test helpers are
// outside the document, which the validating proxy does not check.
const fetched = Object.values(FILLS).flatMap((f) => (f.path ? [f.path] : []));
const SCRIPTED = 2 + fetched.length;
const SCRIPTED_IN_DOCUMENT = 2 + fetched.filter((path) => !path.startsWith('/test_helpers/')).length;
/** Every request of the collection was sent, and the scripted ones besides. */
function expectEverySent(summary: Json): void {
  expect(new Set(summary.run.executions.map((e: Json) => e.item.id)).size).toBe(operations.length);
  expect(summary.run.executions).toHaveLength(operations.length + SCRIPTED);
}

const failures = (summary: Json) => summary.run.failures.map((f: Json) => `${f.source?.name}: ${f.error?.message}`);

const violations = (proxy: ValidatingProxy) => proxy.violations.map((v) => `${v.operation} ${v.status}: ${v.problems}`);

describe('the Postman collection', () => {
  const collection = JSON.parse(read('postman/item-marketplace.postman_collection.json'));
  const requests: Json[] = collection.item.flatMap((folder: Json) => folder.item);

  it('is format v2.1, with the baseUrl and jwt variables and the bearer {{jwt}}', () => {
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(collection.variable.map((v: Json) => v.key)).toEqual(expect.arrayContaining(['baseUrl', 'jwt']));
    expect(collection.auth.bearer[0].value).toBe('{{jwt}}');
  });

  it("loads in Postman's SDK with every operation as a request, each with its success example", () => {
    const { Collection } = require('postman-collection');
    const loaded = new Collection(collection);
    const names: string[] = [];
    loaded.forEachItem((item: Json) => {
      names.push(item.name);
      expect(item.request.url.toString()).toMatch(/^\{\{baseUrl\}\}\//);
    });
    expect(names).toHaveLength(operations.length);
    for (const o of operations.filter((o) => o.example)) {
      const found = requests.find((r) => r.id && r.request.description.includes(`(\`${o.operationId}\`)`));
      expect(found?.response[0]?.body, o.operationId).toBe(o.example?.body);
    }
  });

  it('has environments for the mock and the sandbox', () => {
    for (const target of ['mock', 'sandbox']) {
      const env = JSON.parse(read(`postman/${target}.postman_environment.json`));
      expect(env.values.map((v: Json) => v.key)).toEqual(['baseUrl', 'apiKey', 'adminApiKey']);
    }
  });

  describe('run with newman against the sandbox, through the validating proxy', () => {
    let sandbox: Awaited<ReturnType<typeof behindProxy>>;
    let summary: Json;

    beforeAll(async () => {
      sandbox = await behindProxy();
      summary = await runNewman(collection, 'sandbox', sandbox.proxy.url, sandbox.adminKey);
    }, 240_000);
    afterAll(async () => {
      await sandbox?.stop();
    });

    it('sends every request and every test passes', () => {
      expect(failures(summary)).toEqual([]);
      expectEverySent(summary);
      expect(summary.run.stats.assertions.failed).toBe(0);
    });

    it('keeps the JWT of the login, and the next requests are let in with it', () => {
      const login = summary.run.executions.find((e: Json) => e.item.name === 'Log in with an API key');
      expect(login?.assertions.map((a: Json) => [a.assertion, a.error?.message])).toContainEqual([
        'keeps the JWT in {{jwt}}',
        undefined,
      ]);
      const balance = summary.run.executions.find((e: Json) => e.item.name === "The caller's balance");
      expect(balance?.response.code).toBe(200);
    });

    it('gets answers the document allows: the proxy saw every request and no violation', () => {
      expect(violations(sandbox.proxy)).toEqual([]);
      expect(sandbox.proxy.checked()).toBe(operations.length + SCRIPTED_IN_DOCUMENT);
    });

    it("gets a success for every request, with the demo world's values and what the scripts fetch", () => {
      const refused = summary.run.executions
        .filter((e: Json) => e.response.code !== 200)
        .map((e: Json) => [e.item.name, e.response.code, e.response.text?.() ?? '']);
      expect(refused).toEqual([]);
    });

    it('fails a request whose answer lacks a field its schema requires (the shape test can fail)', async () => {
      const balance = requests.find((r) => r.name === "The caller's balance");
      const login = requests.find((r) => r.name === 'Log in with an API key');
      const exec = (lines: string[]) => lines.map((l) => l.replace('"required":["balance"]', '"required":["nope"]'));
      const broken = {
        ...balance,
        event: balance.event.map((e: Json) => ({ ...e, script: { ...e.script, exec: exec(e.script.exec) } })),
      };
      expect(JSON.stringify(broken)).not.toBe(JSON.stringify(balance));
      const mini = await runNewman(
        { ...collection, item: [login, broken] },
        'sandbox',
        sandbox.proxy.url,
        sandbox.adminKey,
      );
      expect(failures(mini)).toHaveLength(1);
      expect(mini.run.failures[0].error.test).toBe('answers the shape the document gives for its status');
    });
  });

  it('runs green with newman against the mock in its mock environment, through the validating proxy', async () => {
    const mock = await behindProxy('mock');
    try {
      const summary = await runNewman(collection, 'mock', mock.proxy.url, mock.adminKey);
      expect(failures(summary)).toEqual([]);
      expectEverySent(summary);
      // The mock answers each operation's success example: the JWT of the login's example lets
      // the others in.
      expect(summary.run.executions.filter((e: Json) => e.response.code !== 200).map((e: Json) => e.item.name)).toEqual(
        [],
      );
      expect(violations(mock.proxy)).toEqual([]);
    } finally {
      await mock.stop();
    }
  }, 240_000);
});

describe('the Bruno collection', () => {
  it("parses with Bruno's own parser: every operation a request, the login keeping the JWT", () => {
    const parsed = operations.map((o) => bruToJsonV2(read(`bruno/${folderDir(o.folder)}/${o.operationId}.bru`)));
    expect(parsed.map((p) => p.http.url)).toEqual(operations.map((o) => `{{baseUrl}}${o.url}`));
    const login = parsed[operations.findIndex((o) => o.operationId === LOGIN)];
    expect(login.script.res).toContain('bru.setVar("jwt"');
    expect(parsed.map((p) => p.auth?.bearer?.token)).toEqual(
      operations.map((o) => (o.admin ? '{{adminJwt}}' : o.bearer ? '{{jwt}}' : undefined)),
    );
  }, 120_000); // Bruno's parser takes about 0.2 s a file, several times that on a busy machine

  it('is run by bru run against the sandbox, through the validating proxy, all green', async () => {
    const sandbox = await behindProxy();
    // bru run writes nothing we need, but it runs in the collection's folder: a copy keeps the
    // committed one untouched.
    const copy = mkdtempSync(join(tmpdir(), 'bruno-'));
    try {
      cpSync(join(tools, 'bruno'), copy, { recursive: true });
      const report = join(copy, 'report.json');
      const bru = join(dirname(require.resolve('@usebruno/cli/package.json')), 'bin/bru.js');
      const run = await new Promise<{ code: number; output: string }>((done) =>
        execFile(
          process.execPath,
          [
            bru,
            'run',
            '-r',
            '--env',
            'sandbox',
            '--env-var',
            `baseUrl=${sandbox.proxy.url}`,
            '--env-var',
            `adminApiKey=${sandbox.adminKey}`,
            // Bruno's default script sandbox ("safe": each script in its own QuickJS context)
            // passes the same way but takes three times as long on a busy machine.
            '--sandbox',
            'developer',
            '--reporter-json',
            report,
          ],
          { cwd: copy, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 },
          (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
        ),
      );
      expect(run.code, run.output.slice(-3000)).toBe(0);
      const results: Json[] = JSON.parse(readFileSync(report, 'utf8'))[0].results;
      expect(results).toHaveLength(operations.length);
      expect(results.filter((r) => r.error || r.testResults.some((t: Json) => t.status !== 'pass'))).toEqual([]);
      expect(violations(sandbox.proxy)).toEqual([]);
      expect(sandbox.proxy.checked()).toBe(operations.length + SCRIPTED_IN_DOCUMENT);
      expect(results.filter((r) => r.response?.status !== 200).map((r) => r.test?.filename)).toEqual([]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
      await sandbox.stop();
    }
  }, 240_000);
});

describe('llms.txt', () => {
  const index = read('llms.txt');
  const links = [...index.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);

  it("links every operation's page, and every link it has leads to a file", () => {
    for (const o of operations) expect(links, o.operationId).toContain(`operations/${o.operationId}.md`);
    for (const link of links) expect(existsSync(join(tools, link)), link).toBe(true);
  });

  it('gives each page the permission, parameters, answers, messages, the client with its errors, Prefer, a sandbox and samples', () => {
    const page = read('operations/postItemBuyorder.md');
    for (const part of [
      '`POST /item/buyorder`',
      '**Permission:** Connected + API',
      '| `amount` | integer | yes |',
      '| 300 | `Not enough balance` |',
      '`Prefer: code=300, example=notEnoughBalance`',
      '## Answers',
      '## With the typed client',
      "if (!isMarketplaceError(error, 'post', '/item/buyorder')) throw error;",
      'if (error.is("Not enough balance"))',
      "headers: { Prefer: 'code=300, example=notEnoughBalance' }",
      '`Prefer: delay=2000`',
      '`startSandbox()` of `@marketplace/server`',
      '### curl',
      '### TypeScript',
      '### Python',
    ])
      expect(page).toContain(part);
  });
});

it('the committed tool files are what the build writes (npm run check:generated checks them too)', () => {
  const files = toolFiles(doc);
  for (const [rel, text] of Object.entries(files)) expect(read(rel), rel).toBe(text);
});
