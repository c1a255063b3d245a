// Many sandboxes on one server (issue 25): each world sees only itself (state, clock, rate limits,
// outbox), the number and memory are bounded with a documented refusal, and idle ones go.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from './config.ts';
import { DEMO_KEYS } from './demo-data.ts';
import { INVALID_DEMO, SANDBOX_MEMORY_FULL, Sandboxes, type SandboxServer, sandboxesFull } from './sandboxes.ts';
import { startServer } from './server.ts';

type Started = Awaited<ReturnType<typeof startServer>>;

async function start(env: Record<string, string>): Promise<Started> {
  const config = parseConfig({ MARKETPLACE_DB: ':memory:', PORT: '0', LOG_LEVEL: 'silent', ...env });
  const started = await startServer({ config, logger: pino({ level: 'silent' }) });
  started.server.keepAliveTimeout = 65_000; // see routes/test-harness.ts
  return started;
}

async function send(url: string, method = 'GET', body?: object, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method,
    headers: body ? { 'content-type': 'application/json', ...headers } : headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
  return { status: res.status, headers: res.headers, json: (await res.json()) as { content: any } };
}

interface Created {
  id: string;
  path: string;
  url: string;
  users: { platformId: string; apiKey: string }[];
  idleSeconds: number;
  demoAccounts?: { name: string; platformId: string; apiKey: string; admin: boolean }[];
}

async function create(base: string, body: object = {}): Promise<Created> {
  const res = await send(`${base}/sandboxes`, 'POST', body);
  expect(res.status).toBe(200);
  return res.json.content as Created;
}

async function jwtOf(url: string, apiKey: string): Promise<string> {
  return (await send(`${url}/user/login`, 'POST', { apiKey })).json.content.jwt;
}

describe('POST /sandboxes on a test-mode server', () => {
  let server: Started;
  beforeAll(async () => {
    server = await start({ MARKETPLACE_TEST_MODE: '1', MARKETPLACE_SANDBOX_MAX: '2' });
  });
  afterAll(() => server?.close());

  it('Given two sandboxes, each has its users, and its reset, clock and rate limits do not reach the other', async () => {
    const a = await create(server.url, { users: 1, balance: 700 });
    const b = await create(server.url);
    expect(a.url).toBe(`${server.url}/sandboxes/${a.id}`);
    expect(a.users).toEqual([{ platformId: expect.stringMatching(/^\d{17}$/), apiKey: 'pop-0' }]);
    expect(b.users).toHaveLength(2);
    // The same platform ID and key in both worlds: nothing below may be keyed on them alone.
    expect(b.users[0]).toEqual(a.users[0]);

    const jwtA = await jwtOf(a.url, 'pop-0');
    const jwtB = await jwtOf(b.url, 'pop-0');
    const balance = async (url: string, jwt: string) =>
      (await send(`${url}/user/balance`, 'GET', undefined, { authorization: `Bearer ${jwt}` })).json.content.balance;
    expect(await balance(a.url, jwtA)).toBe(700);
    expect(await balance(b.url, jwtB)).toBe(1_000_000);
    // A token of one world is not valid in the other (secrets of its own).
    expect((await send(`${b.url}/user/balance`, 'GET', undefined, { authorization: `Bearer ${jwtA}` })).status).toBe(
      403,
    );

    // Rate limits: /item/prices admits one request per 5 minutes per API key.
    const prices = (url: string, jwt: string) =>
      send(`${url}/item/prices?game=440`, 'GET', undefined, { authorization: `Bearer ${jwt}` });
    expect((await prices(a.url, jwtA)).status).toBe(200);
    const limited = await prices(a.url, jwtA);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await prices(b.url, jwtB)).status).toBe(200);

    // The clock.
    const now = (await send(`${b.url}/test_helpers/clock`)).json.content.now as number;
    const later = (await send(`${a.url}/test_helpers/clock`, 'POST', { advance: 86_400 })).json.content.now;
    expect(later).toBeGreaterThanOrEqual(now + 86_400);
    expect((await send(`${b.url}/test_helpers/clock`)).json.content.now).toBeLessThan(now + 3_600);

    // State: an item in A only.
    const item = await send(`${a.url}/test_helpers/items`, 'POST', { id: 1, name: 'Key', game: 440 });
    expect(item.status).toBe(200);
    expect((await send(`${b.url}/item/details/1`)).status).not.toBe(200);

    // A reset of B leaves A's item, balance and clock alone.
    expect((await send(`${b.url}/test_helpers/reset`, 'POST', {})).status).toBe(200);
    expect((await send(`${b.url}/user/login`, 'POST', { apiKey: 'pop-0' })).status).not.toBe(200); // B's users are gone
    expect((await send(`${a.url}/item/details/1`)).status).toBe(200);
    expect(await balance(a.url, jwtA)).toBe(700);
    expect((await send(`${a.url}/test_helpers/clock`)).json.content.now).toBeGreaterThanOrEqual(now + 86_400);
    // And the server's own world saw none of it.
    expect((await send(`${server.url}/item/details/1`)).status).not.toBe(200);

    // Full at two: the documented refusal, with Retry-After.
    const full = await send(`${server.url}/sandboxes`, 'POST', {});
    expect(full.status).toBe(503);
    expect(full.json).toEqual({ err: true, success: false, content: sandboxesFull(2) });
    expect(full.headers.get('retry-after')).toMatch(/^\d+$/);

    // A deleted sandbox is gone, and makes room.
    expect((await send(`${a.url}`, 'DELETE')).status).toBe(200);
    expect((await send(`${a.url}/test_helpers/clock`)).status).toBe(404);
    expect((await send(`${a.url}`, 'DELETE')).status).toBe(404);
    await create(server.url, { users: 0 });
  });

  it.each([
    [{ users: 101 }, 'Invalid users parameter: an integer from 0 to 100'],
    [{ users: 'two' }, 'Invalid users parameter: an integer from 0 to 100'],
    [{ balance: -1 }, 'Invalid balance parameter: an integer from 0 to 10000000000'],
    [{ demo: 'yes' }, INVALID_DEMO],
  ])('Given %j, the answer is a 300 with its message', async (body, message) => {
    const res = await send(`${server.url}/sandboxes`, 'POST', body);
    expect([res.status, res.json.content]).toEqual([300, message]);
  });

  it('Given an unknown sandbox, every path under it is not found', async () => {
    const res = await send(`${server.url}/sandboxes/0000000000000000/item/listing/1`);
    expect([res.status, res.json.content]).toEqual([404, 'Not found']);
  });
});

