// Every TypeScript sample of the docs page compiles against the client's types: a sample with a
// missing required parameter, a wrong body or a path the client does not know fails here. Every
// Python sample byte-compiles (`python3 -m py_compile`).
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  clientErrorSample,
  clientSample,
  curlSample,
  exampleValue,
  pythonLiteral,
  pythonSample,
} from './code-samples.ts';

const root = resolve(import.meta.dirname, '..');
const doc = JSON.parse(readFileSync(join(root, 'openapi/bundled/openapi.json'), 'utf8'));
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, { operationId?: string }>)
    .filter(([, op]) => typeof op === 'object' && op.operationId)
    .map(([method, op]) => ({ path, method, op })),
);
// Inside the client package, so `@marketplace/client` resolves as it does for a user.
const scratch = join(root, 'packages/client/.tmp/samples');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Type-checks `files` (name → source) with the repository's compiler options; the errors, if any. */
async function typecheck(files: Record<string, string>): Promise<string> {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  for (const [name, source] of Object.entries(files)) writeFileSync(join(scratch, name), source);
  writeFileSync(
    join(scratch, 'tsconfig.json'),
    JSON.stringify({ extends: '../../../../tsconfig.json', include: ['*.ts'] }),
  );
  try {
    await promisify(execFile)(join(root, 'node_modules/.bin/tsc'), ['-p', join(scratch, 'tsconfig.json')]);
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
}

// Each sample is a module of its own (they all declare `market`).
const sampleFiles = (samples: string[]) =>
  Object.fromEntries(samples.map((source, i) => [`sample-${i}.ts`, `${source}\nexport { payload };\n`]));

describe('the TypeScript code samples', () => {
  it('compile against the client for every operation of the document', async () => {
    const samples = operations.map(({ path, method, op }) => clientSample(doc, method, path, op));
    expect(samples).toHaveLength(operations.length);
    expect(await typecheck(sampleFiles(samples))).toBe('');
  }, 120_000);

  it('would fail for a sample without a required parameter (the check can fail)', async () => {
    const op = doc.paths['/item/prices'].get;
    const broken = clientSample(doc, 'get', '/item/prices', op).replace(/, \{[\s\S]*\}\);$/, ');');
    expect(await typecheck(sampleFiles([broken]))).toContain('error TS');
  }, 120_000);

  it('with error handling (the operation pages of llms.txt), compile for every operation, a typo in the message does not', async () => {
    const samples = operations.map(({ path, method, op }) => clientErrorSample(doc, method, path, op));
    const files = (list: string[]) =>
      Object.fromEntries(list.map((source, i) => [`errors-${i}.ts`, `${source}\nexport {};\n`]));
    expect(await typecheck(files(samples))).toBe('');
    const buyOrder = clientErrorSample(doc, 'post', '/item/buyorder', doc.paths['/item/buyorder'].post);
    expect(buyOrder).toContain('error.is("Not enough balance")');
    expect(await typecheck(files([buyOrder.replace('Not enough balance', 'Not enough balanc')]))).toContain('error TS');
  }, 240_000);

  it('log in only where the operation needs a user, and use the examples of the document', () => {
    const prices = clientSample(doc, 'get', '/item/listing/{item}', doc.paths['/item/listing/{item}'].get);
    expect(prices).not.toContain('apiKey');
    const ban = clientSample(doc, 'get', '/admin/banList', doc.paths['/admin/banList'].get);
    expect(ban).toContain('apiKey: process.env.API_KEY');
    expect(ban).toContain('"platformId": "76561198000000004"');
    expect(curlSample(doc, 'post', '/item/buyorder', doc.paths['/item/buyorder'].post)).toContain("-d '{");
  });

  it('fill path parameters and required query parameters with their examples', () => {
    const listing = curlSample(doc, 'get', '/item/listing/{item}', doc.paths['/item/listing/{item}'].get);
    expect(listing).toMatch(/"\$BASE_URL\/item\/listing\/[^{}"]+"/);
    const ban = curlSample(doc, 'get', '/admin/banList', doc.paths['/admin/banList'].get);
    expect(ban).toContain('/admin/banList?platformId=76561198000000004');
  });
});

/** Byte-compiles `files` (name → source) with python3; the errors, if any. */
async function pyCompile(files: Record<string, string>): Promise<string> {
  const dir = join(scratch, 'python');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const paths = Object.entries(files).map(([name, source]) => {
    writeFileSync(join(dir, name), source);
    return join(dir, name);
  });
  try {
    await promisify(execFile)('python3', ['-m', 'py_compile', ...paths]);
    return '';
  } catch (error) {
    return String((error as { stderr?: string }).stderr);
  }
}

describe('the Python code samples', () => {
  const samples = operations.map(({ path, method, op }) => pythonSample(doc, method, path, op));

  it('byte-compile for every operation of the document', async () => {
    expect(samples).toHaveLength(operations.length);
    expect(await pyCompile(Object.fromEntries(samples.map((source, i) => [`sample_${i}.py`, source])))).toBe('');
  }, 120_000);

  it('would fail for a sample that is not Python (the check can fail)', async () => {
    expect(await pyCompile({ 'broken.py': samples[0]!.replace('requests.', 'requests..') })).toContain('SyntaxError');
  }, 60_000);

  it('send the token, the example query and the body as Python values', () => {
    const ban = pythonSample(doc, 'get', '/admin/banList', doc.paths['/admin/banList'].get);
    expect(ban).toContain('headers={"Authorization": f"Bearer {os.environ[\'JWT\']}"}');
    expect(ban).toContain('"platformId": "76561198000000004"');
    const listing = pythonSample(doc, 'get', '/item/listing/{item}', doc.paths['/item/listing/{item}'].get);
    expect(listing).not.toContain('Authorization');
    expect(pythonLiteral({ a: [true, null, 1.5, 'x"y'], b: {} })).toBe(
      '{\n    "a": [\n        True,\n        None,\n        1.5,\n        "x\\"y",\n    ],\n    "b": {},\n}',
    );
  });
});

describe('exampleValue', () => {
  it('prefers the example, then named examples, the schema example, enum, default, then the type', () => {
    expect(exampleValue({ name: 'a', example: 5, schema: { example: 6 } })).toBe(5);
    expect(exampleValue({ name: 'a', examples: { x: { value: 'v' } } })).toBe('v');
    expect(exampleValue({ name: 'a', schema: { enum: [440, 730] } })).toBe(440);
    expect(exampleValue({ name: 'a', schema: { type: 'integer', minimum: 3 } })).toBe(3);
    expect(exampleValue({ name: 'id', schema: { type: 'string' } })).toBe('id');
  });
});
