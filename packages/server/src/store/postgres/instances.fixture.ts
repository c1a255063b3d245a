// Several reference-server processes on one PostgreSQL database (issue 14), as an operator runs
// them: `node src/main.ts` each, with the same secrets, on ports of their own. Tests kill and
// restart them; a round-robin proxy in front makes them one address whose requests alternate
// between the instances, as a load balancer's would.
import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';

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
