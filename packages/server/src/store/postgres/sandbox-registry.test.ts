// The sandbox registry on one database (ADR 25): the bound holds when instances create at once,
// and deleting a sandbox (by ID or idle) takes its world's schema with its row.
import { describe, expect, it } from 'vitest';
import { createPool, type Pool, worldPool } from './connection.ts';
import { useDatabases } from './databases.fixture.ts';
import { openPostgresStore } from './postgres-store.ts';
import { isSandboxId, SandboxRegistry, sandboxSchema } from './sandbox-registry.ts';

const databases = useDatabases('registry');
const { missing } = databases;

const id = (n: number) => n.toString(16).padStart(16, '0');
const schemas = async (pool: Pool) =>
  (
    await pool.query<{ name: string }>(
      "SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'sandbox\\_%' ORDER BY nspname",
    )
  ).rows.map((r) => r.name);

describe.skipIf(missing)(`the sandbox registry${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('Given eight instances claiming sixteen at once with room for three, three are registered and three schemas exist', async () => {
    const { pools } = await databases.instances(8, 2);
    // Connections open before the race: the claims then meet in the database, not in the connects.
    await Promise.all(pools.map((pool) => Promise.all([pool.query('SELECT 1'), pool.query('SELECT 1')])));
    const registries = pools.map((pool) => new SandboxRegistry(pool));
    const claimed = await Promise.all(
      registries.flatMap((r, n) => [r.claim(id(2 * n + 1), 3, 2, 100), r.claim(id(2 * n + 2), 3, 2, 100)]),
    );
    expect(claimed.filter(Boolean)).toHaveLength(3);
    const { rows } = await pools[0]!.query<{ n: number }>('SELECT count(*)::int AS n FROM marketplace_sandboxes');
    expect(rows[0]!.n).toBe(3);
    expect(await schemas(pools[0]!)).toHaveLength(3);
  }, 60_000);

  it("Given a sandbox's world in its schema, deleting it drops the schema; idle ones go, used ones stay", async () => {
    const { url, pools } = await databases.instances(1);
    const registry = new SandboxRegistry(pools[0]!);
    expect(await registry.claim(id(1), 5, 0, 0)).toBe(true);
    expect(await registry.claim(id(2), 5, 0, 0)).toBe(true);
    expect(await registry.claim(id(3), 5, 0, 0)).toBe(true);
    // The world's tables are created in the schema, not beside the registry.
    const store = await openPostgresStore(url, { poolSize: 1, schema: sandboxSchema(id(1)) });
    await store.close();
    const tables = await pools[0]!.query<{ schema: string }>(
      "SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'marketplace_records' ORDER BY 1",
    );
    expect(tables.rows.map((r) => r.schema)).toEqual(['public', sandboxSchema(id(1))]);

    expect(await registry.drop(id(1))).toBe(true);
    expect(await registry.drop(id(1))).toBe(false);
    expect(await registry.exists(id(1))).toBe(false);
    expect(await schemas(pools[0]!)).toEqual([sandboxSchema(id(2)), sandboxSchema(id(3))]);

    await pools[0]!.query("UPDATE marketplace_sandboxes SET last_used = now() - interval '1 hour' WHERE id = $1", [
      id(2),
    ]);
    expect(await registry.removeIdle(1800)).toEqual([id(2)]);
    expect(await registry.exists(id(2))).toBe(false);
    expect(await registry.touch(id(2))).toBe(false);
    expect(await registry.touch(id(3))).toBe(true);
    expect(await schemas(pools[0]!)).toEqual([sandboxSchema(id(3))]);
  }, 60_000);

  it("Given one connection shared by the main world and a sandbox, each world's queries resolve in its own schema and the URL's options stay", async () => {
    const { url } = await databases.instances(1);
    const connections = databases.track(
      createPool(`${url}?options=${encodeURIComponent('-c statement_timeout=4321')}`, { max: 1 }),
    );
    const sandbox = worldPool(connections, sandboxSchema(id(9)));
    const main = worldPool(connections, undefined);
    const shown = async (pool: Pool, setting: string) =>
      (await pool.query<Record<string, string>>(`SHOW ${setting}`)).rows[0]![setting];
    for (let round = 0; round < 2; round++) {
      expect(await shown(sandbox, 'search_path')).toBe(sandboxSchema(id(9)));
      expect(await shown(sandbox, 'statement_timeout')).toBe('4321ms');
      expect(await shown(main, 'search_path')).toBe('"$user", public');
      expect(await shown(main, 'statement_timeout')).toBe('4321ms');
    }
    await sandbox.end(); // a view does not end the connections it shares
    expect(await shown(main, 'search_path')).toBe('"$user", public');
  }, 60_000);

  it('Given anything but 16 hex digits, no schema is named after it', async () => {
    expect(isSandboxId('0123456789abcdef')).toBe(true);
    for (const bad of ['0123456789ABCDEF', '0123456789abcde', 'x; DROP SCHEMA public', ''])
      expect(isSandboxId(bad), bad).toBe(false);
    expect(() => sandboxSchema('a"b')).toThrow(RangeError);
  });
});
