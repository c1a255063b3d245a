// The server's handlers are typed from the document: in a copy of the document where a request
// field is renamed and a response field changes its type, regenerated types make `tsc` fail in the
// handlers of exactly those operations (packages/server/src/http/context.ts, ADR 0026).
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'handler-types-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it('tsc fails in the handler whose operation the document changed', { timeout: 180_000 }, async () => {
  const doc = JSON.parse(readFileSync(join(repo, 'openapi/bundled/openapi.json'), 'utf8'));
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

  const types = join(scratch, 'types');
  cpSync(join(repo, 'packages/types/src'), types, { recursive: true });
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(
    join(types, 'openapi.ts'),
    astToString(await openapiTS(doc, { alphabetize: false, exportType: false })),
  );
  writeFileSync(
    join(scratch, 'tsconfig.json'),
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
  const output = await promisify(execFile)(process.execPath, [tsc, '-p', join(scratch, 'tsconfig.json')], {
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    () => '',
    (e: { stdout: string }) => e.stdout,
  );
  const failing = [...new Set([...output.matchAll(/^(\S+?\.ts)\(\d+,\d+\): error/gm)].map((m) => m[1] ?? ''))];
  // The two handlers, and the table of every handler that then no longer holds.
  expect(failing.map((f) => f.replace(/^.*packages\/server\/src\//, '')).sort()).toEqual([
    'routes/account.ts',
    'routes/buy-orders.ts',
    'routes/index.ts',
  ]);
  expect(output).toMatch(/itemid/);
  expect(output).toMatch(/balance/);
});
