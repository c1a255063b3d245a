// The README's quick start, run as a reader copies it: its shell blocks go to bash unchanged but
// for the address (the sandbox and the mock listen on free ports here, not 8080 and 4010), and
// their output must show the JWT at work, the balance reserved by a buy order and given back.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMock } from '../packages/mock/src/mock.ts';
import { startTestServer, type TestServer } from '../packages/server/src/routes/test-harness.fixture.ts';

const repo = resolve(import.meta.dirname, '..');
const readme = readFileSync(resolve(repo, 'README.md'), 'utf8');
const section = readme.slice(
  readme.indexOf('## Quick start'),
  readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1),
);
const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

const bash = async (script: string) =>
  (await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { cwd: repo, timeout: 120_000 })).stdout;

let sandbox: TestServer;
let mock: MockServer;
beforeAll(async () => {
  [sandbox, mock] = await Promise.all([startTestServer({ demoData: true }), startMock()]);
}, 90_000);
afterAll(async () => {
  await Promise.all([sandbox?.close(), mock?.stop()]);
});

describe('the README quick start', () => {
  it('installs and starts the server first, and says how to start the sandbox and the mock with PORT', () => {
    expect(blocks[0]).toBe('npm ci && npm start\n');
    expect(section).toContain('PORT=8080 npm run sandbox');
    expect(blocks.some((b) => b.includes('PORT=4010 npm run mock'))).toBe(true);
  });

  it('logs in, reserves the balance with a buy order and gets it back by removing it', async () => {
    const flow = blocks.filter((b) => b.includes('$BASE') || b.includes('BASE='));
    expect(flow[0]).toMatch(/^BASE=http:\/\/127\.0\.0\.1:8080\n/);
    const out = await bash(flow.join('\n').replace('BASE=http://127.0.0.1:8080', `BASE=${sandbox.baseUrl}`));
    const balances = [...out.matchAll(/"balance":(\d+)/g)].map((m) => Number(m[1]));
    expect(balances).toHaveLength(3);
    const [before] = balances as [number];
    expect(balances).toEqual([before, before - 180, before]);
    expect(out).toContain('"content":{"details":"Inserted"}');
    expect(out).toMatch(/"itemid":3,"price":90,"amount":2/);
    expect(out).toContain('"content":{"details":"Removed"}');
    expect(out).toContain('itemId,name,game,');
  });

  it('lists the example names, picks one with Prefer and shows the 403 of the mock', async () => {
    const block = blocks.find((b) => b.startsWith('MOCK='))!;
    const out = await bash(block.replace('MOCK=http://127.0.0.1:4010', `MOCK=${mock.url}`));
    expect(out).toMatch(/300 {2}.*notEnoughBalance/);
    expect(out).toContain('{"err":true,"success":false,"content":"Not enough balance"}');
    expect(out).toContain('{"err":true,"success":false,"content":"forbidden"}');
  });
});
