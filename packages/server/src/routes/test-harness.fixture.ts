// An in-process server for the route tests (house style: "Server tests in-process"): the composed
// app on port 0 in test mode, so every response is validated against the document and a schema
// mismatch is a 500; a client typed by the document; and the test helpers to set up state. It
// listens as main.ts does, through the protocol layer (`listen`, the contract's protocolServer):
// the suite's own run and the mutation harness (ADR 0037) judge the server as it ships, where Node's
// parser answers a request past its header count before the app's guard sees it.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { paths } from '@marketplace/types';
import createClient from 'openapi-fetch';
import pino from 'pino';
import { parseConfig } from '../config.ts';
import type { Asset, Item, Sale } from '../domain/state.ts';
import { Tx } from '../domain/tx.ts';
import { composeServer, listen } from '../server.ts';
import type { StoreOptions } from '../store/store.ts';

// biome-ignore lint/suspicious/noExplicitAny: helper bodies are free-form JSON
type Body = Record<string, any>;

/**
 * Starts a test-mode server with an in-memory store, empty unless `demoData`; `env` adds to or
 * overrides that configuration (a blocked country, a file store).
 */
export async function startTestServer({
  demoData = false,
  env = {},
  store,
}: {
  demoData?: boolean;
  env?: Record<string, string>;
  /** Options of a file store (a failing file port). */
  store?: StoreOptions;
} = {}) {
  const config = parseConfig({ MARKETPLACE_DB: ':memory:', MARKETPLACE_TEST_MODE: '1', ...env });
  const { app, deps, demoAdmins } = await composeServer({ config, demoData, logger: pino({ level: 'silent' }), store });
  const server: Server = await listen(app, { port: 0, host: '127.0.0.1' });
  // Node closes an idle keep-alive connection after 5 s, and fetch reuses one until shortly before
  // the timeout the server announces: on a loaded machine (a test that starts another server
  // takes seconds) the two timers crossed and the next request on the reused socket failed with
  // ECONNRESET. With a minute announced, no gap between two requests of a test comes near it.
  server.keepAliveTimeout = 65_000;
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const api = createClient<paths>({ baseUrl, fetch });

  /** Calls a test helper and returns its `content`; a refused helper call fails the test. */
  async function helper<T>(path: string, body: Body = {}): Promise<T> {
    const res = await fetch(`${baseUrl}/test_helpers${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.content as T;
  }

  /** Commits records the way the test helpers do, for state no helper creates yet. */
  async function write(command: (tx: Tx) => void): Promise<void> {
    const tx = new Tx(deps.store.state);
    command(tx);
    await deps.store.commit(tx);
  }

  return {
    api,
    deps,
    baseUrl,
    /** The demo admins and their random API keys (with `demoData`). */
    demoAdmins,
    reset: () => helper('/reset'),
    user: (body: Body = {}) => helper<{ platformId: string; apiKey: string }>('/users', body),
    item: (body: Body) => helper<Item>('/items', { game: 440, ...body }),
    asset: (body: Body) => helper<Asset>('/assets', body),
    buyOrder: (body: Body) => helper('/buyorders', body),
    /** Listings of `item` at `prices`, in that order, by `owner` or by a new seller. */
    async listed(item: Pick<Item, 'id'>, prices: number[], owner?: string) {
      const seller = owner ?? (await helper<{ platformId: string }>('/users')).platformId;
      const assets: Asset[] = [];
      for (const price of prices)
        assets.push(await helper<Asset>('/assets', { owner: seller, itemId: item.id, state: 1, price }));
      return { seller, assets };
    },
    clock: (body: { advance: number } | { set: number }) => helper<{ now: number }>('/clock', body),
    now: async () => (await helper<{ now: number }>('/clock', { advance: 0 })).now,
    /** A JWT of the user with this API key (POST /user/login). */
    async login(apiKey: string): Promise<string> {
      const { data, response } = await api.POST('/user/login', { body: { apiKey } });
      if (response.status !== 200 || !data) throw new Error(`login failed: ${response.status}`);
      return (data.content as { jwt: string }).jwt;
    },
    /** Request options carrying a JWT. */
    auth: (jwt: string) => ({ headers: { authorization: `Bearer ${jwt}` } }),
    /** Sales come from purchases (part 2) and have no test helper: they are written directly. */
    sales: (rows: Omit<Sale, 'id' | 'assetId' | 'fee'>[]) =>
      write((tx) => {
        for (const row of rows) {
          const id = tx.nextId('sales');
          tx.put('sales', id, { id, assetId: String(30_000_000_000 + id), fee: 0, ...row });
        }
      }),
    /** A short URL has no test helper either (POST /user/updateShortUrl is part 2). */
    shortUrl: (platformId: string, shorturl: string) =>
      write((tx) => {
        tx.put('users', platformId, { ...tx.get('users', platformId)!, shorturl });
      }),
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeIdleConnections();
      }),
  };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** The status and envelope A `content` of a refused call (openapi-fetch puts a 300 in `error`). */
export const refusal = (r: { response: Response; error?: unknown }) => [
  r.response.status,
  (r.error as { content?: unknown } | undefined)?.content,
];
