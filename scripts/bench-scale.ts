// The scale table of `npm run bench` (issue 13, ADR 0009): the reference server in test mode on a
// file store, seeded through POST /test_helpers/population with 1k, 100k and 1M assets of the same
// shape (100 assets per user and per item, half of each user's listed, one buy order per user),
// then the median and p99 latency of the main routes over HTTP (listings, counts, tiers, inventory
// rows, the user's buy orders and histories, pricing, a buy order placed and sold into, cart add
// and checkout, a cashout request), each beside its figure at 1k (target: at most 2x), the
// seeding time (target at 1M: under 60 s), the heap per million assets, the longest event-loop
// pause while the store writes a snapshot (target: under 100 ms) and the startup time (load +
// index build) of the store. Latencies are timed here per request with a
// high-resolution clock (autocannon's percentiles are whole milliseconds, too coarse for a route
// that answers in one). Reads run 4 requests at a time, writes one at a time (each is a chain of
// requests that must not interleave). The scales run side by side, in separate processes, and
// take turns in slices on each route, so the machine's load changes the figures of every scale
// alike and the ratios hold on a busy machine too. Before each slice the test clock moves a minute on, so
// a slice starts with fresh per-user rate-limit windows (600 requests a minute per user and route:
// at 1k assets the 10 logged-in users allow 6,000 a minute, which a quiet machine reads in a
// second), and a slice lasts at most SLICE_SECONDS. BENCH_SCALES (e.g. `1000,10000`)
// measures other sizes; the ratio column is always the last size over the first.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const SCALES = (process.env.BENCH_SCALES ?? '1000,100000,1000000').split(',').map(Number);
/** Users logged in and taking turns (each has its own rate limits). */
const TOKENS = 20;
const PER_USER = 100;

interface Target {
  url: string;
  child: ChildProcess;
  ask: <T>(question: string) => Promise<T>;
  stop: () => Promise<void>;
}

