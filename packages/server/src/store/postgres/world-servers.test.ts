// Two test-mode servers on one PostgreSQL database answer as one service for what lives outside the
// engine (ADR 19 "What else is shared"): the test clock, the geo-IP table, the platform
// simulator, the outbox, the rate-limit windows, the computed prices, and a reset on one of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Postgres, postgresMissing, startPostgres } from '../../../../../scripts/postgres.ts';
import { LOGIN } from '../../domain/messages.ts';
import { startTestServer, type TestServer } from '../../routes/test-harness.fixture.ts';

const missing = postgresMissing();
let cluster: Postgres;
let a: TestServer;
let b: TestServer;
const T = 1_800_000_000;

beforeAll(async () => {
  if (missing) return;
  cluster = await startPostgres();
  const env = { MARKETPLACE_DB: await cluster.createDatabase('servers'), MARKETPLACE_BLOCKED_COUNTRIES: 'KP' };
  a = await startTestServer({ env });
  b = await startTestServer({ env });
}, 120_000);
afterAll(async () => {
  for (const t of [a, b]) {
    if (!t) continue;
    await t.close();
    await t.deps.world.close();
    await t.deps.store.close();
  }
  await cluster?.stop();
});

const get = async (t: TestServer, path: string, jwt?: string) => {
  const res = await fetch(`${t.baseUrl}${path}`, { headers: jwt ? { authorization: `Bearer ${jwt}` } : {} });
  return { status: res.status, body: await res.json() };
};

/** A test helper call; its status, to be 200. */
const helper = async (t: TestServer, path: string, body: Record<string, unknown>) =>
  (
    await fetch(`${t.baseUrl}/test_helpers${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).status;

describe.skipIf(missing)(
  `the outside world of two servers on one database${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    it('moves the clock of both when one is moved, and a reset on one brings both back to real time', async () => {
      await a.reset();
      expect(await a.clock({ set: T })).toEqual({ now: T });
      const { body } = await get(b, '/test_helpers/clock');
      expect(body.content.now - T).toBeLessThanOrEqual(2);
      await b.reset();
      const after = await get(a, '/test_helpers/clock');
      expect(Math.abs(after.body.content.now - Math.floor(Date.now() / 1000))).toBeLessThanOrEqual(2);
    }, 60_000);

    it('adds up advances sent to both servers at once: none is lost, the clock never goes back', async () => {
      await a.reset();
      await a.clock({ set: T });
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).clock({ advance: 1_000 })),
      );
      const { body } = await get(b, '/test_helpers/clock');
      expect(body.content.now - (T + 12_000)).toBeGreaterThanOrEqual(0);
      expect(body.content.now - (T + 12_000)).toBeLessThanOrEqual(5);
      // Each answer is the clock just after its own advance: twelve different times, 1,000 s apart.
      const steps = answers.map((r) => Math.round((r.now - T) / 1_000)).sort((x, y) => x - y);
      expect(steps).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    }, 60_000);

    it('refuses a login on one server from a country the other was told of', async () => {
      await a.reset();
      const { apiKey } = await a.user();
      expect(await helper(a, '/geoip', { ip: '127.0.0.1', country: 'KP' })).toBe(200);
      const { response, error } = await b.api.POST('/user/login', { body: { apiKey } });
      expect([response.status, (error as { content?: unknown })?.content]).toEqual([403, LOGIN.countryBlocked]);
    }, 60_000);

    it('counts a route limit across both servers: the second GET /item/prices in 300 s is 429 on the other', async () => {
      await a.reset();
      await a.clock({ set: T });
      const jwt = await a.login((await a.user()).apiKey);
      expect((await get(a, '/item/prices?game=440', jwt)).status).toBe(200);
      expect((await get(b, '/item/prices?game=440', jwt)).status).toBe(429);
      await b.clock({ advance: 300 });
      expect((await get(a, '/item/prices?game=440', jwt)).status).toBe(200);
    }, 60_000);

    it('shows inventories and outbox messages set through one server on the other, until a reset on it', async () => {
      await a.reset();
      const { platformId } = await b.user();
      const item = await b.item({ name: 'Shared Hat' });
      const assets = [{ assetId: 'a1', itemId: item.id }];
      expect(await helper(b, '/platform/inventory', { platformId, game: 440, assets })).toBe(200);
      await get(a, '/test_helpers/clock'); // any request: it syncs
      expect(a.deps.platform.inventory(platformId, 440)).toEqual([{ assetId: 'a1', itemId: item.id }]);
      a.deps.outbox.add({
        channel: 'email',
        to: 'x@example.com',
        kind: 'k',
        subject: 's',
        body: 'b',
        data: {},
        timestamp: 1,
      });
      await a.deps.world.flush();
      const listed = await get(b, '/test_helpers/outbox');
      expect(listed.body.content.messages.map((m: { to: string }) => m.to)).toEqual(['x@example.com']);
      await a.reset();
      await get(b, '/test_helpers/clock');
      expect([b.deps.platform.inventory(platformId, 440), b.deps.outbox.list()]).toEqual([[], []]);
    }, 60_000);

    it('reuses on one server the prices the other computed (GET /item/pricing/bulk)', async () => {
      await a.reset();
      const item = await a.item({ name: 'Priced Hat' });
      const jwt = await a.login((await a.user()).apiKey);
      const first = await get(a, `/item/pricing/bulk?items=${item.id}`, jwt);
      const second = await get(b, `/item/pricing/bulk?items=${item.id}`, jwt);
      expect([first.body.content.cached_items, second.body.content.cached_items]).toEqual([0, 1]);
      expect(second.body.content.items[0].last_updated).toBe(first.body.content.items[0].last_updated);
    }, 60_000);
  },
);
