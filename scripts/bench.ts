// `npm run bench`: throughput and latency of the reference server, each figure beside a baseline
// measured in the same run on this machine (so the ratios mean something; absolute numbers do not
// travel). How to read it:
//   read    GET /item/listing/{item} with request validation, against a bare Express 5 app
//           answering the same JSON object with res.json: target ratio >= 0.8 (req/s of the
//           server / req/s of the baseline). Should the listing route not answer 200 (not
//           implemented), GET /item/details/{item} is measured instead and its row says so.
//   write   POST /item/buyorder/update (a reservation swap: two ledger entries, a journal line,
//           an fsync) on a file store holding 1k and then 100k assets: target mean latency at
//           100k <= 2x the latency at 1k. (POST /item/buyorder itself allows one order per user
//           and item, so it cannot be repeated for 5 s; the update runs the same reservation code.)
//   postgres the read and the write (at 1k assets) on PostgreSQL (ADR 0019, fsync on as the file
//           store's journal): one instance, then two instances on one database with the load split
//           between them; ratio = req/s / the file store's req/s of this run. No target: writes
//           of all instances to one world are serialized by one sequence, so two instances are not
//           expected to write faster there; reads may scale with free cores. Then the same write in
//           4 sandboxes at once (20 buyers each), on one instance and then on two (each writing
//           two of them): each world commits under its own lock, so the second instance's rate is
//           given beside the first's.
//           Skipped with its reason when no
//           PostgreSQL binaries are found (scripts/postgres.ts starts a throwaway cluster).
//   mock    GET /item/listing/1 over 50 connections: the mock (example answers reused from its
//           answer cache) against bare Prism on the bundled document, the sandbox beside them:
//           target ratio >= 4 and p99 < 20 ms (bench-mock.ts; alone: `npm run bench:mock`).
//   scale   the main routes at 1k, 100k and 1M assets and the store at that size (bench-scale.ts).
//   conformance  one full run of the conformance suite against a fresh in-memory reference server
//           in test mode: target under 20 s of wall time on 2 cores, with the CPU seconds of the
//           suite and the server beside it (bench-conformance.ts; alone: `npm run bench:conformance`).
// Each target runs in its own process (scripts/bench-target.ts); autocannon runs here.
// BENCH_ONLY=read runs the read rows alone (the baseline and the validated listing) and stops.
// Production semantics: NODE_ENV=production, not test mode (no response validation), logs silent.
// "met" compares the ratio with its target; with fewer than ~2 free cores the load generator and
// the target share a CPU and every figure drops, so compare ratios, not absolute numbers.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { conformanceTable } from './bench-conformance.ts';
import { mockTable } from './bench-mock.ts';
import { CONNECTIONS, DURATION, type Figures, figures, fmt, measure, printTable, start } from './bench-run.ts';
import { scaleTable } from './bench-scale.ts';
import { postgresMissing, startPostgres } from './postgres.ts';

/** The validated read's target: its req/s over the bare Express baseline's, measured side by side (issue 35). */
const READ_TARGET = 0.8;

/** Sandboxes the bench writes in at once, on one instance and then on two. */
const SANDBOXES = 4;

/** One load split over several targets at once (half the connections each): the service's figures. */
async function measureSplit(targets: autocannon.Options[]): Promise<Figures> {
  const parts = await Promise.all(
    targets.map((t) => measure({ ...t, connections: Math.max(1, Math.round(CONNECTIONS / targets.length)) })),
  );
  const rps = parts.reduce((n, p) => n + p.rps, 0);
  return {
    rps,
    mean: parts.reduce((n, p) => n + p.mean * p.rps, 0) / (rps || 1),
    p50: Math.max(...parts.map((p) => p.p50)),
    p99: Math.max(...parts.map((p) => p.p99)),
    errors: parts.reduce((n, p) => n + p.errors, 0),
  };
}

/** A world the bench writes in: the main one (prefix '') or a sandbox (`/sandboxes/<id>`). */
interface World {
  prefix: string;
  item: number;
  tokens: string[];
}

/**
 * Requests that swap buy-order reservations, spread over many users (the general limit is per
 * user) and over `worlds` in turn.
 */
