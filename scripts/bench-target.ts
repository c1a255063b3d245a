// A benchmark target in its own process (so the load generator does not share its event loop):
// `bare` is an Express 5 app answering a JSON object with res.json, `reference` the reference
// server with `assets` listed assets and `users` buyers holding one order each (on a file store, or
// on PostgreSQL when its database is a postgres:// URL), `scale` the
// reference server in test mode on an empty file store (the scale table seeds it through
// POST /test_helpers/population) that answers the bench's questions over IPC: its heap, the
// longest event-loop pause while its store writes a snapshot, and the startup time (load + index
// build) of a copy of its store; `instance` another reference server on the PostgreSQL database a
// `reference` target seeded (issue 14: two instances, one service); `prism` bare Prism on the
// bundled document, `mock` the mock (Prism behind its front, answer cache on) and `sandbox` the
// reference server in memory with demo data (`npm run sandbox`), for the mock's table
// (bench-mock.ts), `sandboxes` the reference server on PostgreSQL holding `count` sandboxes of
// `users` buyers each (issue 33: worlds written at once). Prints one JSON line {url, ...} once it
// listens.
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import pino from 'pino';
import { startMock } from '../packages/mock/src/mock.ts';
import { startPrism } from '../packages/mock/src/prism.ts';
import { parseConfig } from '../packages/server/src/config.ts';
import { placeOrder } from '../packages/server/src/domain/buy-orders.ts';
import { putAsset, putItem } from '../packages/server/src/domain/catalog.ts';
import { indexesOf } from '../packages/server/src/domain/indexes.ts';
import { Tx } from '../packages/server/src/domain/tx.ts';
import { createUser } from '../packages/server/src/domain/users.ts';
import { composeServer } from '../packages/server/src/server.ts';
import { openStore } from '../packages/server/src/store/store.ts';

const [kind, arg1, arg2, arg3] = process.argv.slice(2);

function announce(server: import('node:http').Server, extra: object) {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.stdout.write(`${JSON.stringify({ url, ...extra })}\n`);
}

/** On SIGTERM (the bench's stop): close the listener and the store, then exit. */
function stopOnSigterm(server: import('node:http').Server, store: { close(): Promise<void> }) {
  process.on('SIGTERM', async () => {
    server.close();
    await store.close();
    process.exit(0);
  });
}

