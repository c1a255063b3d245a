// startSandbox with the demo world (issue 34): the same accounts and rows as `npm start`, again
// after every reset with the same admin keys, and MARKETPLACE_DEMO of its `env` as the default.
import { describe, expect, it } from 'vitest';
import { callHelper, startSandbox } from './sandbox.ts';

/** Logs `apiKey` in at `url`; the JWT, or undefined when the key is refused. */
async function jwtOf(url: string, apiKey: string): Promise<string | undefined> {
  const res = await fetch(`${url}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey }),
  });
  return res.status === 200 ? ((await res.json()) as { content: { jwt: string } }).content.jwt : undefined;
}

// The first sandbox of a process builds the document's validators: tens of seconds on a busy machine.
describe('startSandbox({ demo: true })', { timeout: 120_000 }, () => {
  it('Given a demo sandbox, a reset brings the demo world back with the same admin keys', async () => {
    const sandbox = await startSandbox({ demo: true });
    try {
      expect(sandbox.users).toEqual([]);
      const admins = sandbox.demoAccounts.filter((a) => a.admin);
      expect(admins.map((a) => a.name)).toEqual(['Admin', 'Heidi']);
      await callHelper(sandbox.url, '/items', { id: 999_999, name: 'Left by a test', game: 440 });

      await sandbox.reset();
      const item = await fetch(`${sandbox.url}/item/details/999999`);
      expect(item.status).not.toBe(200); // the test's item is gone
      expect(await jwtOf(sandbox.url, 'demo-alice-api-key')).toBeDefined();
      for (const admin of admins) expect(await jwtOf(sandbox.url, admin.apiKey)).toBeDefined();
      expect(sandbox.demoAccounts.filter((a) => a.admin)).toEqual(admins);
    } finally {
      await sandbox.close();
    }
  });

  it('Given MARKETPLACE_DEMO=1 in its env and users asked for, it holds the demo world and those users', async () => {
    const sandbox = await startSandbox({ env: { MARKETPLACE_DEMO: '1' }, users: 1 });
    try {
      expect(sandbox.demoAccounts).toHaveLength(10);
      expect(sandbox.users.map((u) => u.apiKey)).toEqual(['pop-0']);
      expect(await jwtOf(sandbox.url, 'demo-bob-api-key')).toBeDefined();
      expect(await jwtOf(sandbox.url, 'pop-0')).toBeDefined();
    } finally {
      await sandbox.close();
    }
  });

  it('Given no demo asked for, the world has only its two users', async () => {
    const sandbox = await startSandbox();
    try {
      expect([sandbox.users.length, sandbox.demoAccounts]).toEqual([2, []]);
      expect(await jwtOf(sandbox.url, 'demo-alice-api-key')).toBeUndefined();
    } finally {
      await sandbox.close();
    }
  });
});
