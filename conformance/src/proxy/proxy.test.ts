// The validating proxy on live traffic: the typed client and the suite itself sent through it to
// the reference server (no violation, coverage from what passed), and a planted fault behind it
// (a business error carrying an undocumented message) caught and printed with its request; the
// `proxy` command writes its reports when stopped with SIGTERM.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMarketplaceClient, isMarketplaceError } from '../../../packages/client/src/index.ts';
import { startTestServer, type TestServer } from '../../../packages/server/src/routes/test-harness.fixture.ts';
import { CLI, runCli } from '../testing/cli-process.ts';
import { FAULTS, startFaultyProxy } from '../testing/faults.ts';
import { startValidatingProxy } from './proxy.ts';

const scratch = mkdtempSync(join(tmpdir(), 'conformance-proxy-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

/** A user with a balance of 100 cents and an item, as the client's own tests set them up. */
async function buyer() {
  const { apiKey } = await server.user({ balance: 100 });
  const item = await server.item({ name: 'Proxied Hat' });
  return { apiKey, item };
}

describe('the validating proxy', () => {
  it('Given the typed client through it to the reference server, then no violation and the traffic is covered', async () => {
    const log: string[] = [];
    const out = mkdtempSync(join(scratch, 'out-'));
    const proxy = await startValidatingProxy({ target: server.baseUrl, out, log: (l) => log.push(l) });
    const { apiKey, item } = await buyer();
    const market = createMarketplaceClient({ baseUrl: proxy.url, apiKey });
    const refused = await market
      .POST('/item/buyorder', { body: { itemid: item.id, value: 101, amount: 1 } })
      .catch((e: unknown) => e);
    expect(isMarketplaceError(refused, 'post', '/item/buyorder') && refused.message).toBe('Not enough balance');
    expect(await market.POST('/item/buyorder', { body: { itemid: item.id, value: 100, amount: 1 } })).toEqual({
      details: 'Inserted',
    });
    expect((await market.GET('/user/getBuyorder')).values.map((o) => o.price)).toEqual([100]);
    const { violations, result } = await proxy.close();
    expect(log).toEqual([]);
    expect(violations).toBe(0);
    expect(result.outcomes.map((o) => [o.operation, o.state])).toEqual([
      ['POST /user/login', 'passed'],
      ['POST /item/buyorder', 'passed'],
      ['GET /user/getBuyorder', 'passed'],
    ]);
    const coverage = readFileSync(join(out, 'coverage.md'), 'utf8');
    expect(coverage).toMatch(/\| `POST \/item\/buyorder` \| ✔ \| ✔ 200 ✔ 300 /);
    expect(coverage).toContain('- ✔ `Not enough balance`');
    expect(existsSync(join(out, 'results.json'))).toBe(true);
  });

  it('Given a planted undocumented 300 message behind it, then the violation is printed with its request', async () => {
    const log: string[] = [];
    const faulty = await startFaultyProxy(server.baseUrl, FAULTS['wrong-message']);
    const out = mkdtempSync(join(scratch, 'out-'));
    const proxy = await startValidatingProxy({
      target: faulty.url,
      out,
      reporters: ['junit'],
      log: (l) => log.push(l),
    });
    try {
      const { apiKey, item } = await buyer();
      const market = createMarketplaceClient({ baseUrl: proxy.url, apiKey });
      await market.POST('/item/buyorder', { body: { itemid: item.id, value: 101, amount: 1 } }).catch(() => undefined);
      await market.GET('/user/getBuyorder');
      // The check runs after the answer went back: wait for it.
      await expect.poll(() => log.length).toBe(1);
      expect(log[0]).toContain(
        '✗ POST /item/buyorder → 300: 300 message "Something went wrong" is not documented for POST /item/buyorder',
      );
      expect(log[0]).toMatch(
        /request: {2}curl -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/item\/buyorder' .*--data '\{"itemid":/,
      );
      const { violations, result } = await proxy.close();
      expect(violations).toBe(1);
      expect(result.failed.map((f) => f.operation)).toEqual(['POST /item/buyorder']);
      expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain(
        '<failure message="POST /item/buyorder: 300 message &quot;Something went wrong&quot; is not documented for POST /item/buyorder (1 of 1 exchanges)"',
      );
    } finally {
      await faulty.close();
    }
  });

  it('Given the conformance suite itself as the client, then the reference server shows no violation', {
    timeout: 180_000,
  }, async () => {
    const log: string[] = [];
    const proxy = await startValidatingProxy({
      target: server.baseUrl,
      out: mkdtempSync(join(scratch, 'out-')),
      log: (l) => log.push(l),
    });
    const run = await runCli(['--target', proxy.url, '--grep', '^POST /user/login|^negative data: POST /user'], {
      scratch,
    });
    const { violations } = await proxy.close();
    expect(run.code, run.stdout).toBe(0);
    expect(proxy.checked()).toBeGreaterThan(50);
    expect([violations, log]).toEqual([0, []]);
  });
});

describe('marketplace-conformance proxy', () => {
  it('prints where it listens and the violations as they happen, and writes its reports on SIGTERM', {
    timeout: 120_000,
  }, async () => {
    const faulty = await startFaultyProxy(server.baseUrl, FAULTS['wrong-message']);
    const out = mkdtempSync(join(scratch, 'cli-'));
    const child = spawn(process.execPath, [CLI, 'proxy', '--target', faulty.url, '--out', out, '--reporter', 'html'], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stdout += c));
    const exited = new Promise<number | null>((done) => child.on('close', done));
    try {
      await expect.poll(() => stdout, { timeout: 60_000 }).toMatch(/on http:\/\/127\.0\.0\.1:\d+/);
      const url = stdout.match(/on (http:\/\/127\.0\.0\.1:\d+)/)![1]!;
      const login = await fetch(`${url}/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(login.status).toBe(300);
      await expect.poll(() => stdout, { timeout: 30_000 }).toContain('✗ POST /user/login → 300');
      child.kill('SIGTERM');
      expect(await exited).toBe(1);
      expect(stdout).toContain(`Traffic to ${faulty.url}: 1 exchanges checked, 1 violations, in 1 of 1 operations`);
      expect(stdout).toMatch(/ {2}progress: 1 of \d+ operations implemented: 0 passing, 1 failing; 0 not implemented/);
      expect(stdout).toContain(`Reports in ${out}: results.json, coverage.md, coverage.html, report.html`);
      expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('POST /user/login');
    } finally {
      child.kill('SIGKILL');
      await faulty.close();
    }
  });
});
