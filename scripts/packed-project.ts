// What the tests of the packed packages share (pack-install, server-stubs, readme-installed): a
// user's shell environment, free ports, bins started in their own
// process group and stopped with their children, and one install of every packed workspace.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { packWorkspaces } from './pack.ts';

export const run = promisify(execFile);
export const repo = resolve(import.meta.dirname, '..');
export const MINUTE = 60_000;

/**
 * The environment of a user's shell: Node 24 first on the PATH (the bins' `#!/usr/bin/env node`),
 * and nothing this repository's npm run put there (its NODE_OPTIONS asks for the sources, npm_*
 * describe this workspace).
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(npm_|NODE_OPTIONS$|INIT_CWD$|VITEST|TEST$)/i.test(key)) env[key] = value;
  const path = (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.startsWith(repo));
  return { ...env, PATH: [dirname(process.execPath), ...path].join(delimiter), NO_COLOR: '1', ...extra };
}

/** A new project in `app` (its own package.json, no workspace around it) with the tarballs installed. */
export async function installProject(app: string, tarballs: string[]): Promise<void> {
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'a-team-project',
      private: true,
      type: 'module',
      // Prism pulls in a telemetry postinstall; a team would say no to it the same way.
      allowScripts: { '@scarf/scarf': false },
      scarfSettings: { enabled: false },
    }),
  );
  await run('npm', ['install', '--no-audit', '--no-fund', ...tarballs], {
    cwd: app,
    env: userEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** A process started by `startIn`: its output so far. */
export interface Started {
  child: ChildProcess;
  output: () => string;
}

/** Starts `command` in `cwd` in its own process group (so its children stop with it), recorded in `started`. */
export function startIn(
  started: ChildProcess[],
  cwd: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Started {
  const child = spawn(command, args, { cwd, env: userEnv(env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

/** Resolves once `url` answers (any status); fails with the process's output when it exits or never answers. */
export async function answering(url: string, bin: Started, seconds = 120): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (bin.child.exitCode !== null) throw new Error(`exited ${bin.child.exitCode}:\n${bin.output()}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`${url} did not answer within ${seconds} s:\n${bin.output()}`);
}

/** Stops a started process and its group: SIGTERM, SIGKILL ten seconds later. */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return done();
    child.once('exit', () => done());
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return done();
    }
    setTimeout(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {}
    }, 10_000).unref();
  });
}

/**
 * What the packages are built from: the commit, the changes to it and the files git does not know
 * yet, hashed. Outside a git checkout, a key of its own (nothing is shared).
 */
function treeState(): string {
  const hash = createHash('sha256');
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, maxBuffer: 256 * 1024 * 1024 });
    hash.update(git('rev-parse', 'HEAD')).update(git('diff', 'HEAD', '--binary'));
    for (const file of git('ls-files', '--others', '--exclude-standard', '-z').toString().split('\0').filter(Boolean))
      hash.update(file).update(existsSync(join(repo, file)) ? readFileSync(join(repo, file)) : '');
  } catch {
    hash.update(`${process.pid}:${Date.now()}:${Math.random()}`);
  }
  return hash.digest('hex').slice(0, 20);
}

const SHARED = 'marketplace-installed-';
/** A shared install unused this long is another tree's leftover (a run of the tests takes under an hour). */
const STALE_MS = 6 * 60 * MINUTE;

/** Whether the process `pid` (the one installing) still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A project with every workspace packed (`npm pack`, which builds them) and installed, made once
 * per state of the tree and shared by the test files of a run (and of the next run of the same
 * tree): packing and installing is most of what these files cost, and two packs at once would build
 * the same dist/ folders under each other. The first file to ask packs and installs in a folder of
 * the system's temp directory named by `treeState()`; the others wait for it (or take over if its
 * process died). Each caller gets its own copy in `into` (hard links: a copy of node_modules in
 * seconds), so what a test writes into its project stays its own.
 */
export async function installedProject(into: string): Promise<string> {
  const shared = join(tmpdir(), `${SHARED}${treeState()}`);
  const ready = join(shared, 'ready');
  for (;;) {
    if (existsSync(ready)) break;
    try {
      mkdirSync(shared);
    } catch {
      // Another process installs: wait, unless it died.
      const owner = Number(existsSync(join(shared, 'owner')) ? readFileSync(join(shared, 'owner'), 'utf8') : 0);
      if (owner && !alive(owner)) rmSync(shared, { recursive: true, force: true });
      else await sleep(1000);
      continue;
    }
    writeFileSync(join(shared, 'owner'), String(process.pid));
    try {
      for (const entry of readdirSync(tmpdir()).filter((e) => e.startsWith(SHARED)))
        if (Date.now() - statSync(join(tmpdir(), entry)).mtimeMs > STALE_MS)
          rmSync(join(tmpdir(), entry), { recursive: true, force: true });
      const app = join(shared, 'app');
      mkdirSync(app);
      await installProject(app, await packWorkspaces(join(shared, 'tarballs')));
      writeFileSync(ready, '');
    } catch (error) {
      rmSync(shared, { recursive: true, force: true });
      throw error;
    }
  }
  const now = new Date();
  utimesSync(shared, now, now);
  const app = join(into, 'app');
  await run('cp', ['-al', join(shared, 'app'), app]);
  return app;
}