function startTarget(db: string): Promise<Target> {
  const child = spawn(process.execPath, ['--expose-gc', join(import.meta.dirname, 'bench-target.ts'), 'scale', db], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return new Promise((done, failed) => {
    child.stdout!.setEncoding('utf8');
    child.stdout!.once('data', (chunk: string) => {
      const { url } = JSON.parse(chunk.split('\n')[0]!);
      done({
        url,
        child,
        ask: <T>(question: string) =>
          new Promise<T>((answer) => {
            child.once('message', (m) => answer(m as T));
            child.send({ ask: question });
          }),
        stop: () =>
          new Promise<void>((r) => {
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => failed(new Error(`scale target exited with ${code}`)));
  });
}

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Index of the logged-in user who sends it. */
  as: number;
}

interface Session {
  url: string;
  tokens: string[];
  /** Sends a call; throws on anything but a 200 with a success envelope. */
  send: (call: Call) => Promise<unknown>;
}

/** Each user's requests come from an address of its own (a JWT is bound to its login IP). */
const ipOf = (k: number) => `10.13.${Math.floor(k / 250)}.${(k % 250) + 1}`;

async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { success?: boolean; content: unknown } };
}

async function session(url: string, apiKeys: string[]): Promise<Session> {
  const tokens: string[] = [];
  for (const [k, apiKey] of apiKeys.entries()) {
    const r = await post(url, '/user/login', { apiKey }, { 'x-forwarded-for': ipOf(k) });
    tokens.push((r.body.content as { jwt: string }).jwt);
  }
  return {
    url,
    tokens,
    send: async (call) => {
      const res = await fetch(`${url}${call.path}`, {
        method: call.method,
        headers: {
          authorization: `Bearer ${tokens[call.as]}`,
          'x-forwarded-for': ipOf(call.as),
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
      });
      const text = await res.text();
      if (res.status !== 200 || JSON.parse(text).success === false)
        throw new Error(`${call.method} ${call.path}: ${res.status} ${text.slice(0, 200)}`);
      return JSON.parse(text);
    },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

interface Latency {
  p50: number;
  p99: number;
  n: number;
  errors: number;
  firstError?: string;
}

type Step = (n: number) => Promise<Record<string, number> | null>;

/** One route's measurement at one scale: its request chains and its samples across slices. */
interface Measurement {
  concurrency: number;
  step: Step;
  /** The next chain number: a step's chains go on where its previous slice stopped. */
  n: number;
  done: boolean;
  samples: Record<string, number[]>;
  errors: number;
  firstError?: string;
}

/**
 * Runs a measurement's `step` for `seconds` with its `concurrency` workers, adding the timed
 * latencies (ms) to its samples; `warmup` leaves the first fifth of the time out (JIT, caches,
 * connections). A step returns null when it has nothing left to do.
 */
async function runSlice(m: Measurement, seconds: number, warmup: boolean): Promise<void> {
  const warm = performance.now() + (warmup ? seconds * 200 : 0);
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (!m.done && performance.now() < end) {
      try {
        const timed = await m.step(m.n++);
        if (!timed) {
          m.done = true;
          return;
        }
        if (performance.now() < warm) continue;
        for (const [name, ms] of Object.entries(timed)) {
          m.samples[name] ??= [];
          m.samples[name].push(ms);
        }
      } catch (error) {
        m.errors += 1;
        m.firstError ??= String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: m.concurrency }, worker));
}

function latencies(m: Measurement): Record<string, Latency> {
  return Object.fromEntries(
    Object.entries(m.samples).map(([name, xs]) => {
      xs.sort((a, b) => a - b);
      return [
        name,
        {
          p50: percentile(xs, 0.5),
          p99: percentile(xs, 0.99),
          n: xs.length,
          errors: m.errors,
          firstError: m.firstError,
        },
      ];
    }),
  );
}

/** Times one call. */
async function timed(s: Session, call: Call): Promise<number> {
  const started = performance.now();
  await s.send(call);
  return performance.now() - started;
}

export interface ScaleFigures {
  assets: number;
  seedSeconds: number;
  heapBytes: number;
  snapshotPauseMs: number;
  /** The longest pause over as long a time without a snapshot (the machine's own). */
  idlePauseMs: number;
  snapshotMs: number;
  startupMs: number;
  routes: Record<string, Latency>;
}

/** A seeded scale: its target, its logged-in users and the measurements of its routes, in order. */
interface Seeded {
  assets: number;
  target: Target;
  seedSeconds: number;
  heap: number;
  /** Runs before each route's measurement. */
  beforeRoute: (route: number) => Promise<void>;
  /** Runs before each slice (the test clock moves a minute on: fresh rate-limit windows). */
  beforeSlice: () => Promise<void>;
  measurements: Measurement[];
}

const measurement = (concurrency: number, step: Step): Measurement => ({
  concurrency,
  step,
  n: 0,
  done: false,
  samples: {},
  errors: 0,
});

/** Starts a target, seeds one scale and logs its users in; measures nothing yet. */
async function seedScale(assets: number, db: string): Promise<Seeded> {
  const users = assets / PER_USER;
  const items = assets / PER_USER;
  const target = await startTarget(db);
  try {
    const started = performance.now();
    const seeded = await post(target.url, '/test_helpers/population', {
      users,
      items,
      assets,
      listedShare: 0.5,
      buyOrders: users,
      balance: 1_000_000,
    });
    const seedSeconds = (performance.now() - started) / 1000;
    if (seeded.status !== 200) throw new Error(`population refused: ${JSON.stringify(seeded.body)}`);
    const pop = seeded.body.content as { apiKeys: string[]; itemIds: number[] };
    const { heap } = await target.ask<{ heap: number }>('heap');
    const tokens = Math.min(TOKENS, users);
    const s = await session(target.url, pop.apiKeys.slice(0, tokens));
    // On a fresh store asset i has ID i + 1; it belongs to user i mod users and item i mod items
    // (item i mod items + 1), and the first half of each user's assets (i < 50 x users) are listed.
    const assetId = (i: number) => String(10_000_000_001 + i);
    const itemOf = (n: number) => pop.itemIds[n % pop.itemIds.length]!;
    const read = (name: string, call: (n: number) => Omit<Call, 'as'>) =>
      measurement(4, async (n) => ({ [name]: await timed(s, { ...call(n), as: n % tokens }) }));
    const measurements: Measurement[] = [
      read('GET /item/listing/{item} (page 3 of 20)', (n) => ({
        method: 'GET',
        path: `/item/listing/${itemOf(n)}?page=2&count=20`,
      })),
      read('GET /item/listing/count/{item}', (n) => ({ method: 'GET', path: `/item/listing/count/${itemOf(n)}` })),
      read('GET /item/buyorderList/{item}', (n) => ({ method: 'GET', path: `/item/buyorderList/${itemOf(n)}` })),
      read('GET /inventory/onSale', () => ({ method: 'GET', path: '/inventory/onSale' })),
      read('GET /inventory/onInventory', () => ({ method: 'GET', path: '/inventory/onInventory' })),
      read('GET /user/getBuyorder', () => ({ method: 'GET', path: '/user/getBuyorder' })),
      read('GET /user/getBalanceHistory', () => ({ method: 'GET', path: '/user/getBalanceHistory' })),
      read('GET /user/getTransactionHistory', () => ({ method: 'GET', path: '/user/getTransactionHistory' })),

      // Pricing: a user lists one of its listed assets again at a price above every buy order.
      measurement(1, async (n) => {
        const user = n % tokens;
        const i = user + (n % 50) * users;
        const price = 5_000 + (n % 1_000);
        return {
          'POST /inventory/price (relist)': await timed(s, {
            method: 'POST',
            path: '/inventory/price',
            body: { ids: assetId(i), price },
            as: user,
          }),
        };
      }),

      // A buy order placed, then an inventory asset of its item priced into it (sold), then removed.
      // The seller is logged-in user `seller`; its inventory assets are i = 50 x users + q x users + seller,
      // of item `seller` (items = users), on which the buyer (the next user) has no order.
      measurement(1, async (n) => {
        const seller = n % tokens;
        const q = Math.floor(n / tokens);
        if (q >= 50) return null;
        const buyer = (seller + 1) % tokens;
        const item = pop.itemIds[seller]!;
        const i = 50 * users + q * users + seller;
        const body = { itemid: item, value: 9_000, amount: 1 };
        const place = await timed(s, { method: 'POST', path: '/item/buyorder', body, as: buyer });
        const match = await timed(s, {
          method: 'POST',
          path: '/inventory/price',
          body: { ids: assetId(i), price: 9_000 },
          as: seller,
        });
        await s.send({ method: 'POST', path: '/item/buyorder/remove', body: { itemid: item }, as: buyer });
        return { 'POST /item/buyorder (place)': place, 'POST /inventory/price (sold into the order)': match };
      }),

      // A cart add and a checkout: the buyer takes the next listed asset of another user.
      measurement(1, async (n) => {
        const i = n;
        if (i >= 50 * users) return null; // every listed asset bought
        const owner = i % users; // logged-in user k is population user k
        const buyer = owner === n % tokens ? (n + 1) % tokens : n % tokens;
        const add = await timed(s, { method: 'POST', path: '/cart/add', body: { assetId: assetId(i) }, as: buyer });
        const checkout = await timed(s, { method: 'POST', path: '/cart/checkout', as: buyer });
        return { 'POST /cart/add': add, 'POST /cart/checkout': checkout };
      }),

      // A cashout request (then cancelled, untimed): each user may hold one open request and ask once
      // a day, so the test clock moves a day on after every round of the logged-in users.
      measurement(1, async (n) => {
        const user = n % tokens;
        if (n >= tokens * 20) return null; // the tokens live 31 days of the test clock
        if (user === 0 && n > 0) await post(target.url, '/test_helpers/clock', { advance: 86_401 });
        const started = performance.now();
        const answer = (await s.send({
          method: 'POST',
          path: '/cashout/process',
          body: { amount: 5_000, method: 'provider_a' },
          as: user,
        })) as { content: { cashoutId: number } };
        const ms = performance.now() - started;
        await s.send({
          method: 'POST',
          path: '/cashout/cancel',
          body: { cashoutId: answer.content.cashoutId },
          as: user,
        });
        return { 'POST /cashout/process (request)': ms };
      }),
    ];
    const cashoutRoute = measurements.length - 1;
    const beforeSlice = async () => {
      await post(target.url, '/test_helpers/clock', { advance: 61 });
    };
    const beforeRoute = async (route: number) => {
      if (route === cashoutRoute)
        for (let k = 0; k < tokens; k += 1)
          await s.send({
            method: 'POST',
            path: '/cashout/link',
            body: { method: 'provider_a', email: `pop${k}@example.com` },
            as: k,
          });
    };
    return { assets, target, seedSeconds, heap, beforeRoute, beforeSlice, measurements };
  } catch (error) {
    await target.stop();
    throw error;
  }
}

/**
 * Slices per route: the scales take turns, a slice each, so a change of the machine's load (other
 * processes on a busy machine) falls on every scale alike and the ratios stay comparable. At least
 * MIN_SLICES, each at most SLICE_SECONDS (within one rate-limit window's allowance, see above).
 */
const MIN_SLICES = 4;
const SLICE_SECONDS = 0.5;

/** Seeds every scale, then measures each route on all of them in turns, then the store of each. */
async function measureScales(scratch: string, seconds: number): Promise<ScaleFigures[]> {
  const seeded: Seeded[] = [];
  try {
    for (const assets of SCALES) seeded.push(await seedScale(assets, join(scratch, `scale-${assets}.json`)));
    const routes = seeded[0]!.measurements.length;
    const slices = Math.max(MIN_SLICES, Math.ceil(seconds / SLICE_SECONDS));
    for (let route = 0; route < routes; route += 1) {
      for (const scale of seeded) await scale.beforeRoute(route);
      for (let slice = 0; slice < slices; slice += 1)
        for (const scale of seeded) {
          await scale.beforeSlice();
          await runSlice(scale.measurements[route]!, seconds / slices, slice === 0);
        }
    }
    const figures: ScaleFigures[] = [];
    for (const scale of seeded) {
      // One target at a time: a snapshot's pause is measured with the others idle.
      const snapshot = await scale.target.ask<{ pauseMs: number; tookMs: number; idlePauseMs: number }>('snapshot');
      const { startupMs } = await scale.target.ask<{ startupMs: number }>('startup');
      figures.push({
        assets: scale.assets,
        seedSeconds: scale.seedSeconds,
        heapBytes: scale.heap,
        snapshotPauseMs: snapshot.pauseMs,
        idlePauseMs: snapshot.idlePauseMs,
        snapshotMs: snapshot.tookMs,
        startupMs,
        routes: Object.assign({}, ...scale.measurements.map(latencies)),
      });
    }
    return figures;
  } finally {
    for (const scale of seeded) await scale.target.stop();
  }
}

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));

/** Measures every scale and returns the table's rows (the header first). */
export async function scaleTable(scratch: string, seconds: number): Promise<string[][]> {
  const figures = await measureScales(scratch, seconds);
  const small = figures[0]!;
  const large = figures.at(-1)!;
  const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1_000}k`);
  const header = [
    'scale row',
    ...figures.flatMap((f) => [`${label(f.assets)} p50`, `${label(f.assets)} p99`]),
    `ratio p50 ${label(large.assets)}/${label(small.assets)}`,
    'target',
    '',
  ];
  const rows: string[][] = [header];
  for (const name of Object.keys(small.routes)) {
    const at = figures.map((f) => f.routes[name]);
    const last = at.at(-1);
    const ratio = last && at[0] ? last.p50 / at[0].p50 : Number.NaN;
    const failed = at.reduce((n, l) => n + (l?.errors ?? 0), 0);
    rows.push([
      `${name} (ms)`,
      ...at.flatMap((l) => (l ? [fmt(l.p50), fmt(l.p99)] : ['-', '-'])),
      ratio.toFixed(2),
      '<= 2x',
      failed > 0
        ? `NOT MET (${failed} failed: ${at.find((l) => l?.firstError)?.firstError?.slice(0, 80)})`
        : ratio <= 2
          ? 'met'
          : 'NOT MET',
    ]);
  }
  const each = (f: (x: ScaleFigures) => string) => figures.flatMap((x) => [f(x), '']);
  rows.push([
    'seeding through POST /test_helpers/population (s)',
    ...each((x) => fmt(x.seedSeconds)),
    '',
    '< 60 s at 1M',
    large.seedSeconds < 60 ? 'met' : 'NOT MET',
  ]);
  const perMillion = ((large.heapBytes - small.heapBytes) / (large.assets - small.assets)) * 1_000_000;
  rows.push([
    'heap after seeding (MB)',
    ...each((x) => fmt(x.heapBytes / 1e6)),
    '',
    `${fmt(perMillion / 1e6)} MB per 1M assets`,
    'reported',
  ]);
  rows.push([
    'longest event-loop pause during a snapshot (ms)',
    ...each((x) => fmt(x.snapshotPauseMs)),
    '',
    '< 100 ms at 1M',
    large.snapshotPauseMs < 100 ? 'met' : 'NOT MET',
  ]);
  rows.push([
    'longest pause as long without a snapshot (ms)',
    ...each((x) => fmt(x.idlePauseMs)),
    '',
    'the machine, for comparison',
    'reported',
  ]);
  rows.push(['snapshot write, whole (ms)', ...each((x) => fmt(x.snapshotMs)), '', '', 'reported']);
  rows.push(['startup: load + index build (ms)', ...each((x) => fmt(x.startupMs)), '', '', 'reported']);
  return rows;
}
