// `npm run bench`: throughput and latency of the reference server, each figure beside a baseline
// measured in the same run on this machine (so the ratios mean something; absolute numbers do not
// travel). How to read it:
//   read    GET /item/listing/{item} with request validation, against a bare Express 5 app
//           answering the same JSON object with res.json: target ratio >= 0.6.
//   write   POST /item/buyorder/update (a reservation swap: two ledger entries, a journal line,
//           an fsync) on a file store holding 1k and then 100k assets: target p50 latency at
//           100k <= 2x the latency at 1k.
// Production semantics: not test mode (no response validation), logs silent.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import express from 'express';
import pino from 'pino';
import { parseConfig } from '../packages/server/src/config.ts';
import { placeOrder } from '../packages/server/src/domain/buy-orders.ts';
import { putAsset, putItem } from '../packages/server/src/domain/catalog.ts';
import { Tx } from '../packages/server/src/domain/tx.ts';
import { createUser } from '../packages/server/src/domain/users.ts';
import { composeServer } from '../packages/server/src/server.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;

async function listen(app: express.Express): Promise<{ url: string; server: Server }> {
  const server: Server = await new Promise((done) => {
    const s = app.listen(0, '127.0.0.1', () => done(s));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(options: autocannon.Options): Promise<Figures> {
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/** The reference server on `db` with `assets` listed assets and `users` buyers holding one order each. */
async function referenceServer(db: string, assets: number, users: number) {
  const config = parseConfig({ MARKETPLACE_DB: db });
  const { app, deps } = await composeServer({ config, logger: pino({ level: 'silent' }) });
  const now = deps.clock.now();
  const tx = new Tx(deps.store.state);
  const seller = '76561190000000000';
  createUser(tx, { name: 'Seller' }, 'bench-seller', seller, now);
  const item = putItem(tx, { name: 'Bench Key', game: 440 });
  for (let i = 0; i < assets; i += 1)
    putAsset(tx, { owner: seller, itemId: item.id, state: 1, price: 100 + (i % 500) }, now);
  const keys: string[] = [];
  for (let u = 0; u < users; u += 1) {
    const id = `765611900${String(u).padStart(8, '0')}`;
    createUser(tx, { balance: 10_000_000 }, `bench-key-${u}`, id, now);
    placeOrder(tx, { owner: id, itemId: item.id, price: 50, amount: 10, now });
    keys.push(`bench-key-${u}`);
  }
  await deps.store.append(tx.commit());
  await deps.store.snapshot();
  const { url, server } = await listen(app);
  const tokens: string[] = [];
  for (const apiKey of keys) {
    const res = await fetch(`${url}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey }),
    });
    tokens.push(((await res.json()) as { content: { jwt: string } }).content.jwt);
  }
  return { url, server, deps, item: item.id, tokens };
}

/** Requests that swap buy-order reservations, spread over many users (the general limit is per user). */
function writeRequests(item: number, tokens: string[]): autocannon.Options {
  let n = 0;
  return {
    url: '',
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
  // Read: the listing route against a bare Express app serving a body of the same size.
  const ref = await referenceServer(join(scratch, 'read.json'), 20, 1);
  const listing = await fetch(`${ref.url}/item/listing/${ref.item}`);
  const body = await listing.text();
  const payload = JSON.parse(body);
  const bare = express();
  bare.get('/item/listing/:item', (_req, res) => {
    res.json(payload);
  });
  const baseline = await listen(bare);
  const base = await measure({ url: `${baseline.url}/item/listing/${ref.item}` });
  const read = await measure({ url: `${ref.url}/item/listing/${ref.item}` });
  baseline.server.close();
  ref.server.close();
  await ref.deps.store.close();
  const readRatio = read.rps / base.rps;
  rows.push(['Express hello-world (baseline)', fmt(base.rps), fmt(base.p50), fmt(base.p99), '1.00', '', '']);
  rows.push([
    `GET /item/listing/{item} (${body.length} B, validated)`,
    fmt(read.rps),
    fmt(read.p50),
    fmt(read.p99),
    readRatio.toFixed(2),
    '>= 0.6 of baseline',
    readRatio >= 0.6 ? 'met' : 'NOT MET',
  ]);

  // Write: the same state-changing route at 1k and at 100k stored assets.
  const write: Record<number, Figures> = {};
  for (const assets of [1_000, 100_000]) {
    const w = await referenceServer(join(scratch, `write-${assets}.json`), assets, 200);
    write[assets] = await measure({ ...writeRequests(w.item, w.tokens), url: w.url });
    w.server.close();
    await w.deps.store.close();
  }
  const small = write[1_000]!;
  const large = write[100_000]!;
  const writeRatio = large.p50 / Math.max(small.p50, 0.01);
  rows.push([
    'POST /item/buyorder/update at 1k assets (baseline)',
    fmt(small.rps),
    fmt(small.p50),
    fmt(small.p99),
    '1.00',
    '',
    '',
  ]);
  rows.push([
    'POST /item/buyorder/update at 100k assets',
    fmt(large.rps),
    fmt(large.p50),
    fmt(large.p99),
    writeRatio.toFixed(2),
    '<= 2x latency at 1k',
    writeRatio <= 2 ? 'met' : 'NOT MET',
  ]);
  const errors = [base, read, small, large].reduce((n, f) => n + f.errors, 0);
  const header = ['measurement', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'target', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(`\n${DURATION} s per measurement, ${CONNECTIONS} connections, Node ${process.version}\n`);
  console.log(line(header));
  for (const r of rows) console.log(line(r));
  if (errors) console.log(`\n${errors} requests failed or answered non-2xx: the figures are not comparable`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
