// What every table of `npm run bench` measures with: a target started in its own process
// (bench-target.ts, so the load generator does not share its event loop), autocannon's figures of
// one load, and the table they are printed in.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';

export const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
export const CONNECTIONS = 10;

export interface Started {
  url: string;
  item: number;
  tokens: string[];
  /** The `sandboxes` target's worlds: each one's base path, item and buyers' tokens. */
  sandboxes?: { path: string; item: number; tokens: string[] }[];
  stop: () => Promise<void>;
}

/** Starts a target of scripts/bench-target.ts in its own process. */
export function start(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'bench-target.ts'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return new Promise((done, failed) => {
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      if (!buffer.includes('\n')) return;
      const info = JSON.parse(buffer.split('\n')[0]!);
      done({
        ...info,
        stop: () =>
          new Promise<void>((r) => {
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => failed(new Error(`bench target exited with ${code}`)));
  });
}

export interface Figures {
  rps: number;
  /** Mean latency in ms (a float: autocannon's percentiles are whole milliseconds). */
  mean: number;
  p50: number;
  p99: number;
  errors: number;
}

/** One load of DURATION seconds over CONNECTIONS connections unless `options` says otherwise. */
export async function measure(options: autocannon.Options): Promise<Figures> {
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
  return {
    rps: r.requests.average,
    mean: r.latency.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
  };
}

export const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));
export const figures = (f: Figures) => [fmt(f.rps), fmt(f.mean), fmt(f.p50), fmt(f.p99)];

/** Prints rows under a header, each column as wide as its widest cell. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  for (const r of rows) console.log(line(r));
}
