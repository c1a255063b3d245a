// The CLI as a backend team meets it: bad options and targets that are not this API stop at once
// with one line and exit 2; output into a file or pipe carries no colour and no test-runner hints;
// skip reasons are true for the target at hand. Each run against the reference server gets a
// server of its own.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../packages/server/src/routes/test-harness.fixture.ts';
import { freePort, runCli } from '../testing/cli-process.ts';

const scratch = mkdtempSync(join(tmpdir(), 'conformance-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { scratch, env });

/** A server answering every request with one fixed answer (a static file server, another API). */
async function withStaticServer(status: number, type: string, body: string, use: (url: string) => Promise<void>) {
  const server: Server = createServer((_, res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((done) => server.close(done));
  }
}

/** The message lines a run printed on standard error (without the usage). */
const firstLine = (stderr: string) => stderr.split('\n')[0];

describe('option errors: one line, the usage, exit 2', () => {
  it.each([
    [['--levle', 'all', '--target', 'http://127.0.0.1:1'], 'unknown option --levle (did you mean --level?)'],
    [['--target'], '--target needs a value'],
    [['--target', 'http://127.0.0.1:1', 'extra'], 'unexpected argument extra'],
    [[], 'missing --target <url> (or BASE_URL)'],
    [['--target', 'http://127.0.0.1:1', '--level', 'most'], '--level must be contract, behavior or all, got most'],
    [
      ['--target', 'http://127.0.0.1:1', '--reporter', 'pdf'],
      'unknown --reporter pdf (one of junit, json, html, badge)',
    ],
    [['--target', 'http://127.0.0.1:1', '--port', '80'], '--port is an option of the proxy command'],
    [['proxy', '--target', 'http://127.0.0.1:1', '--port', 'eighty'], '--port must be a port number, got eighty'],
  ])('%j', { timeout: 60_000 }, async (args, message) => {
    const { code, stdout, stderr } = await cli(args, { BASE_URL: '' });
    expect(code).toBe(2);
    expect(firstLine(stderr)).toBe(`marketplace-conformance: ${message}`);
    expect(stderr).toContain('usage: marketplace-conformance --target <base-url> [options]');
    expect(stderr).not.toMatch(/^\s+at /m); // no stack trace
    expect(stdout).toBe('');
  });

  it('--help prints the usage and exits 0', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--reporter <name>       junit, json, html or badge');
  });
});

describe('the target check, before anything else: one line, exit 2', () => {
  it('Given a target without a scheme, then it says so and proposes http://', { timeout: 60_000 }, async () => {
    const { code, stderr, result } = await cli(['--target', '127.0.0.1:8080']);
    expect([code, stderr]).toEqual([
      2,
      'marketplace-conformance: --target 127.0.0.1:8080 has no scheme: did you mean http://127.0.0.1:8080?\n',
    ]);
    expect(result).toBeUndefined();
  });

  it('Given a target that does not answer, then it says so', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const { code, stderr } = await cli(['--target', `http://127.0.0.1:${port}`]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      new RegExp(`^marketplace-conformance: the target http://127.0.0.1:${port} does not answer: .*ECONNREFUSED.*\\n$`),
    );
  });

  it('Given a static file server, then it asks whether this is the Item Marketplace API', {
    timeout: 60_000,
  }, async () => {
    await withStaticServer(404, 'text/html', '<html><body><h1>404 Not Found</h1></body></html>', async (url) => {
      const { code, stderr, stdout } = await cli(['--target', url]);
      expect([code, stdout, stderr]).toEqual([
        2,
        '',
        `marketplace-conformance: the target ${url} answered text/html 404 to GET /item/listing/count/1: is this the Item Marketplace API?\n`,
      ]);
    });
  });

  it('Given another JSON API, then the answer outside both envelopes is named', { timeout: 60_000 }, async () => {
    await withStaticServer(200, 'application/json', '{"status":"ok"}', async (url) => {
      const { code, stderr } = await cli(['--target', url]);
      expect(code).toBe(2);
      expect(stderr).toMatch(
        /^marketplace-conformance: the target .* answered application\/json 200 to GET \/item\/listing\/count\/1 \(not in envelope A or B\): is this the Item Marketplace API\?\n$/,
      );
    });
  });
});

describe('output a team can keep', () => {
  it('Given output into a pipe, even with FORCE_COLOR, then no colour, no runner hints, only existing files named; the badge verifiable', {
    timeout: 180_000,
  }, async () => {
    const server = await startTestServer();
    try {
      const { code, stdout, stderr, out } = await cli(
        ['--target', server.baseUrl, '--grep', 'Given no apiKey, then 300', '--reporter', 'badge'],
        { FORCE_COLOR: '1', NO_COLOR: undefined },
      );
      expect(code, stdout + stderr).toBe(0);
      const all = stdout + stderr;
      expect(all).not.toContain('\u001b[');
      for (const hint of ['vitest', 'Vitest', 'isolate', 'JSON report written', 'Tip:', 'RUN ', 'Duration'])
        expect(all).not.toContain(hint);
      expect(stdout).toContain('✓ tests/auth.test.ts  1 passed, 0 failed');
      expect(stdout).toContain(
        `Reports in ${out}: results.json, coverage.md, coverage.html, badge.svg, summary.json\n`,
      );
      // The badge's summary is sealed: verify accepts it as written and refuses it edited.
      const file = join(out, 'summary.json');
      const verified = await cli(['verify', file]);
      expect([verified.code, verified.stdout]).toEqual([
        0,
        `${file}: seal sha256 matches (passed, 1 passed, 0 failed)\n`,
      ]);
      writeFileSync(file, readFileSync(file, 'utf8').replace('"failed": 0', '"failed": 1'));
      const edited = await cli(['verify', file]);
      expect([edited.code, edited.stdout]).toEqual([1, `${file}: the seal does not match its content\n`]);
    } finally {
      await server.close();
    }
  });

  it('Given a target with test helpers and --read-only, then no skip blames missing test helpers', {
    timeout: 180_000,
  }, async () => {
    const server = await startTestServer();
    try {
      const { code, result } = await cli(['--target', server.baseUrl, '--read-only', '--level', 'contract']);
      expect(code).toBe(0);
      const reasons = new Set(result!.skipped.map((s) => s.reason));
      expect([...reasons].filter((r) => /test helpers/.test(r ?? '') && !/read-only/.test(r ?? ''))).toEqual([]);
      expect(reasons).toContain(
        '--read-only: no credentials for a Connected route (give --api-key; a read-only run creates no accounts)',
      );
      expect(reasons).toContain('--read-only: this test changes state');
    } finally {
      await server.close();
    }
  });

  it('Given --previous, the summary.json of an earlier run, then the console, results.json and report.html say what changed', {
    timeout: 240_000,
  }, async () => {
    const server = await startTestServer();
    try {
      const login = 'Given no apiKey, then 300';
      const account = 'Given an account with a balance and an e-mail, the three routes show them';
      const first = await cli([
        '--target',
        server.baseUrl,
        '--grep',
        login,
        '--operations',
        'POST /user/login',
        '--reporter',
        'badge',
      ]);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      const previous = join(first.out, 'summary.json');
      const second = await cli([
        '--target',
        server.baseUrl,
        '--grep',
        `${login}|${account}`,
        '--previous',
        previous,
        '--reporter',
        'html',
      ]);
      expect(second.code, second.stdout + second.stderr).toBe(0);
      expect(second.stdout).toMatch(
        new RegExp(
          `Since the previous run \\(${previous.replaceAll('.', '\\.')} of \\d{4}-[^)]+\\): passed 2 \\(\\+1\\)`,
        ),
      );
      expect(second.result?.changes?.newlyImplemented.map((o) => o.operation)).toContain('GET /user/balance');
      expect(second.result?.changes?.newlyFailing).toEqual([]);
      const html = readFileSync(join(second.out, 'report.html'), 'utf8');
      expect(html).toContain('<li data-op="GET /user/balance">');
      const bad = await cli(['--target', server.baseUrl, '--previous', join(first.out, 'coverage.md')]);
      expect([bad.code, bad.stdout]).toEqual([2, '']);
      expect(bad.stderr).toMatch(/^marketplace-conformance: cannot read the previous run .*coverage\.md: .*\n$/);
    } finally {
      await server.close();
    }
  });

  it('Given --grep matching no test, then it says so and exits 2', { timeout: 120_000 }, async () => {
    const server = await startTestServer();
    try {
      const { code, stderr } = await cli(['--target', server.baseUrl, '--grep', 'no test is called like this']);
      expect([code, stderr]).toEqual([
        2,
        'marketplace-conformance: no test name matches --grep no test is called like this\n',
      ]);
    } finally {
      await server.close();
    }
  });
});
