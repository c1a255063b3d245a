// The throwaway cluster the PostgreSQL tests stand on: it answers queries on its loopback port,
// creates a database per test, and leaves neither a directory nor a listening port once stopped.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresMissing, startPostgres } from './postgres.ts';

const missing = postgresMissing();

const query = async (url: string, sql: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
};

/** Whether something accepts TCP connections on 127.0.0.1:port. */
const listening = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });

describe.skipIf(missing)(`startPostgres${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('serves a marketplace database on loopback, creates more, and leaves nothing behind on stop', async () => {
    const cluster = await startPostgres();
    try {
      expect(cluster.url).toBe(`postgres://postgres@127.0.0.1:${cluster.port}/marketplace`);
      const [row] = await query(cluster.url, 'SELECT current_database() AS db, version() AS version');
      expect(row).toMatchObject({ db: 'marketplace', version: expect.stringMatching(/^PostgreSQL \d+/) });
      const [fsync] = await query(cluster.url, 'SHOW fsync');
      expect(fsync).toEqual({ fsync: 'off' });

      const second = await cluster.createDatabase('second_db');
      expect(second).toBe(`postgres://postgres@127.0.0.1:${cluster.port}/second_db`);
      await query(second, 'CREATE TABLE t (n int); INSERT INTO t VALUES (7)');
      expect(await query(second, 'SELECT n FROM t')).toEqual([{ n: 7 }]);
      // Separate databases: the table is not in the first one.
      await expect(query(cluster.url, 'SELECT n FROM t')).rejects.toThrow(/does not exist/);
      await expect(cluster.createDatabase('bad name; DROP')).rejects.toThrow(/not a plain database name/);
    } finally {
      await cluster.stop();
    }
    expect(existsSync(cluster.dir)).toBe(false);
    expect(await listening(cluster.port)).toBe(false);
    await cluster.stop(); // a second stop is harmless
  }, 120_000);

  it('runs two clusters side by side on different ports, with fsync when asked', async () => {
    const [a, b] = await Promise.all([startPostgres(), startPostgres({ fsync: true })]);
    try {
      expect(a.port).not.toBe(b.port);
      expect(await query(b.url, 'SHOW fsync')).toEqual([{ fsync: 'on' }]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 120_000);

  it('`node scripts/postgres.ts` prints a URL that answers and stops the cluster on SIGTERM', async () => {
    const child = spawn(process.execPath, [resolve(import.meta.dirname, 'postgres.ts')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const url = await new Promise<string>((done, fail) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('\n')) done(out.trim());
      });
      child.once('exit', (code) => fail(new Error(`exited with ${code}: ${stderr}`)));
    });
    expect(url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/marketplace$/);
    expect(await query(url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await listening(Number(new URL(url).port))).toBe(false);
  }, 120_000);
});
