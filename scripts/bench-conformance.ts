// The conformance table of `npm run bench` (alone: `npm run bench:conformance`): one full run of
// the suite (the CLI, as a team runs it) against a fresh reference server in test mode on an
// in-memory store, started as `npm start` starts it. Target: under 20 s of wall time on 2 cores
// (issue 32). Beside the wall time, the CPU seconds of the suite (the CLI and its vitest worker)
// and of the server during the run: on a machine others share, the wall time grows with the load
// and the CPU seconds barely move, so they are the figure to compare between runs. Linux only for
// the CPU figures (read from /proc); elsewhere they print as n/a.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../conformance/src/testing/cli-process.ts';
import { printTable } from './bench-run.ts';

const ROOT = join(import.meta.dirname, '..');
const TARGET_SECONDS = 20;
/** What the server and the suite are started with: the repository's sources (.npmrc's condition). */
const CONDITION = '--conditions=marketplace-source';

/** CPU seconds (user + system) of a process, or of the children it has waited for (`children`). */
function cpuSeconds(pid: number | 'self', children = false): number | undefined {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return undefined;
  // Fields after the command name (which may hold spaces): utime is the 14th field of the line.
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  const [user, system] = children ? [fields[13], fields[14]] : [fields[11], fields[12]];
  return (Number(user) + Number(system)) / 100; // clock ticks: 100 per second on Linux
}

/** The reference server in test mode on an in-memory store, once it answers. */
async function startReference(): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [CONDITION, join(ROOT, 'packages/server/src/main.ts')], {
    cwd: join(ROOT, 'packages/server'),
    env: {
      ...process.env,
      PORT: String(port),
      MARKETPLACE_TEST_MODE: '1',
      MARKETPLACE_DB: ':memory:',
      MARKETPLACE_BLOCKED_COUNTRIES: 'KP',
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error(`the reference server exited with ${child.exitCode}`);
    const up = await fetch(`${url}/test_helpers/clock`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, pid: child.pid!, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error('the reference server did not answer within 120 s');
}

/** Runs the CLI against `url` to its end: its exit code and the summary line of its output. */
function runSuite(url: string, out: string): Promise<{ code: number; summary: string }> {
  const cli = join(ROOT, 'conformance/src/cli/cli.ts');
  const args = [CONDITION, cli, '--target', url, '--blocked-country', 'KP', '--out', out];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.on('error', fail);
    child.on('close', (code) =>
      done({ code: code ?? 1, summary: stdout.match(/passed \d+, failed \d+, skipped \d+/)?.[0] ?? 'no summary' }),
    );
  });
}

const seconds = (s: number | undefined) => (s === undefined ? 'n/a' : s.toFixed(1));

/** Measures one full run and prints its table; returns its wall time in seconds. */
export async function conformanceTable(): Promise<number> {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-conformance-'));
  const server = await startReference();
  try {
    const load = loadavg()[0]!;
    const [client0, server0] = [cpuSeconds('self', true), cpuSeconds(server.pid)];
    const started = performance.now();
    const run = await runSuite(server.url, join(scratch, 'reports'));
    const wall = (performance.now() - started) / 1000;
    const [client1, server1] = [cpuSeconds('self', true), cpuSeconds(server.pid)];
    const client = client0 === undefined || client1 === undefined ? undefined : client1 - client0;
    const serverCpu = server0 === undefined || server1 === undefined ? undefined : server1 - server0;
    const total = client === undefined || serverCpu === undefined ? undefined : client + serverCpu;
    console.log(
      `\nConformance (the CLI against a fresh reference server, test mode, in memory; load average ${load.toFixed(1)} at the start)\n`,
    );
    printTable(
      ['measurement', 'wall s', 'suite CPU s', 'server CPU s', 'CPU s', 'target', ''],
      [
        [
          `full run: ${run.summary}`,
          wall.toFixed(1),
          seconds(client),
          seconds(serverCpu),
          seconds(total),
          `< ${TARGET_SECONDS} s wall on 2 cores`,
          wall < TARGET_SECONDS ? 'met' : 'NOT MET',
        ],
      ],
    );
    if (run.code !== 0) console.log(`\nthe run exited with ${run.code}: it failed, the figures are not comparable`);
    return wall;
  } finally {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await conformanceTable();
