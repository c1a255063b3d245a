// Sandboxes on two instances of one PostgreSQL database (issue 25, ADR 25): a sandbox created
// through one instance is served by the other, each world stays its own across instances (reset,
// clock, rate-limit windows, state), the bound on their number is the service's, a deletion
// reaches every instance, and the sandboxes survive a restart of both instances.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Postgres, postgresMissing, startPostgres } from '../../../../../scripts/postgres.ts';
import { sandboxesFull } from '../../sandboxes.ts';
import { type Answer, clientOf, contentOf, type Instances, messageOf, startInstances } from './instances.fixture.ts';

const missing = postgresMissing();
let cluster: Postgres;
let instances: Instances | undefined;

interface Created {
  id: string;
  path: string;
  url: string;
  users: { platformId: string; apiKey: string }[];
}

describe.skipIf(missing)(`sandboxes on two PostgreSQL instances${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await instances?.stopAll();
    await cluster?.stop();
  });

  it('serves a sandbox from both instances, keeps each world its own, bounds them service-wide and keeps them across restarts', async () => {
    const db = await cluster.createDatabase('sandboxes');
    instances = await startInstances(db, 2, { MARKETPLACE_SANDBOX_MAX: '3' });
    const [a, b] = instances.urls.map(clientOf) as [ReturnType<typeof clientOf>, ReturnType<typeof clientOf>];
    const create = async (on: typeof a, body: object): Promise<Created> => {
      const res = await on.call('POST', '/sandboxes', { json: body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return contentOf(res) as Created;
    };
    /** Sandbox `s` through instance `on`: the same calls as to a server's root. */
    const via = (on: typeof a, s: Created) => clientOf(`${on.base}${s.path}`);
    const login = async (on: typeof a, s: Created, apiKey = 'pop-0'): Promise<Answer> =>
      via(on, s).call('POST', '/user/login', { json: { apiKey }, ip: '198.51.100.7' });
    const jwtOf = async (on: typeof a, s: Created): Promise<string> => {
      const res = await login(on, s);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return contentOf(res).jwt;
    };
    const withJwt = (on: typeof a, s: Created, path: string, jwt: string) =>
      fetch(`${on.base}${s.path}${path}`, {
        headers: { authorization: `Bearer ${jwt}`, 'x-forwarded-for': '198.51.100.7' },
      });

    // Created through A, served by B: its users log in there and see their balance.
    const one = await create(a, { users: 1, balance: 700 });
    const two = await create(b, {});
    expect(one.url).toBe(`${a.base}/sandboxes/${one.id}`);
    const jwtOne = await jwtOf(b, one);
    const jwtTwo = await jwtOf(a, two);
    expect(await (await withJwt(b, one, '/user/balance', jwtOne)).json()).toMatchObject({ content: { balance: 700 } });
    expect(await (await withJwt(b, two, '/user/balance', jwtTwo)).json()).toMatchObject({
      content: { balance: 1_000_000 },
    });
    // A token of one sandbox is no token of the other (secrets of its own), on either instance.
    expect((await withJwt(b, two, '/user/balance', jwtOne)).status).toBe(403);
    // Unknown IDs are not found on both.
    for (const on of [a, b]) {
      const res = await on.call('GET', '/sandboxes/0123456789abcdef/test_helpers/clock');
      expect([res.status, messageOf(res)]).toEqual([404, 'Not found']);
      expect((await on.call('GET', '/sandboxes/not-an-id/test_helpers/clock')).status).toBe(404);
    }

    // Rate limits: /item/prices admits one request per 5 minutes per API key. The window of one
    // sandbox's pop-0 is the same on both instances, and not the other sandbox's pop-0.
    expect((await withJwt(a, one, '/item/prices?game=440', jwtOne)).status).toBe(200);
    expect((await withJwt(b, one, '/item/prices?game=440', jwtOne)).status).toBe(429);
    expect((await withJwt(b, two, '/item/prices?game=440', jwtTwo)).status).toBe(200);

    // The clock: moved through A, seen through B; the other sandbox's stays.
    const now: number = (await via(b, two).call('GET', '/test_helpers/clock')).body.content.now;
    await via(a, one).helper('/clock', { advance: 86_400 });
    expect((await via(b, one).call('GET', '/test_helpers/clock')).body.content.now).toBeGreaterThanOrEqual(
      now + 86_400,
    );
    expect((await via(a, two).call('GET', '/test_helpers/clock')).body.content.now).toBeLessThan(now + 3_600);

    // State: an item created through B in one is seen through A there, and not in two.
    await via(b, one).helper('/items', { id: 1, name: 'Key', game: 440 });
    expect((await via(a, one).call('GET', '/item/details/1')).status).toBe(200);
    expect((await via(a, two).call('GET', '/item/details/1')).status).not.toBe(200);
    expect((await a.call('GET', '/item/details/1')).status).not.toBe(200); // nor in the main world

    // A reset of two through A leaves one's item, balance and clock alone, seen through B.
    await via(a, two).helper('/reset', {});
    expect((await login(b, two)).status).not.toBe(200); // two's users are gone
    expect((await via(b, one).call('GET', '/item/details/1')).status).toBe(200);
    expect(await (await withJwt(b, one, '/user/balance', jwtOne)).json()).toMatchObject({ content: { balance: 700 } });
    expect((await via(b, one).call('GET', '/test_helpers/clock')).body.content.now).toBeGreaterThanOrEqual(
      now + 86_400,
    );

    // The bound is the service's: three in all, whichever instance is asked.
    const three = await create(a, { users: 0 });
    const full = await b.call('POST', '/sandboxes', { json: {} });
    expect([full.status, messageOf(full)]).toEqual([503, sandboxesFull(3)]);
    // A deletion through B makes room, and reaches A, which created the sandbox and holds a copy
    // (used just before): its first request there after the deletion is not found, never a 500
    // (A asks the registry when the sandbox's tables fail it), whether a test helper or an API
    // call, and A's copy is closed.
    expect((await via(a, three).call('GET', '/test_helpers/clock')).status).toBe(200);
    expect((await via(b, three).call('GET', '/test_helpers/clock')).status).toBe(200);
    expect((await b.call('DELETE', three.path)).status).toBe(200);
    expect((await via(b, three).call('GET', '/test_helpers/clock')).status).toBe(404);
    const first = await login(a, three);
    expect([first.status, messageOf(first)]).toEqual([404, 'Not found']);
    const again = await via(a, three).call('GET', '/test_helpers/clock');
    expect([again.status, messageOf(again)]).toEqual([404, 'Not found']);
    expect((await a.call('DELETE', three.path)).status).toBe(404);
    await create(b, { users: 0 });

    // Both instances restart: the sandboxes, their users' data and tokens are still there.
    await instances.kill(0);
    await instances.kill(1);
    await instances.restart(0);
    await instances.restart(1);
    for (const on of [a, b]) {
      expect((await login(on, one)).status).toBe(200);
      expect(await (await withJwt(on, one, '/user/balance', jwtOne)).json()).toMatchObject({
        content: { balance: 700 },
      });
      expect((await via(on, one).call('GET', '/item/details/1')).status).toBe(200);
      expect((await via(on, two).call('GET', '/item/details/1')).status).not.toBe(200);
    }
  }, 240_000);
});
