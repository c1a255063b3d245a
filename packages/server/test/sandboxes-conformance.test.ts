// Issue 25's proof that sandboxes are isolated worlds: the whole conformance suite runs twice at
// once, each run on its own sandbox of one server (`--target <server>/sandboxes/<id>`), and both
// are green. Each run resets, moves the clock and hits rate limits in its world all along: any of
// it reaching the other world would fail the other run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@marketplace/server';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../conformance/src/testing/cli-process.ts';
import { parseConfig } from '../src/config.ts';

describe('two conformance runs at once on two sandboxes of one server', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'sandboxes-conformance-'));
  let close: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await close?.();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('Given two sandboxes, when the suite runs on each at the same time, then both runs are green', async () => {
    const config = parseConfig({
      MARKETPLACE_DB: ':memory:',
      MARKETPLACE_TEST_MODE: '1',
      PORT: '0',
      LOG_LEVEL: 'silent',
    });
    const server = await startServer({ config, logger: pino({ level: 'silent' }) });
    server.server.keepAliveTimeout = 65_000;
    close = server.close;
    const sandbox = async () => {
      const res = await fetch(`${server.url}/sandboxes`, { method: 'POST' });
      return ((await res.json()) as { content: { url: string } }).content.url;
    };
    const targets = [await sandbox(), await sandbox()];
    const runs = await Promise.all(targets.map((target) => runCli(['--target', target], { scratch })));
    for (const [n, run] of runs.entries()) {
      expect(run.result?.target, run.stderr).toBe(targets[n]);
      expect(
        run.result?.failed.map((f) => f.name),
        run.stdout.slice(-3000),
      ).toEqual([]);
      expect(run.result?.passed).toBeGreaterThan(500);
      expect(run.code).toBe(0);
    }
  }, 400_000);
});
