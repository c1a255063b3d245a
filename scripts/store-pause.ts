// What a snapshot of a large file store costs the requests (issue 13 point 4, issue 17 point 5):
// builds a state of N assets (default one million, 1,000 users, 100 items) directly as records,
// writes it as the store's snapshot, times the server's startup on that file, then runs a steady
// request stream (a login, a write, and GET /user/infos, a read, every 4 ms) and reports the
// longest event-loop pause and the latency percentiles with no snapshot, while the store writes a
// snapshot (by default a lower-priority child process merges the journal into the file), and
// while the old way runs for comparison (structuredClone + JSON.stringify of the whole state on
// the request thread, as before ADR 0010).
// The CPU column is this process's (request thread, GC and worker threads; not a child process).
//
//   npm run bench:store -- [assets] [process|worker|inline]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pino from 'pino';
import { parseConfig } from '../packages/server/src/config.ts';
import { putAsset, putItem } from '../packages/server/src/domain/catalog.ts';
import { type Asset, emptyState } from '../packages/server/src/domain/state.ts';
import { Tx } from '../packages/server/src/domain/tx.ts';
import { createUser } from '../packages/server/src/domain/users.ts';
import { composeServer } from '../packages/server/src/server.ts';
import { nodeFiles } from '../packages/server/src/store/files.ts';
import { snapshotChunks, writeSnapshotFile } from '../packages/server/src/store/snapshot-file.ts';
import type { StoreOptions } from '../packages/server/src/store/store.ts';

const ASSETS = Number(process.argv[2] ?? 1_000_000);
/** Where the store merges snapshots (StoreOptions.merger). */
const MERGER = (process.argv[3] ?? 'process') as NonNullable<StoreOptions['merger']>;
const USERS = 1_000;
const ITEMS = 100;
const INTERVAL_MS = 4;
const now = Math.floor(Date.now() / 1000);
const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

/** A state of ASSETS assets, USERS users and ITEMS items; assets are copies of one built by the engine. */
function buildState() {
  const state = emptyState();
  const tx = new Tx(state);
  const keys: string[] = [];
  for (let u = 0; u < USERS; u += 1) {
    const id = `765611980${String(u).padStart(8, '0')}`;
    createUser(tx, { balance: 1_000_000 }, `store-pause-key-${u}`, id, now);
    keys.push(`store-pause-key-${u}`);
  }
  for (let i = 0; i < ITEMS; i += 1) putItem(tx, { name: `Item ${i}`, game: 440 });
  const template = putAsset(tx, { owner: '76561198000000000', itemId: 1, state: 1, price: 100 }, now);
  tx.commit();
  const assets = state.assets as Record<string, Asset>;
  for (let id = 1; id <= ASSETS; id += 1)
    assets[id] = {
      ...template,
      id,
      assetId: String(10_000_000_000 + id),
      item_id: (id % ITEMS) + 1,
      user: `765611980${String(id % USERS).padStart(8, '0')}`,
      state: id % 3 === 0 ? 1 : 0,
      price: id % 3 === 0 ? 100 + (id % 500) : null,
    };
  state.counters.assets = ASSETS;
  return { state, keys };
}

const dir = mkdtempSync(join(tmpdir(), 'store-pause-'));
const file = join(dir, 'marketplace.json');
try {
  let t = performance.now();
  const built = buildState();
  console.log(`built ${ASSETS.toLocaleString('en')} assets in ${Math.round(performance.now() - t)} ms`);
  t = performance.now();
  await writeSnapshotFile(nodeFiles, file, snapshotChunks(built.state));
  console.log(`snapshot file ${mb(statSync(file).size)} written in ${Math.round(performance.now() - t)} ms`);
  const { keys } = built;
  (built as { state?: unknown }).state = undefined;
  globalThis.gc?.();

  t = performance.now();
  const { app, deps } = await composeServer({
    config: parseConfig({ MARKETPLACE_DB: file, PORT: '0' }),
    logger: pino({ level: 'silent' }),
    store: { merger: MERGER },
  });
  const startup = performance.now() - t;
  console.log(
    `startup (load and check the file, compose the server): ${Math.round(startup)} ms, heap ${mb(process.memoryUsage().heapUsed)}`,
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const login = async (i: number) => {
    const res = await fetch(`${url}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: keys[i % keys.length] }),
    });
    const body = (await res.json()) as { content: { jwt: string } };
    if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(body)}`);
    return body.content.jwt;
  };
  // GET /user/infos is limited per user (the seed's general limit): the reads rotate over 200 users
  const jwts = await Promise.all(Array.from({ length: 200 }, (_, i) => login(i)));

  /** Requests every INTERVAL_MS until `work` settles (at least `minMs`); latencies and the longest pause. */
  async function measure(label: string, work: () => Promise<unknown>, minMs = 3000) {
    const latencies: number[] = [];
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    let running = true;
    let n = 0;
    let errors = 0;
    const inFlight: Promise<void>[] = [];
    const timer = setInterval(() => {
      n += 1;
      const start = performance.now();
      const request =
        n % 2 === 0
          ? login(n).then(() => {})
          : fetch(`${url}/user/infos`, { headers: { authorization: `Bearer ${jwts[n % jwts.length]}` } }).then((r) => {
              if (r.status !== 200) throw new Error(`infos: ${r.status}`);
              return r.arrayBuffer().then(() => {});
            });
      inFlight.push(
        request.then(
          () => void latencies.push(performance.now() - start),
          () => {
            errors += 1; // a keep-alive socket the server closed during a long pause
          },
        ),
      );
    }, INTERVAL_MS);
    histogram.enable();
    // the histogram records the delay between two of its own ticks: let it tick (and the request
    // stream start) before the work, so a pause at the very start of the work is counted too
    await new Promise((r) => setTimeout(r, 100));
    const started = performance.now();
    const cpu = process.cpuUsage();
    const done = work().finally(() => {
      running = false;
    });
    await Promise.all([done, new Promise((r) => setTimeout(r, minMs))]);
    const took = performance.now() - started;
    const used = process.cpuUsage(cpu);
    clearInterval(timer);
    histogram.disable();
    await Promise.all(inFlight);
    void running;
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(1);
    console.log(
      `${label.padEnd(44)} ${String(Math.round(took)).padStart(6)} ms  longest pause ${(histogram.max / 1e6).toFixed(0).padStart(5)} ms (p99 ${(histogram.percentile(99) / 1e6).toFixed(0).padStart(4)} ms)  requests ${String(latencies.length).padStart(5)} (${errors} failed)  p50 ${pct(0.5).padStart(6)} ms  p99 ${pct(0.99).padStart(7)} ms  max ${latencies.at(-1)!.toFixed(0).padStart(5)} ms  server process CPU ${String(Math.round((used.user + used.system) / 1000)).padStart(6)} ms`,
    );
  }

  // the garbage of loading is collected before anything is measured
  globalThis.gc?.();
  await measure('warm-up (not a measurement)', async () => {}, 2000);
  globalThis.gc?.();
  await measure('no snapshot', async () => {});
  await measure(`snapshot merged (${MERGER})`, () => deps.store.snapshot());
  await measure('the old way: structuredClone + stringify', async () => {
    const copy = structuredClone(deps.store.state);
    await writeFile(join(dir, 'old-way.json'), JSON.stringify(copy));
  });
  console.log(`snapshot file after: ${mb(statSync(file).size)}, heap ${mb(process.memoryUsage().heapUsed)}`);
  await new Promise((r) => server.close(r));
  await deps.store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
