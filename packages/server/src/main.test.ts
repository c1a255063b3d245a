// The server as an operator starts it (src/main.ts in a child process): a plain start creates no
// account at all and listens on loopback, MARKETPLACE_DEMO=1 seeds the demo with admin keys that
// are random and printed once, and the printed URL is the one that answers (port 0 resolved).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const MAIN = resolve(import.meta.dirname, 'main.ts');
const scratch = mkdtempSync(join(tmpdir(), 'main-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
});

/** Starts main.ts with `env`; resolves with everything it printed once the banner is out. */
function start(env: Record<string, string>): Promise<{ output: string; url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  return new Promise((done, fail) => {
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk;
      // The banner ends with the lines to try.
      const url = output.match(/reference server: (\S+)/)?.[1];
      if (url && /Try:\n.*\n/.test(output)) done({ output, url, child });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => fail(new Error(`main.ts exited with ${code}:\n${output}`)));
  });
}

const login = (url: string, apiKey: string) =>
  fetch(`${url}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey }),
  });

describe('npm start without MARKETPLACE_DEMO', () => {
  it('creates no demo account, listens on 127.0.0.1 and prints the URL that answers', async () => {
    const { url, output } = await start({ MARKETPLACE_DB: join(scratch, 'plain.json') });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toMatch(/:0$/);
    expect(output).toContain('No demo data');
    const document = await fetch(`${url}/openapi.json`);
    expect(document.status).toBe(200);
    for (const key of ['demo-alice-api-key', 'demo-admin-api-key', 'demo-heidi-api-key'])
      expect((await login(url, key)).status, key).toBe(403);
    const listings = await (await fetch(`${url}/item/listing/1`)).json();
    expect(listings).toMatchObject({ success: true, content: [] });
  }, 60_000);

  it('listens where HOST says', async () => {
    const { url } = await start({ MARKETPLACE_DB: ':memory:', HOST: '::1' });
    expect(url).toMatch(/^http:\/\/\[::1\]:\d+$/);
    expect((await fetch(`${url}/openapi.json`)).status).toBe(200);
  }, 60_000);
});

describe('MARKETPLACE_DEMO=1', () => {
  it('seeds the demo once, with admin keys that are random and printed only when created', async () => {
    const db = join(scratch, 'demo.json');
    const first = await start({ MARKETPLACE_DB: db, MARKETPLACE_DEMO: '1' });
    const keys = [...first.output.matchAll(/^ {4}(Admin|Heidi): (\S+)$/gm)].map((m) => m[2]!);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect((await login(first.url, 'demo-alice-api-key')).status).toBe(200);
    expect((await login(first.url, 'demo-admin-api-key')).status).toBe(403);
    const admin = await login(first.url, keys[0]!);
    const jwt = ((await admin.json()) as { content: { jwt: string } }).content.jwt;
    const staff = await fetch(`${first.url}/admin/support/list`, { headers: { authorization: `Bearer ${jwt}` } });
    expect(staff.status).toBe(200);
    first.child.kill('SIGTERM');
    await new Promise((done) => first.child.once('exit', done));

    const again = await start({ MARKETPLACE_DB: db, MARKETPLACE_DEMO: '1' });
    expect(again.output).not.toContain(keys[0]!);
    expect(again.output).toContain('already in the store');
    expect((await login(again.url, keys[1]!)).status).toBe(200);
  }, 90_000);
});
