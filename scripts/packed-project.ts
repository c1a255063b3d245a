// What the tests of the packed packages share (pack-install, server-stubs, readme-installed): a
// user's shell environment, free ports, bins started in their own
// process group and stopped with their children.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

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
