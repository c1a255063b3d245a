// The README's example, exactly as written: type-checked, then run against the sandbox (the
// reference server in memory with demo data), and its output checked.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/src/routes/test-harness.fixture.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '..');
const repo = resolve(root, '../..');
const scratch = join(root, '.tmp');

/** The first ```ts block of the README. */
export function example(readme: string): string {
  const match = readme.match(/```ts\n([\s\S]*?)```/);
  if (!match?.[1]) throw new Error('the README has no ts example');
  return match[1];
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ demoData: true });
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, 'first-call.ts'), example(readFileSync(join(root, 'README.md'), 'utf8')));
  writeFileSync(
    join(scratch, 'tsconfig.json'),
    JSON.stringify({
      extends: '../../../tsconfig.json',
      include: ['first-call.ts'],
      compilerOptions: { types: ['node'] },
    }),
  );
});
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await server?.close();
});

describe('the README example', () => {
  it('type-checks', async () => {
    await run(join(repo, 'node_modules/.bin/tsc'), ['-p', join(scratch, 'tsconfig.json')], { cwd: scratch });
  });

  it('runs as written against the sandbox and prints what the demo data holds', async () => {
    const { stdout } = await run(process.execPath, ['first-call.ts'], {
      cwd: scratch,
      env: { ...process.env, MARKETPLACE_URL: server.baseUrl },
    });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^item 1 has [1-9]\d* listings, the cheapest at \d+ cents$/);
    expect(lines[1]).toMatch(/^alice has \d+ buy orders$/);
    expect(lines.slice(2)).toEqual([
      'postItemBuyorder answered 300: Not enough balance',
      'alice cannot afford that order',
    ]);
  });
});
