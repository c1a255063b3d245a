// The README's vitest example: a fresh sandbox (the reference server in this process, its own
// world) for every test, as a fixture. Both tests create item 1: in a shared world the second
// would be refused ("Item id already exists"), whatever their order.
import { type Sandbox, startSandbox } from '@marketplace/server';
import { test as base, describe, expect } from 'vitest';

const test = base.extend<{ sandbox: Sandbox }>({
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern
  sandbox: async ({}, use) => {
    const sandbox = await startSandbox({ users: 2, balance: 5_000 });
    await use(sandbox);
    await sandbox.close();
  },
});

/** The balance of a sandbox user, read the way a frontend does: log in, then GET /user/balance. */
async function balanceOf(url: string, apiKey: string): Promise<number> {
  const login = await fetch(`${url}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey }),
  });
  const { content } = (await login.json()) as { content: { jwt: string } };
  const res = await fetch(`${url}/user/balance`, { headers: { authorization: `Bearer ${content.jwt}` } });
  return ((await res.json()) as { content: { balance: number } }).content.balance;
}

async function putItemOne(url: string): Promise<Response> {
  return fetch(`${url}/test_helpers/items`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 1, name: 'Mann Co. Supply Crate Key', game: 440 }),
  });
}

describe('startSandbox with vitest: a fresh world per test', () => {
  test('Given a new sandbox, its users log in with their API keys and hold the balance asked for', async ({
    sandbox,
  }) => {
    expect(sandbox.users).toHaveLength(2);
    expect(await balanceOf(sandbox.url, sandbox.users[1]!.apiKey)).toBe(5_000);
    expect((await putItemOne(sandbox.url)).status).toBe(200);
  });

  test('Given another test created item 1 in its sandbox, this sandbox can create item 1 too', async ({ sandbox }) => {
    expect((await putItemOne(sandbox.url)).status).toBe(200);
    expect((await putItemOne(sandbox.url)).status).toBe(300); // the same world refuses it: the check can fail
  });

  test('When the clock moves, the sandbox answers the new time; reset brings the same users back on real time', async ({
    sandbox,
  }) => {
    const now = Math.floor(Date.now() / 1000);
    expect(await sandbox.clock.set(now + 86_400)).toBe(now + 86_400);
    expect(await sandbox.clock.advance(60)).toBeGreaterThanOrEqual(now + 86_460);
    await putItemOne(sandbox.url);
    const { platformIds } = await sandbox.population({ users: 1, items: 0, assets: 0 });
    expect(platformIds).toHaveLength(1);

    await sandbox.reset();
    expect((await putItemOne(sandbox.url)).status).toBe(200); // item 1 was gone
    expect(await sandbox.clock.advance(0)).toBeLessThan(now + 3_600);
    expect(await balanceOf(sandbox.url, sandbox.users[0]!.apiKey)).toBe(5_000);
    const again = await sandbox.population({ users: 1, items: 0, assets: 0 });
    expect(again.platformIds).toEqual(platformIds); // numbering starts over after the sandbox's users
  });
});
