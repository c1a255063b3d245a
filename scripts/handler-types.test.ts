// The server's handlers are typed from the document: in a copy of the document where a request
// field is renamed and a response field changes its type, or where an operation no longer lists a
// message its handler answers, regenerated types make `tsc` fail in the handlers of exactly those
// operations (packages/server/src/http/context.ts, ADR 0026). The test helpers are typed the same
// way from their own document (openapi/test-helpers.yaml).
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, expect, it } from 'vitest';
import { operationIndex, testHelperIndex } from './generated.ts';

const repo = resolve(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'handler-types-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Doc = Record<string, unknown>;
const typesOf = async (doc: Doc) =>
  astToString(await openapiTS(doc as never, { alphabetize: false, exportType: false }));

/**
 * The files under packages/server/src where `tsc` fails once the types are generated from `api`
 * (the public document) and `helpers` (the test helpers'), each the committed one when not given,
 * and its output.
 */
async function failingWith(
  { api, helpers }: { api?: Doc; helpers?: Doc },
  name: string,
): Promise<{ failing: string[]; output: string }> {
  const dir = join(scratch, name);
  const types = join(dir, 'types');
  cpSync(join(repo, 'packages/types/src'), types, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  if (api) {
    writeFileSync(join(types, 'openapi.ts'), await typesOf(api));
    writeFileSync(join(types, 'operation-index.ts'), operationIndex(api));
  }
  if (helpers) {
    writeFileSync(join(types, 'test-helpers.ts'), await typesOf(helpers));
    writeFileSync(join(types, 'test-helper-index.ts'), testHelperIndex(helpers));
  }
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: join(repo, 'tsconfig.json'),
      compilerOptions: {
        paths: { '@marketplace/types': [join(types, 'index.ts')] },
        typeRoots: [join(repo, 'node_modules/@types')],
      },
      include: [join(repo, 'packages/server/src/routes'), join(repo, 'packages/server/src/http/context.ts')],
      exclude: [join(repo, 'packages/server/src/**/*.test.ts')],
    }),
  );
  const tsc = join(repo, 'node_modules/typescript/bin/tsc');
  const output = await promisify(execFile)(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], {
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    () => '',
    (e: { stdout: string }) => e.stdout,
  );
  const files = new Set([...output.matchAll(/^(\S+?\.ts)\(\d+,\d+\): error/gm)].map((m) => m[1] ?? ''));
  return { failing: [...files].map((f) => f.replace(/^.*packages\/server\/src\//, '')).sort(), output };
}

const bundled = (file = 'openapi.json') => JSON.parse(readFileSync(join(repo, 'openapi/bundled', file), 'utf8'));

it('tsc fails in the handler whose operation the document changed', { timeout: 300_000 }, async () => {
  const doc = bundled();
  // A request field renamed: the buy order's `itemid` becomes `itemId`.
  const order = doc.components.schemas.BuyOrderCreateRequest;
  order.properties.itemId = order.properties.itemid;
  delete order.properties.itemid;
  order.required = order.required.map((f: string) => (f === 'itemid' ? 'itemId' : f));
  // A response field's type changed: the balance becomes a string.
  const balance = doc.paths['/user/balance'].get.responses['200'].content['application/json'].schema;
  const content = JSON.stringify(balance).includes('"balance"') ? balance : undefined;
  expect(content, 'the balance schema is inline in the operation').toBeDefined();
  const patched = JSON.parse(
    JSON.stringify(content).replace('"balance":{"type":"integer"', '"balance":{"type":"string"'),
  );
  expect(JSON.stringify(patched)).not.toBe(JSON.stringify(content));
  doc.paths['/user/balance'].get.responses['200'].content['application/json'].schema = patched;

  const { failing, output } = await failingWith({ api: doc }, 'fields');
  // The two handlers, and the table of every handler that then no longer holds.
  expect(failing).toEqual(['routes/account.ts', 'routes/buy-orders.ts', 'routes/index.ts']);
  expect(output).toMatch(/itemid/);
  expect(output).toMatch(/balance/);
});

it('tsc fails in the handler that answers a message the document no longer lists', { timeout: 300_000 }, async () => {
  const doc = bundled();
  // `Not enough balance` dropped from POST /item/buyorder: placeOrder still answers it.
  const op = doc.paths['/item/buyorder'].post;
  const before = op['x-error-messages'].length;
  op['x-error-messages'] = op['x-error-messages'].filter(
    (m: { message: string }) => m.message !== 'Not enough balance',
  );
  expect(op['x-error-messages'].length).toBe(before - 1);

  const { failing, output } = await failingWith({ api: doc }, 'messages');
  expect(failing).toEqual(['routes/buy-orders.ts', 'routes/index.ts']);
  expect(output).toMatch(/'"Not enough balance"' is not assignable/);
});

it('tsc fails in the test helper answering a message the helpers document dropped', { timeout: 300_000 }, async () => {
  const doc = bundled('test-helpers.json');
  const drop = (path: string, message: string) => {
    const op = doc.paths[path].post;
    const before = op['x-error-messages'].length;
    op['x-error-messages'] = op['x-error-messages'].filter((m: { message: string }) => m.message !== message);
    expect(op['x-error-messages'].length, `${path} lists ${message}`).toBe(before - 1);
  };
  // The item helper answers `Item id already exists` itself; settling an offer answers
  // `Unknown trade` through settleOffer, in a file of its own.
  drop('/test_helpers/items', 'Item id already exists');
  drop('/test_helpers/platform/offers/{tradeId}', 'Unknown trade');

  const { failing, output } = await failingWith({ helpers: doc }, 'helper-messages');
  expect(failing).toEqual(['routes/test-helpers-settle.ts', 'routes/test-helpers.ts']);
  // Each error of tsc's output: its first line names the file, the lines below it are indented.
  const errorsIn = (file: string) =>
    output
      .split(/\n(?=\S)/)
      .filter((error) => error.includes(`routes/${file}(`))
      .join('\n');
  expect(errorsIn('test-helpers.ts')).toMatch(/"Item id already exists"/);
  expect(errorsIn('test-helpers.ts')).not.toMatch(/Unknown trade/);
  expect(errorsIn('test-helpers-settle.ts')).toMatch(/"Unknown trade"/);
});
