// A throwaway PostgreSQL cluster (issue 14): a fresh temp directory, a free loopback port, trust
// authentication, a `marketplace` database, gone again on stop(). The tests of the PostgreSQL store
// and the bench start one each; `node scripts/postgres.ts` starts one for a person and prints its URL.
//
// PostgreSQL refuses to run as root, so when we are root (CI, this machine) the directory belongs to
// the `postgres` user and every binary runs through `runuser -u postgres --`.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { accessSync, chownSync, constants, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

const BINARIES = ['initdb', 'pg_ctl', 'postgres'] as const;
const DEBIAN_ROOT = '/usr/lib/postgresql';
const asRoot = process.getuid?.() === 0;
/** The superuser every cluster is created with, whoever starts it: the URLs don't depend on $USER. */
const SUPERUSER = 'postgres';

export interface PostgresOptions {
  /** Flush to disk on commit as a production server does (default false: tests need speed, not crash safety of the cluster). */
  fsync?: boolean;
  /** PostgreSQL's `max_connections` (default 200; PostgreSQL's own default is 100). */
  maxConnections?: number;
}

export interface Postgres {
  /** `postgres://postgres@127.0.0.1:<port>/marketplace` */
  url: string;
  port: number;
  /** The temp directory holding the data directory, the socket and the log. */
  dir: string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /**
   * Restarts the cluster on its port as an operator does (`pg_ctl restart -m fast`: every session
   * is ended, transactions in progress roll back); resolves once it accepts connections again.
   */
  restart(): Promise<void>;
  /** Stops the cluster (immediately: nothing in it is worth keeping) and removes its directory. */
  stop(): Promise<void>;
}

/**
 * Where the binaries are: PATH, else Debian's versioned directory (`apt-get install postgresql`
 * puts initdb and pg_ctl in /usr/lib/postgresql/<major>/bin, not on PATH), newest major first.
 */
function binDirs(): string[] {
  const debian = (() => {
    try {
      return readdirSync(DEBIAN_ROOT)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => join(DEBIAN_ROOT, v, 'bin'));
    } catch {
      return [];
    }
  })();
  return [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...debian];
}
const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The first directory holding all of initdb, pg_ctl and postgres (never a mix of two installs). */
function binDir(): string | undefined {
  return binDirs().find((dir) => BINARIES.every((b) => executable(join(dir, b))));
}

function onPath(name: (typeof BINARIES)[number]): string | undefined {
  const dir = binDir();
  return dir && join(dir, name);
}

/** Why no cluster can be started here (PostgreSQL binaries not found), or undefined when one can. */
export function postgresMissing(): string | undefined {
  if (binDir()) return undefined;
  const missing = BINARIES.filter((b) => !binDirs().some((dir) => executable(join(dir, b))));
  return `PostgreSQL binaries not found (${missing.join(', ') || 'no directory holds all of initdb, pg_ctl and postgres'}) on PATH or in ${DEBIAN_ROOT}/*/bin: install PostgreSQL 15 (apt-get install postgresql)`;
}

/** argv for running `binary` as the cluster's owner: ourselves, or `postgres` when we are root. */
function asOwner(binary: (typeof BINARIES)[number], args: string[]): [string, string[]] {
  const path = onPath(binary);
  if (!path) throw new Error(postgresMissing());
  return asRoot ? ['runuser', ['-u', SUPERUSER, '--', path, ...args]] : [path, args];
}

async function owner(binary: (typeof BINARIES)[number], args: string[], cwd: string): Promise<string> {
  const [file, argv] = asOwner(binary, args);
  try {
    const { stdout } = await run(file, argv, { cwd, env: { ...process.env, LC_ALL: 'C' } });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`${binary} failed: ${e.stderr?.trim() || e.message}`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

// Clusters of this process still running: stopped on a normal exit. A crash (kill -9 of the test
// run) is covered by each cluster's watchdog below.
const running = new Map<string, () => void>();
let exitHookInstalled = false;
function stopOnExit(dir: string, stopSync: () => void): void {
  running.set(dir, stopSync);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const stop of running.values()) stop();
  });
}

/**
 * A detached shell that outlives us: once this process is gone however it died, it stops the
 * cluster and removes its directory, so a killed test run leaves no postmaster behind.
 */
