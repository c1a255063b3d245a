// A sandbox inside a test (issue 25): the reference server in this process, in test mode on an
// in-memory store, listening on a free port, with a few users ready and the test helpers as
// functions. Frontend tests (vitest, Playwright fixtures) get a world of their own per test or per
// worker without starting a process or sharing state with another test.
import type { TestHelperComponents } from '@marketplace/types';
import pino from 'pino';
import { parseConfig } from './config.ts';
import { type DemoAccount, demoAccounts, seedDemoData } from './demo-data.ts';
import { startServer } from './server.ts';

/** A user of the sandbox: log in with its `apiKey` (`POST /user/login`). */
export interface SandboxUser {
  platformId: string;
  apiKey: string;
}

export interface SandboxOptions {
  /**
   * The demo world of `npm start` (Alice, Bob, ... with their documented API keys, the catalogue,
   * listings, buy orders, sales, Alice's cart), at start and again after every `reset`. Default:
   * `MARKETPLACE_DEMO` of `env` (the test process's own environment is not read).
   */
  demo?: boolean;
  /**
   * Users created at start and again after every `reset` (`pop-0`, `pop-1`, ... as API keys), after
   * the demo world's: 0 to 100, default 2 (0 with `demo`: the demo world has its accounts).
   */
  users?: number;
  /** Their balance in cents. Default 1,000,000. */
  balance?: number;
  /** More environment variables of the server (`MARKETPLACE_BLOCKED_COUNTRIES`, `LOG_LEVEL`, ...). */
  env?: Record<string, string>;
}

type HelperSchemas = TestHelperComponents['schemas'];

/** What a population call adds (`POST /test_helpers/population`): the test-helpers document's request, its defaults left out. */
export type PopulationRequest = Pick<HelperSchemas['PopulationRequest'], 'users' | 'items' | 'assets'> &
  Partial<HelperSchemas['PopulationRequest']>;

/** What a population call answers: the test-helpers document's `Population`. */
export type PopulationAnswer = HelperSchemas['Population'];

export interface Sandbox {
  /** The base URL of the API (`http://127.0.0.1:<port>`), test helpers included. */
  url: string;
  /** The users created at start; the same keys and platform IDs again after `reset`. */
  users: SandboxUser[];
  /** With `demo`, the demo world's accounts (admins with random keys, the same after `reset`); else empty. */
  demoAccounts: DemoAccount[];
  /** The server's clock (every time-based rule reads it); each call resolves to the new time, unix seconds. */
  clock: { advance(seconds: number): Promise<number>; set(unixSeconds: number): Promise<number> };
  /** Empties the world (`POST /test_helpers/reset`) and creates the same users again. */
  reset(): Promise<void>;
  /** Adds a population on top of what exists (`POST /test_helpers/population`). */
  population(request: PopulationRequest): Promise<PopulationAnswer>;
  /** Stops the server; its state is gone. */
  close(): Promise<void>;
}

/** Calls a test helper of the server at `url`; resolves to its `content`, throws on a refusal. */
export async function callHelper<T>(url: string, path: string, body: object = {}): Promise<T> {
  const res = await fetch(`${url}/test_helpers${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { content: unknown };
  if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${JSON.stringify(json.content)}`);
  return json.content as T;
}

/** Starts a sandbox: the reference server in this process, test mode, memory store, a free port. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { balance = 1_000_000, env = {} } = options;
  const config = parseConfig({
    MARKETPLACE_DB: ':memory:',
    MARKETPLACE_TEST_MODE: '1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const demo = options.demo ?? config.demo;
  const users = options.users ?? (demo ? 0 : 2);
  // The population answer lists the first 100 users' keys only.
  if (!Number.isSafeInteger(users) || users < 0 || users > 100) throw new RangeError('users: an integer from 0 to 100');
  const server = await startServer({ config, demoData: demo, logger: pino({ level: config.logLevel }) });
  // fetch keeps a connection until shortly before the timeout the server announces; with Node's
  // 5 s the two timers cross on a loaded machine and a reused socket fails (routes/test-harness.fixture.ts).
  server.server.keepAliveTimeout = 65_000;
  const { url } = server;
  const populate = () =>
    callHelper<PopulationAnswer>(url, '/population', { users, items: 0, assets: 0, balance }).then((p) =>
      p.platformIds.map((platformId, n) => ({ platformId, apiKey: p.apiKeys[n]! })),
    );
  const sandboxUsers = users > 0 ? await populate() : [];
  const admins = server.demoAdmins ?? [];
  const clock = async (body: object) => (await callHelper<{ now: number }>(url, '/clock', body)).now;
  return {
    url,
    users: sandboxUsers,
    demoAccounts: demo ? demoAccounts(admins) : [],
    clock: { advance: (seconds) => clock({ advance: seconds }), set: (unixSeconds) => clock({ set: unixSeconds }) },
    async reset() {
      await callHelper(url, '/reset');
      // The admins keep their keys: a test may have read them before.
      if (demo)
        await seedDemoData(
          server.deps,
          admins.map((a) => a.apiKey),
        );
      if (users > 0) await populate(); // population numbering starts over on an empty world: the same users
    },
    population: (request) => callHelper<PopulationAnswer>(url, '/population', request),
    async close() {
      server.server.closeIdleConnections();
      await server.close();
    },
  };
}
