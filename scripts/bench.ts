// `npm run bench`: throughput and latency of the reference server, each figure beside a baseline
// measured in the same run on this machine (so the ratios mean something; absolute numbers do not
// travel). How to read it:
//   read    GET /item/listing/{item} with request validation, against a bare Express 5 app
//           answering the same JSON object with res.json: target ratio >= 0.6 (req/s of the
//           server / req/s of the baseline). Should the listing route not answer 200 (not
//           implemented), GET /item/details/{item} is measured instead and its row says so.
//   write   POST /item/buyorder/update (a reservation swap: two ledger entries, a journal line,
//           an fsync) on a file store holding 1k and then 100k assets: target mean latency at
//           100k <= 2x the latency at 1k. (POST /item/buyorder itself allows one order per user
//           and item, so it cannot be repeated for 5 s; the update runs the same reservation code.)
//   scale   the main routes at 1k, 100k and 1M assets and the store at that size (bench-scale.ts).
// Each target runs in its own process (scripts/bench-target.ts); autocannon runs here.
// Production semantics: NODE_ENV=production, not test mode (no response validation), logs silent.
// "met" compares the ratio with its target; with fewer than ~2 free cores the load generator and
// the target share a CPU and every figure drops, so compare ratios, not absolute numbers.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { scaleTable } from './bench-scale.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;

interface Started {
  url: string;
  item: number;
  tokens: string[];
  stop: () => Promise<void>;
}

/** Starts a target of scripts/bench-target.ts in its own process. */
function start(args: string[]): Promise<Started> {
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

interface Figures {
  rps: number;
  /** Mean latency in ms (a float: autocannon's percentiles are whole milliseconds). */
  mean: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(options: autocannon.Options): Promise<Figures> {
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
  return {
    rps: r.requests.average,
    mean: r.latency.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
  };
}

/** Requests that swap buy-order reservations, spread over many users (the general limit is per user). */
function writeRequests(url: string, item: number, tokens: string[]): autocannon.Options {
  let n = 0;
  return {
    url,
    requests: [
      {
        method: 'POST',
        path: '/item/buyorder/update',
        setupRequest: (req) => {
          n += 1;
          return {
            ...req,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[n % tokens.length]}` },
            body: JSON.stringify({ itemid: item, value: 40 + (n % 20), amount: 10 }),
          };
        },
      },
    ],
  };
}

const scratch = mkdtempSync(join(tmpdir(), 'bench-'));
const rows: string[][] = [];
const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));
try {
  // Read: the listing route against a bare Express app serving the same object.
  const ref = await start(['reference', join(scratch, 'read.json'), '20', '1']);
  // The listing route when it is implemented (answers 200), else the item details.
  let route = '';
  let body = '';
  for (const template of ['/item/listing/{item}', '/item/details/{item}']) {
    const res = await fetch(`${ref.url}${template.replace('{item}', String(ref.item))}`);
    if (res.status !== 200) continue;
    route = template;
    body = await res.text();
    break;
  }
  if (!route) throw new Error('neither GET /item/listing/{item} nor GET /item/details/{item} answers 200');
  const path = route.replace('{item}', String(ref.item));
  writeFileSync(join(scratch, 'read-body.json'), body);
  const bare = await start(['bare', join(scratch, 'read-body.json')]);
  const base = await measure({ url: `${bare.url}${path}` });
  const read = await measure({ url: `${ref.url}${path}` });
  await bare.stop();
  await ref.stop();
  const readRatio = read.rps / base.rps;
  rows.push([
    'Express res.json of the same body (baseline)',
    fmt(base.rps),
    fmt(base.mean),
    fmt(base.p50),
    fmt(base.p99),
    '1.00',
    '',
    '',
  ]);
  rows.push([
    `GET ${route} (${body.length} B, validated)`,
    fmt(read.rps),
    fmt(read.mean),
    fmt(read.p50),
    fmt(read.p99),
    readRatio.toFixed(2),
    '>= 0.6 of baseline',
    readRatio >= 0.6 ? 'met' : 'NOT MET',
  ]);

  // Write: the same state-changing route at 1k and at 100k stored assets.
  const write: Record<number, Figures> = {};
  for (const assets of [1_000, 100_000]) {
    const w = await start(['reference', join(scratch, `write-${assets}.json`), String(assets), '200']);
    write[assets] = await measure(writeRequests(w.url, w.item, w.tokens));
    await w.stop();
  }
  const small = write[1_000]!;
  const large = write[100_000]!;
  const writeRatio = large.mean / small.mean;
  rows.push([
    'POST /item/buyorder/update at 1k assets (baseline)',
    fmt(small.rps),
    fmt(small.mean),
    fmt(small.p50),
    fmt(small.p99),
    '1.00',
    '',
    '',
  ]);
  rows.push([
    'POST /item/buyorder/update at 100k assets',
    fmt(large.rps),
    fmt(large.mean),
    fmt(large.p50),
    fmt(large.p99),
    writeRatio.toFixed(2),
    '<= 2x mean latency at 1k',
    writeRatio <= 2 ? 'met' : 'NOT MET',
  ]);
  const errors = [base, read, small, large].reduce((n, f) => n + f.errors, 0);
  const header = ['measurement', 'req/s', 'mean ms', 'p50 ms', 'p99 ms', 'ratio', 'target', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(`\n${DURATION} s per measurement, ${CONNECTIONS} connections, Node ${process.version}\n`);
  console.log(line(header));
  for (const r of rows) console.log(line(r));
  if (errors) console.log(`\n${errors} requests failed or answered non-2xx: the figures are not comparable`);

  // Scale: the same routes at 1k, 100k and 1M assets (scripts/bench-scale.ts).
  const perRoute = Math.max(1, DURATION * 0.4);
  const scale = await scaleTable(scratch, perRoute);
  const scaleWidths = scale[0]!.map((_, i) => Math.max(...scale.map((r) => r[i]!.length)));
  console.log(`\nScale (test mode, file store, ${perRoute} s per route; latencies timed per request)\n`);
  for (const r of scale) console.log(r.map((c, i) => c.padEnd(scaleWidths[i]!)).join('  '));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