function writeRequests(url: string, worlds: World[]): autocannon.Options {
  let n = 0;
  return {
    url,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          n += 1;
          const world = worlds[n % worlds.length]!;
          const user = Math.floor(n / worlds.length);
          return {
            ...req,
            path: `${world.prefix}/item/buyorder/update`,
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${world.tokens[user % world.tokens.length]}`,
            },
            body: JSON.stringify({ itemid: world.item, value: 40 + (n % 20), amount: 10 }),
          };
        },
      },
    ],
  };
}

/**
 * The read (`route` on 20 listed assets) and the write (1k assets, 200 buyers) of the file store's
 * rows on PostgreSQL, one instance and then two on one database, each as a ratio to `file`.
 */
async function postgresRows(route: string, file: { read: Figures; write: Figures }): Promise<string[][]> {
  const cluster = await startPostgres({ fsync: true });
  try {
    const rows: string[][] = [];
    const row = (what: string, f: Figures, of: Figures) => {
      rows.push([what, ...figures(f), (f.rps / of.rps).toFixed(2), f.errors ? `${f.errors} failed` : '']);
      return f;
    };
    const readDb = await cluster.createDatabase('bench_read');
    const r1 = await start(['reference', readDb, '20', '1']);
    const path = route.replace('{item}', String(r1.item));
    row(`GET ${route}, 1 instance`, await measure({ url: `${r1.url}${path}` }), file.read);
    const r2 = await start(['instance', readDb]);
    row(`GET ${route}, 2 instances`, await measureSplit([r1, r2].map((t) => ({ url: `${t.url}${path}` }))), file.read);
    await Promise.all([r1.stop(), r2.stop()]);

    const writeDb = await cluster.createDatabase('bench_write');
    const w1 = await start(['reference', writeDb, '1000', '200']);
    const main: World[] = [{ prefix: '', item: w1.item, tokens: w1.tokens }];
    row('POST /item/buyorder/update at 1k assets, 1 instance', await measure(writeRequests(w1.url, main)), file.write);
    const w2 = await start(['instance', writeDb]);
    // Each instance re-prices the orders of its own half of the buyers (no user on both at once).
    row(
      'POST /item/buyorder/update at 1k assets, 2 instances',
      await measureSplit(
        [w1, w2].map((t, h) =>
          writeRequests(t.url, [{ ...main[0]!, tokens: w1.tokens.filter((_, i) => i % 2 === h) }]),
        ),
      ),
      file.write,
    );
    await Promise.all([w1.stop(), w2.stop()]);

    // Several sandboxes written at once (ADR 25): each world takes its own commit lock, so a
    // second instance adds to the sandboxes' write rate instead of queueing behind the others.
    const sandboxDb = await cluster.createDatabase('bench_sandboxes');
    const s1 = await start(['sandboxes', sandboxDb, String(SANDBOXES), '20']);
    const worlds: World[] = s1.sandboxes!.map((w) => ({ ...w, prefix: w.path }));
    const one = row(
      `POST /item/buyorder/update in ${SANDBOXES} sandboxes at once, 1 instance`,
      await measure(writeRequests(s1.url, worlds)),
      file.write,
    );
    const s2 = await start(['instance', sandboxDb, 'sandboxes']);
    // The second instance opens each sandbox on its first request there (reads its world): not measured.
    for (const w of worlds)
      await fetch(`${s2.url}${w.prefix}/user/balance`, { headers: { authorization: `Bearer ${w.tokens[0]}` } });
    // Each instance writes its own half of the sandboxes: two instances writing one world still
    // take turns on its sequence (ADR 19); what changed is that different worlds do not.
    const ownHalf = [0, 1].map((h) => worlds.filter((_, i) => i % 2 === h));
    const two = row(
      `POST /item/buyorder/update in ${SANDBOXES} sandboxes at once, 2 instances`,
      await measureSplit([s1, s2].map((t, h) => writeRequests(t.url, ownHalf[h]!))),
      file.write,
    );
    rows.at(-1)![6] = `${(two.rps / one.rps).toFixed(2)} of 1 instance${two.errors ? `; ${two.errors} failed` : ''}`;
    await Promise.all([s1.stop(), s2.stop()]);
    return rows;
  } finally {
    await cluster.stop();
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'bench-'));
const rows: string[][] = [];
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
  // A second of each first, unmeasured: both processes' JIT warm before either is timed (the
  // first seconds of a cold process read a tenth lower, whichever is measured first).
  for (const url of [bare.url, ref.url])
    await autocannon({ connections: CONNECTIONS, duration: 1, url: `${url}${path}` });
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
    `>= ${READ_TARGET} of baseline`,
    readRatio >= READ_TARGET ? 'met' : 'NOT MET',
  ]);

  if (process.env.BENCH_ONLY === 'read') {
    console.log(`\n${DURATION} s per measurement, ${CONNECTIONS} connections, Node ${process.version}\n`);
    printTable(['measurement', 'req/s', 'mean ms', 'p50 ms', 'p99 ms', 'ratio', 'target', ''], rows);
    rmSync(scratch, { recursive: true, force: true });
    process.exit(base.errors + read.errors ? 1 : 0);
  }

  // Write: the same state-changing route at 1k and at 100k stored assets.
  const write: Record<number, Figures> = {};
  for (const assets of [1_000, 100_000]) {
    const w = await start(['reference', join(scratch, `write-${assets}.json`), String(assets), '200']);
    write[assets] = await measure(writeRequests(w.url, [{ prefix: '', item: w.item, tokens: w.tokens }]));
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
  console.log(`\n${DURATION} s per measurement, ${CONNECTIONS} connections, Node ${process.version}\n`);
  printTable(['measurement', 'req/s', 'mean ms', 'p50 ms', 'p99 ms', 'ratio', 'target', ''], rows);
  if (errors) console.log(`\n${errors} requests failed or answered non-2xx: the figures are not comparable`);

  // PostgreSQL: the same read and write, one and two instances on one database (ADR 0019).
  const missing = postgresMissing();
  if (missing) console.log(`\nPostgreSQL rows skipped: ${missing}`);
  else {
    const pg = await postgresRows(route, { read, write: small });
    console.log(
      '\nPostgreSQL (fsync on; two instances: the load split between them; ratio: req/s / the file store above)\n',
    );
    printTable(['measurement', 'req/s', 'mean ms', 'p50 ms', 'p99 ms', 'ratio', ''], pg);
  }

  // The mock beside bare Prism and the sandbox (scripts/bench-mock.ts).
  await mockTable();

  // Scale: the same routes at 1k, 100k and 1M assets (scripts/bench-scale.ts).
  const perRoute = Math.max(1, DURATION * 0.4);
  const scale = await scaleTable(scratch, perRoute);
  const scaleWidths = scale[0]!.map((_, i) => Math.max(...scale.map((r) => r[i]!.length)));
  console.log(`\nScale (test mode, file store, ${perRoute} s per route; latencies timed per request)\n`);
  for (const r of scale) console.log(r.map((c, i) => c.padEnd(scaleWidths[i]!)).join('  '));

  // The conformance suite's full run against the reference (scripts/bench-conformance.ts).
  await conformanceTable();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