if (kind === 'prism' || kind === 'mock') {
  const document = join(import.meta.dirname, '../openapi/bundled/openapi.json');
  const started = kind === 'prism' ? await startPrism({ document }) : await startMock({ document });
  process.stdout.write(`${JSON.stringify({ url: started.url })}\n`);
  process.on('SIGTERM', async () => {
    await started.stop();
    process.exit(0);
  });
} else if (kind === 'sandbox') {
  const { app, deps } = await composeServer({
    config: parseConfig({ MARKETPLACE_DB: ':memory:' }),
    demoData: true,
    logger: pino({ level: 'silent' }),
  });
  const server = app.listen(0, '127.0.0.1', () => announce(server, {}));
  stopOnSigterm(server, deps.store);
} else if (kind === 'bare') {
  const payload = JSON.parse(readFileSync(arg1!, 'utf8'));
  const app = express();
  app.get('/item/:route/:item', (_req, res) => {
    res.json(payload);
  });
  const server = app.listen(0, '127.0.0.1', () => announce(server, {}));
  // Exits on the bench's stop like the other targets (a CPU profile, when asked for, is written).
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else if (kind === 'scale') {
  const db = arg1!;
  const { app, deps } = await composeServer({
    config: parseConfig({ MARKETPLACE_DB: db, MARKETPLACE_TEST_MODE: '1' }),
    logger: pino({ level: 'silent' }),
  });
  const server = app.listen(0, '127.0.0.1', () => announce(server, {}));
  /** The longest gap between 1 ms timer ticks while `work` runs: how long requests would wait. */
  const longestPause = async (work: () => Promise<void>) => {
    let last = performance.now();
    let max = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      max = Math.max(max, now - last);
      last = now;
    }, 1);
    const started = performance.now();
    await work();
    clearInterval(timer);
    max = Math.max(max, performance.now() - last);
    return { pauseMs: max, tookMs: performance.now() - started };
  };
  const answers: Record<string, () => Promise<object>> = {
    heap: async () => {
      (globalThis as { gc?: () => void }).gc?.();
      return { heap: process.memoryUsage().heapUsed };
    },
    snapshot: async () => {
      const during = await longestPause(() => deps.store.snapshot());
      // The same length of time with no snapshot: what the machine itself pauses this process
      // (scheduling on a busy machine, garbage collection), to read the figure above against.
      const idle = await longestPause(() => new Promise((r) => setTimeout(r, during.tookMs)));
      return { ...during, idlePauseMs: idle.pauseMs };
    },
    startup: async () => {
      const copy = `${db}.startup-copy.json`;
      copyFileSync(db, copy);
      const started = performance.now();
      const store = await openStore(copy);
      indexesOf(store.state);
      const ms = performance.now() - started;
      await store.close();
      for (const f of [copy, `${copy}.journal`, `${copy}.journal.old`]) rmSync(f, { force: true });
      return { startupMs: ms };
    },
  };
  process.on('message', async (m: { ask: string }) => process.send!(await answers[m.ask]!()));
  stopOnSigterm(server, deps.store);
} else if (kind === 'instance') {
  // Seeds nothing: the tokens of the `reference` (or `sandboxes`) target are valid here (shared
  // secrets and sessions); `instance <db> sandboxes` serves the sandboxes too.
  const { app, deps } = await composeServer({
    config: parseConfig({ MARKETPLACE_DB: arg1!, MARKETPLACE_SANDBOXES: arg2 === 'sandboxes' ? '1' : '0' }),
    logger: pino({ level: 'silent' }),
  });
  const server = app.listen(0, '127.0.0.1', () => announce(server, {}));
  stopOnSigterm(server, deps.store);
} else if (kind === 'sandboxes') {
  // `count` sandboxes on the PostgreSQL database `db` (ADR 25), each with `users` buyers holding
  // one order: announces each sandbox's path, its item and its buyers' tokens.
  const [db, count, users] = [arg1!, Number(arg2), Number(arg3)];
  const { app, deps } = await composeServer({
    config: parseConfig({ MARKETPLACE_DB: db, MARKETPLACE_SANDBOXES: '1', MARKETPLACE_SANDBOX_MAX: String(count) }),
    logger: pino({ level: 'silent' }),
  });
  const server = app.listen(0, '127.0.0.1', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const post = async <T>(path: string, body: object, token?: string): Promise<T> => {
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as { content: T };
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(answer)}`);
      return answer.content;
    };
    // One after another: the number is bounded by the registry, whose claims queue anyway.
    const created: { path: string; users: { apiKey: string }[] }[] = [];
    for (let i = 0; i < count; i += 1) created.push(await post('/sandboxes', { users }));
    // The buyers of every sandbox log in and place their order at once (a few seconds, not a minute).
    const sandboxes = await Promise.all(
      created.map(async ({ path, users: made }) => {
        const item = await post<{ id: number }>(`${path}/test_helpers/items`, { name: 'Bench Key', game: 440 });
        const tokens = await Promise.all(
          made.map(async ({ apiKey }) => {
            const { jwt } = await post<{ jwt: string }>(`${path}/user/login`, { apiKey });
            await post(`${path}/item/buyorder`, { itemid: item.id, value: 50, amount: 10 }, jwt);
            return jwt;
          }),
        );
        return { path, item: item.id, tokens };
      }),
    );
    announce(server, { sandboxes });
  });
  stopOnSigterm(server, deps.store);
} else {
  const [db, assets, users] = [arg1!, Number(arg2), Number(arg3)];
  const { app, deps } = await composeServer({
    config: parseConfig({ MARKETPLACE_DB: db }),
    logger: pino({ level: 'silent' }),
  });
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
  await deps.store.commit(tx);
  await deps.store.snapshot();
  const server = app.listen(0, '127.0.0.1', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const tokens: string[] = [];
    for (const apiKey of keys) {
      const res = await fetch(`${url}/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiKey }),
      });
      tokens.push(((await res.json()) as { content: { jwt: string } }).content.jwt);
    }
    announce(server, { item: item.id, tokens });
  });
  stopOnSigterm(server, deps.store);
}
