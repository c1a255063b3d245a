// Several reference-server processes on one PostgreSQL database (issue 14), as an operator runs
// them: `node src/main.ts` each, with the same secrets, on ports of their own. Tests kill and
// restart them; a round-robin proxy in front makes them one address whose requests alternate
// between the instances, as a load balancer's would.
import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SERVICE_UNAVAILABLE } from '../../domain/messages.ts';

const MAIN = resolve(import.meta.dirname, '../../main.ts');
const SOURCE = '--conditions=marketplace-source';

/** Secrets every instance of a service shares (at least 32 bytes: the server refuses shorter ones). */
export const SHARED_SECRETS = {
  MARKETPLACE_JWT_SECRET: 'instances-fixture-jwt-secret-0123456789abcdef',
  MARKETPLACE_DEPOSIT_SECRET: 'instances-fixture-deposit-secret-0123456789abcdef',
};

interface Running {
  child: ChildProcess;
  url: string;
  /** Everything it printed (banner, warnings, errors): shown when a test fails. */
  output: string;
  exited: Promise<number | string | null>;
}

export interface Instances {
  /** The base URL of each instance (a restarted instance keeps its port, so its URL). */
  readonly urls: string[];
  /** Sends `signal` (default SIGKILL) to instance `i` and waits until it is gone. */
  kill(i: number, signal?: NodeJS.Signals): Promise<void>;
  /** Starts instance `i` again on its port (after `kill`); resolves when it answers. */
  restart(i: number): Promise<string>;
  /** What instance `i` printed so far (for failure messages). */
  output(i: number): string;
  stopAll(): Promise<void>;
}

/** Starts `main.ts` on `db`; resolves once it printed its URL, rejects with its output if it exits first. */
function startOne(db: string, port: number, env: Record<string, string>): Promise<Running> {
  const nodeOptions = process.env.NODE_OPTIONS ?? '';
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      NODE_OPTIONS: nodeOptions.includes(SOURCE) ? nodeOptions : `${nodeOptions} ${SOURCE}`.trim(),
      LOG_LEVEL: 'warn',
      ...SHARED_SECRETS,
      MARKETPLACE_DB: db,
      MARKETPLACE_TEST_MODE: '1',
      MARKETPLACE_TRUST_PROXY: 'loopback',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const running: Running = {
    child,
    url: '',
    output: '',
    exited: new Promise((done) => child.once('exit', (code, signal) => done(code ?? signal))),
  };
  return new Promise((done, fail) => {
    const read = (chunk: Buffer) => {
      running.output += chunk;
      const url = running.output.match(/reference server: (http\S+)/)?.[1];
      if (url && !running.url) {
        running.url = url;
        done(running);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code, signal) =>
      fail(new Error(`main.ts on ${db} exited (${code ?? signal}) before listening:\n${running.output}`)),
    );
  });
}

/**
 * Starts `count` instances on the database `db` (in test mode, with SHARED_SECRETS); `env` adds to
 * every instance's environment (a blocked country). They start one after another: the first
 * creates the schema, the others find it (concurrent starts are the migrations' own test).
 */
export async function startInstances(db: string, count: number, env: Record<string, string> = {}): Promise<Instances> {
  const running: (Running | undefined)[] = [];
  const stopAll = async () => {
    await Promise.all(
      running.map(async (r) => {
        if (!r || r.child.exitCode !== null || r.child.signalCode !== null) return;
        r.child.kill('SIGKILL');
        await r.exited;
      }),
    );
  };
  try {
    for (let i = 0; i < count; i++) running.push(await startOne(db, 0, env));
  } catch (error) {
    await stopAll();
    throw error;
  }
  const urls = running.map((r) => r!.url);
  const at = (i: number): Running => {
    const r = running[i];
    if (!r) throw new Error(`no instance ${i}`);
    return r;
  };
  return {
    urls,
    async kill(i, signal = 'SIGKILL') {
      const r = at(i);
      r.child.kill(signal);
      await r.exited;
    },
    async restart(i) {
      const before = at(i);
      if (before.child.exitCode === null && before.child.signalCode === null)
        throw new Error(`instance ${i} still runs: kill it first`);
      const r = await startOne(db, Number(new URL(before.url).port), env);
      r.output = `${before.output}\n--- restarted ---\n${r.output}`;
      running[i] = r;
      return r.url;
    },
    output: (i) => at(i).output,
    stopAll,
  };
}

