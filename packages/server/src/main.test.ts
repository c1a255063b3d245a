// The server as an operator starts it (src/main.ts in a child process): a plain start creates no
// account at all and listens on loopback, MARKETPLACE_DEMO=1 seeds the demo with admin keys that
// are random and printed once, and the printed URL is the one that answers (port 0 resolved).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
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

describe('a bad environment', () => {
  it('refuses the start with one line per bad variable, exit code 1 and no stack trace', async () => {
    const env = {
      PATH: process.env.PATH,
      PORT: '80a',
      MARKETPLACE_DB: 'postgres://admin:hunter2@db',
      MARKETPLACE_TEST_MODE: 'yes',
      MARKETPLACE_JWT_SECRET: 'hunter2',
    };
    const failed = await promisify(execFile)(process.execPath, [MAIN], { env, timeout: 30_000 }).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr.trim().split('\n')).toEqual([
      'PORT: "80a" is not a port number (0-65535)',
      'MARKETPLACE_DB: "postgres://admin:***@db" is not a PostgreSQL URL with a host and a database name (postgres://user:password@host:5432/database)',
      'MARKETPLACE_JWT_SECRET: (7 bytes, not shown) is too short: a secret needs at least 32 bytes (for example `openssl rand -hex 32`)',
      'MARKETPLACE_TEST_MODE: "yes" must be 0 or 1',
    ]);
  }, 60_000);
});

describe('a refused start touches nothing', () => {
  /** Runs main.ts to its exit; resolves with the exit code and what it printed. */
  const run = (env: Record<string, string>) =>
    promisify(execFile)(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', PORT: '0', ...env },
      timeout: 30_000,
    }).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  it('an empty <db>.jwt-secret: one line, exit code 1, and no store, journal or other secret written', async () => {
    const dir = join(scratch, 'empty-secret');
    mkdirSync(dir);
    writeFileSync(join(dir, 'db.json.jwt-secret'), '\n');
    const failed = await run({ MARKETPLACE_DB: join(dir, 'db.json') });
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim()).toMatch(
      /^Refusing to start: \S+db\.json\.jwt-secret is empty; a secret needs at least 32/,
    );
    expect(readdirSync(dir)).toEqual(['db.json.jwt-secret']);
  }, 60_000);

  it('a short <db>.deposit-secret beside a good JWT secret: nothing written either', async () => {
    const dir = join(scratch, 'short-secret');
    mkdirSync(dir);
    writeFileSync(join(dir, 'db.json.jwt-secret'), `${'j'.repeat(64)}\n`);
    writeFileSync(join(dir, 'db.json.deposit-secret'), 'short\n');
    const failed = await run({ MARKETPLACE_DB: join(dir, 'db.json') });
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim()).toMatch(/deposit-secret holds 5 bytes/);
    expect(readdirSync(dir).sort()).toEqual(['db.json.deposit-secret', 'db.json.jwt-secret']);
  }, 60_000);

  it('a port in use: one line, exit code 1, and no directory created for the store', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    try {
      const port = (taken.address() as AddressInfo).port;
      const dir = join(scratch, 'port-in-use');
      const failed = await run({ MARKETPLACE_DB: join(dir, 'db.json'), PORT: String(port) });
      expect(failed.code).toBe(1);
      expect(failed.stderr.trim()).toBe(`Refusing to start: 127.0.0.1 port ${port} is in use (HOST, PORT).`);
      expect(existsSync(dir)).toBe(false);
    } finally {
      await new Promise((done) => taken.close(done));
    }
  }, 60_000);
});
