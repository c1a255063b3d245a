// Fresh databases on a throwaway cluster for one test file (scripts/postgres.ts): the cluster
// starts before the file's tests and stops after them, with every pool handed out.
import { afterAll, beforeAll } from 'vitest';
import { type Postgres, postgresMissing, startPostgres } from '../../../../../scripts/postgres.ts';
import { type Connections, createPool } from './connection.ts';
import { migrate } from './migrations.ts';

export function useDatabases(prefix: string) {
  const missing = postgresMissing();
  let cluster: Postgres | undefined;
  let databases = 0;
  const pools: Connections[] = [];
  beforeAll(async () => {
    if (!missing) cluster = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    for (const pool of pools) await pool.end();
    await cluster?.stop();
  });
  return {
    /** Why the tests skip (no PostgreSQL binaries), or undefined. */
    missing,
    /** A fresh, empty database (a server started on it migrates it). */
    database: (): Promise<string> => cluster!.createDatabase(`${prefix}_${++databases}`),
    /** A fresh, migrated database and `count` pools on it, one per instance. */
    async instances(count: number, max = 4): Promise<{ url: string; pools: Connections[] }> {
      const url = await cluster!.createDatabase(`${prefix}_${++databases}`);
      const opened = Array.from({ length: count }, () => createPool(url, { max }));
      pools.push(...opened);
      await migrate(opened[0]!);
      return { url, pools: opened };
    },
    /** A pool the test opened itself, ended after the file's tests. */
    track(pool: Connections): Connections {
      pools.push(pool);
      return pool;
    },
    /** One more pool on `url` (an instance opened later). */
    pool(url: string): Connections {
      const pool = createPool(url, { max: 1 });
      pools.push(pool);
      return pool;
    },
  };
}