/**
 * A round-robin HTTP proxy on a free loopback port: each request goes, whole, to the next of
 * `targets` and its answer comes back unchanged. It appends the client's address to
 * X-Forwarded-For as a load balancer does, so an instance that trusts loopback proxies
 * (MARKETPLACE_TRUST_PROXY=loopback, the default) sees the same client IP as without the proxy.
 */
export async function startRoundRobin(targets: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const agent = new Agent({ keepAlive: true });
  let next = 0;
  const server = createServer((req, res) => {
    const target = new URL(targets[next++ % targets.length]!);
    const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-for': forwarded },
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (res.headersSent) res.destroy(error);
      else res.writeHead(502, { 'content-type': 'text/plain' }).end(`proxy: ${target.origin}: ${error.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are free-form JSON; tests read what they assert
  body: any;
}
/** A logged-in user: the JWT is bound to the login IP, sent as X-Forwarded-For on every call. */
export interface Session {
  platformId: string;
  apiKey: string;
  token: string;
  ip: string;
}

/** `content` (envelope A) or `data` (envelope B) of an answer. */
// biome-ignore lint/suspicious/noExplicitAny: see Answer
export const contentOf = (a: Answer): any => a.body?.content ?? a.body?.data;
/** The message of a refusal (envelope B `message`, envelope A `content`). */
export const messageOf = (a: Answer): unknown => a.body?.message ?? a.body?.content;

/** Calls to one base URL (an instance or the proxy): the test helpers, logins, calls as a user. */
export function clientOf(base: string) {
  const call = async (
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    { json, token, ip }: { json?: unknown; token?: string; ip?: string } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = {};
    if (json !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    if (ip) headers['x-forwarded-for'] = ip;
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) };
    } catch {
      return { status: res.status, body: text };
    }
  };
  const helper = async <T>(path: string, body: Record<string, unknown> = {}): Promise<T> => {
    const a = await call('POST', `/test_helpers${path}`, { json: body });
    if (a.status !== 200) throw new Error(`${base} test helper ${path}: ${a.status} ${JSON.stringify(a.body)}`);
    return contentOf(a) as T;
  };
  return {
    base,
    call,
    helper,
    /** A new user (test helper) logged in from `ip`. */
    async session(body: Record<string, unknown> = {}, ip = '198.51.100.10'): Promise<Session> {
      const user = await helper<{ platformId: string; apiKey: string }>('/users', body);
      const login = await call('POST', '/user/login', { json: { apiKey: user.apiKey }, ip });
      if (login.status !== 200) throw new Error(`${base} login: ${login.status} ${JSON.stringify(login.body)}`);
      return { ...user, ip, token: contentOf(login).jwt };
    },
    get: (me: Session, path: string) => call('GET', path, { token: me.token, ip: me.ip }),
    post: (me: Session, path: string, json: unknown = {}) => call('POST', path, { json, token: me.token, ip: me.ip }),
    balanceOf: async (me: Session): Promise<number> => contentOf(await call('GET', '/user/balance', me)).balance,
  };
}
export type Client = ReturnType<typeof clientOf>;

/**
 * One user re-pricing its buy order on instance `on`: the order placed at price 1, then updated to
 * 2, 3, ... each price sent once, never again, so the database tells which ones were applied.
 */
export interface Writer {
  me: Session;
  on: number;
  /** The item of the order. */
  item: number;
  /** The highest price sent (its answer may have been lost with an instance). */
  sent: number;
  /** Prices answered 200, in order (the placement's 1 first). */
  acked: number[];
  /** Prices answered the documented 503 with Retry-After (not applied). */
  refused: number[];
  /** It stopped sending: a failure, or an instance gone under it. */
  stopped: boolean;
}

/** `perInstance` writers on each of `clients` (alternating), each a new user from its own IP with an order of `item` at price 1. */
export async function placeWriters(
  clients: Client[],
  item: number,
  perInstance: number,
  ipFrom: number,
): Promise<Writer[]> {
  const writers: Writer[] = [];
  for (let i = 0; i < clients.length * perInstance; i++) {
    const on = i % clients.length;
    const me = await clients[on]!.session({ balance: 1_000_000 }, `198.51.100.${ipFrom + i}`);
    const placed = await clients[on]!.post(me, '/item/buyorder', { itemid: item, value: 1, amount: 10 });
    if (placed.status !== 200) throw new Error(`placing ${me.platformId}'s order: ${JSON.stringify(placed.body)}`);
    writers.push({ me, on, item, sent: 1, acked: [1], refused: [], stopped: false });
  }
  return writers;
}

/** Writers at work: what went wrong, the slowest answer, a wait on their progress, and the stop. */
export interface WriteLoad {
  /** Answers other than 200 and the documented 503 (a 429 among them: the load must stay under the limit), and errors not excused. */
  failures: string[];
  /** The slowest answer, in ms. */
  slowest: number;
  /**
   * Waits, the load running, until each writer had `more` writes more acknowledged (or can send no
   * more), and at least `atLeastMs`; at most two minutes, and no longer once something failed.
   */
  progress(more: number, atLeastMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts every writer re-pricing as fast as its instance answers. The load is bounded by count, not
 * time (`cap`: the updates a writer may have sent so far), so it stays under the general rate limit
 * (seed, Limits: about 600 requests per 60 s per user, route and method) however fast the machine.
 * A writer stops at its first failure; an error `excused` for it (its instance was killed) stops it
 * quietly.
 */
export function startWriting(
  writers: Writer[],
  urls: string[],
  {
    cap,
    answerWithinMs,
    excused = () => false,
  }: {
    cap: (w: Writer) => number;
    answerWithinMs: number;
    excused?: (w: Writer) => boolean;
  },
): WriteLoad {
  let running = true;
  const failures: string[] = [];
  const load: WriteLoad = { failures, slowest: 0, progress, stop };
  const fail = (w: Writer, what: string) => {
    failures.push(`instance ${w.on}, price ${w.sent}: ${what}`);
    w.stopped = true;
  };
  const write = async (w: Writer) => {
    while (running && !w.stopped) {
      // Prices start at 1 (the placement), so `sent - 1` updates went out so far.
      if (w.sent - 1 >= cap(w)) {
        await sleep(20);
        continue;
      }
      const price = ++w.sent;
      const started = Date.now();
      try {
        const res = await fetch(`${urls[w.on]}/item/buyorder/update`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${w.me.token}`,
            'x-forwarded-for': w.me.ip,
          },
          body: JSON.stringify({ itemid: w.item, value: price, amount: 10 }),
          signal: AbortSignal.timeout(answerWithinMs),
        });
        const body = await res.json();
        load.slowest = Math.max(load.slowest, Date.now() - started);
        if (res.status === 200) w.acked.push(price);
        else if (
          res.status === 503 &&
          body.content === SERVICE_UNAVAILABLE &&
          Number(res.headers.get('retry-after')) > 0
        ) {
          w.refused.push(price);
          await sleep(200); // not the documented wait: the tests want load
        } else fail(w, `${res.status}${res.status === 429 ? ' (rate limited)' : ''} ${JSON.stringify(body)}`);
      } catch (error) {
        if (excused(w)) w.stopped = true;
        else fail(w, String(error));
      }
    }
  };
  const done = Promise.all(writers.map(write));
  async function progress(more: number, atLeastMs = 0) {
    const targets = writers.map((w) => w.acked.length + more);
    const started = Date.now();
    const behind = () => writers.some((w, i) => w.acked.length < targets[i]! && !w.stopped && w.sent - 1 < cap(w));
    while ((behind() || Date.now() - started < atLeastMs) && !failures.length && Date.now() - started < 120_000)
      await sleep(100);
  }
  async function stop() {
    running = false;
    await done;
  }
  return load;
}