/** The rows of `apiKey`'s cart in the world at `url`. */
async function cartOf(url: string, apiKey: string): Promise<{ item_id: number; count: number }[]> {
  const jwt = await jwtOf(url, apiKey);
  return (await send(`${url}/cart/get`, 'GET', undefined, { authorization: `Bearer ${jwt}` })).json.content.cart;
}

describe('POST /sandboxes with the demo world', { timeout: 120_000 }, () => {
  let server: Started;
  afterAll(() => server?.close());

  it("Given demo: true, the sandbox holds npm start's accounts and rows and answers their keys; a reset empties it", async () => {
    server = await start({ MARKETPLACE_TEST_MODE: '1' });
    const demo = await create(server.url, { demo: true });
    expect(demo.users).toEqual([]); // the demo world's accounts only
    expect(demo.demoAccounts?.map((a) => [a.name, a.admin])).toEqual([
      ['Alice', false],
      ['Bob', false],
      ['Admin', true],
      ['Carol', false],
      ['Dave', false],
      ['Erin', false],
      ['Frank', false],
      ['Grace', false],
      ['Heidi', true],
      ['Ivan', false],
    ]);
    expect(demo.demoAccounts?.[0]).toEqual({
      name: 'Alice',
      platformId: '76561198000000001',
      apiKey: DEMO_KEYS.alice,
      admin: false,
    });
    const cart = await cartOf(demo.url, DEMO_KEYS.alice);
    expect(cart.reduce((keys, row) => keys + row.count, 0)).toBe(2);
    expect(new Set(cart.map((row) => row.item_id))).toEqual(new Set([1]));
    // The admins' random keys open the admin routes of this sandbox.
    const admin = demo.demoAccounts!.find((a) => a.admin)!;
    const jwt = await jwtOf(demo.url, admin.apiKey);
    expect((await send(`${demo.url}/infos/admin`, 'GET', undefined, { authorization: `Bearer ${jwt}` })).status).toBe(
      200,
    );
    // The server's own world and a sandbox without demo stay empty.
    expect((await send(`${server.url}/user/login`, 'POST', { apiKey: DEMO_KEYS.alice })).status).not.toBe(200);
    const plain = await create(server.url);
    expect([plain.users.length, plain.demoAccounts]).toEqual([2, undefined]);
    expect((await send(`${plain.url}/user/login`, 'POST', { apiKey: DEMO_KEYS.alice })).status).not.toBe(200);
    // Population users come after the demo accounts when asked for.
    const both = await create(server.url, { demo: true, users: 1 });
    expect(both.users.map((u) => u.apiKey)).toEqual(['pop-0']);
    expect(await cartOf(both.url, DEMO_KEYS.bob)).toEqual([]);

    expect((await send(`${demo.url}/test_helpers/reset`, 'POST', {})).status).toBe(200);
    expect((await send(`${demo.url}/user/login`, 'POST', { apiKey: DEMO_KEYS.alice })).status).not.toBe(200);
  });

  it('Given a server started with demo data (MARKETPLACE_DEMO=1), its sandboxes hold the demo world unless asked not to', async () => {
    const demoServer = await start({ MARKETPLACE_TEST_MODE: '1', MARKETPLACE_DEMO: '1' });
    try {
      const byDefault = await create(demoServer.url);
      expect(byDefault.demoAccounts).toHaveLength(10);
      expect(await cartOf(byDefault.url, DEMO_KEYS.alice)).not.toEqual([]);
      const empty = await create(demoServer.url, { demo: false });
      expect([empty.users.length, empty.demoAccounts]).toEqual([2, undefined]);
      expect((await send(`${empty.url}/user/login`, 'POST', { apiKey: DEMO_KEYS.alice })).status).not.toBe(200);
    } finally {
      await demoServer.close();
    }
  });
});