function watchdog(pgCtl: string, data: string, dir: string): () => void {
  const stop = asRoot ? `runuser -u ${SUPERUSER} -- '${pgCtl}'` : `'${pgCtl}'`;
  const script = `while kill -0 ${process.pid} 2>/dev/null && [ -d '${dir}' ]; do sleep 1; done; ${stop} stop -D '${data}' -m immediate >/dev/null 2>&1; rm -rf '${dir}'`;
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore', cwd: '/' });
  child.unref();
  return () => {
    try {
      if (child.pid) process.kill(child.pid);
    } catch {}
  };
}

function isPortTaken(log: string): boolean {
  return /could not bind|Address already in use|could not create any TCP\/IP sockets/i.test(log);
}

/** Starts a throwaway PostgreSQL cluster with a `marketplace` database on a free loopback port. */
export async function startPostgres({ fsync = false, maxConnections = 200 }: PostgresOptions = {}): Promise<Postgres> {
  const reason = postgresMissing();
  if (reason) throw new Error(reason);
  // The socket path must stay under ~107 bytes, so the directory stays short (tmpdir, not the repo).
  const dir = mkdtempSync(join(tmpdir(), 'marketplace-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  const pgCtl = onPath('pg_ctl')!;
  const stopWatchdog = watchdog(pgCtl, data, dir);
  let started = false;
  const stopSync = () => {
    if (started) {
      const [file, argv] = asOwner('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
      spawnSync(file, argv, { cwd: dir, stdio: 'ignore' });
    }
    rmSync(dir, { recursive: true, force: true });
    stopWatchdog();
  };
  stopOnExit(dir, stopSync);
  try {
    if (asRoot) {
      const { uid, gid } = userIds(SUPERUSER);
      chownSync(dir, uid, gid);
    }
    await owner(
      'initdb',
      ['-D', data, '-U', SUPERUSER, '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'],
      dir,
    );
    const settings = [
      ['listen_addresses', '127.0.0.1'],
      ['unix_socket_directories', dir],
      ['fsync', fsync ? 'on' : 'off'],
      ['full_page_writes', fsync ? 'on' : 'off'],
      ['max_connections', String(maxConnections)],
    ];
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const options = [`-p ${port}`, ...settings.map(([k, v]) => `-c ${k}=${v}`)].join(' ');
      try {
        started = true;
        await owner('pg_ctl', ['start', '-D', data, '-l', log, '-w', '-t', '120', '-o', options], dir);
      } catch (error) {
        started = false;
        let text = '';
        try {
          text = readFileSync(log, 'utf8');
        } catch {}
        // Another process took the port between our probe and the postmaster's bind: try another.
        if (attempt < 5 && isPortTaken(text)) continue;
        throw new Error(`${(error as Error).message}\n${text}`);
      }
      const base = `postgres://${SUPERUSER}@127.0.0.1:${port}`;
      const createDatabase = async (name: string): Promise<string> => {
        if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain database name: ${name}`);
        const client = new pg.Client({ connectionString: `${base}/postgres` });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE ${name}`);
        } finally {
          await client.end();
        }
        return `${base}/${name}`;
      };
      const url = await createDatabase('marketplace');
      let stopping: Promise<void> | undefined;
      const stop = () => {
        stopping ??= (async () => {
          running.delete(dir);
          await owner('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w'], dir).catch(() => {});
          rmSync(dir, { recursive: true, force: true });
          stopWatchdog();
        })();
        return stopping;
      };
      const restart = async () => {
        await owner('pg_ctl', ['restart', '-D', data, '-l', log, '-m', 'fast', '-w', '-t', '120', '-o', options], dir);
      };
      return { url, port, dir, createDatabase, restart, stop };
    }
  } catch (error) {
    running.delete(dir);
    stopSync();
    throw error;
  }
}

function userIds(name: string): { uid: number; gid: number } {
  const out = (flag: string) => spawnSync('id', [flag, name], { encoding: 'utf8' });
  const uid = out('-u');
  const gid = out('-g');
  if (uid.status !== 0 || gid.status !== 0)
    throw new Error(`running as root, but there is no \`${name}\` user to run PostgreSQL as: ${uid.stderr.trim()}`);
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

if (import.meta.main) {
  const cluster = await startPostgres({ fsync: process.argv.includes('--fsync') });
  console.log(cluster.url);
  // Nothing else keeps the event loop alive: the cluster runs until a signal.
  const alive = setInterval(() => {}, 1 << 30);
  const stop = () => {
    clearInterval(alive);
    cluster.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