describe('sandboxes outside test mode, idle and memory bounds', { timeout: 120_000 }, () => {
  let server: Started;
  afterAll(() => server?.close());

  it('Given --sandboxes without test mode, a sandbox has the test helpers and the server has none; an idle one goes', async () => {
    // An idle time of 3 s: on a busy machine a first request on a cold path took over half a second,
    // and with 1 s the sandbox went between two requests meant to keep it.
    server = await start({ MARKETPLACE_SANDBOXES: '1', MARKETPLACE_SANDBOX_IDLE: '3' });
    const a = await create(server.url);
    // Requests keep it: six of them over 4.5 s, each within the idle time of the one before.
    for (let i = 0; i < 6; i += 1) {
      expect((await send(`${a.url}/test_helpers/clock`)).status).toBe(200);
      await new Promise((done) => setTimeout(done, 750));
    }
    expect((await send(`${server.url}/test_helpers/clock`)).status).toBe(404);
    await expect
      // Each poll is a use: polled less often than the idle time, the sandbox goes between two polls.
      .poll(async () => (await send(`${a.url}/test_helpers/clock`)).status, { timeout: 30_000, interval: 4_500 })
      .toBe(404);
  });

  it('Given a server without test mode or --sandboxes, POST /sandboxes is not found', async () => {
    const plain = await start({});
    try {
      expect((await send(`${plain.url}/sandboxes`, 'POST', {})).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('Given a memory budget below what the process holds, no sandbox is created', async () => {
    const tight = await start({ MARKETPLACE_SANDBOXES: '1', MARKETPLACE_SANDBOX_MEMORY: '16' });
    try {
      const res = await send(`${tight.url}/sandboxes`, 'POST', {});
      expect([res.status, res.json.content]).toEqual([503, SANDBOX_MEMORY_FULL]);
    } finally {
      await tight.close();
    }
  });
});

/** A sandbox without a world: its population as given, each close counted by `closed`. */
const fakeServer = (populate: SandboxServer['populate'], closed: () => void): SandboxServer => ({
  handle: () => {},
  populate,
  seedDemo: async () => [],
  close: async () => closed(),
});

describe('the idle sweep and a sandbox in use', () => {
  it('Given a request (or the set-up) outlasting the idle time, the sandbox stays until its idle time after the answer ends', async () => {
    let now = 0;
    let closed = 0;
    let finishSetUp = () => {};
    const server = fakeServer(
      () =>
        new Promise((done) => {
          finishSetUp = () => done([]);
        }),
      () => {
        closed += 1;
      },
    );
    const sandboxes = new Sandboxes({ max: 2, idleSeconds: 1, memoryMb: undefined }, async () => server, {
      now: () => now,
    });
    try {
      // The creation's set-up (a population) takes 5 s: the sandbox is busy, not idle.
      const creating = sandboxes.create(1, 0);
      await new Promise((done) => setImmediate(done));
      now = 5_000;
      await sandboxes.removeIdle();
      expect(closed).toBe(0);
      finishSetUp();
      const created = await creating;
      expect('id' in created).toBe(true);
      const id = 'id' in created ? created.id : '';
      // A request that runs 3 s is not swept; its idle time starts when it ends.
      const release = sandboxes.inUse(id);
      now = 8_000;
      await sandboxes.removeIdle();
      expect(closed).toBe(0);
      release();
      now = 8_999;
      await sandboxes.removeIdle();
      expect(closed).toBe(0);
      now = 9_000;
      await sandboxes.removeIdle();
      expect(closed).toBe(1);
    } finally {
      await sandboxes.close();
    }
  });

  it('Given the process stalled past two sweep periods, the first tick after it judges nothing: the requests queued meanwhile are read first', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let perf = 0;
    const ticking = vi.spyOn(performance, 'now').mockImplementation(() => perf);
    let now = 0;
    let closed = 0;
    const server = fakeServer(
      async () => [],
      () => {
        closed += 1;
      },
    );
    // idleSeconds 1: the sweep ticks every 250 ms.
    const sandboxes = new Sandboxes({ max: 2, idleSeconds: 1, memoryMb: undefined }, async () => server, {
      now: () => now,
    });
    try {
      await sandboxes.create(0, 0);
      // An 8 s stall: the tick comes 8 s after the last one, with the sandbox idle by the clock.
      now = 8_000;
      perf = 8_000;
      await vi.advanceTimersByTimeAsync(250);
      expect(closed).toBe(0);
      // The next tick on time judges it idle (no request came in).
      now = 8_250;
      perf = 8_250;
      await vi.advanceTimersByTimeAsync(250);
      expect(closed).toBe(1);
    } finally {
      await sandboxes.close();
      ticking.mockRestore();
      vi.useRealTimers();
    }
  });
});
