// Many sandboxes on several instances (issue 33, ADR 25): every world an instance serves shares its
// one pool, so the database's connections are bounded by MARKETPLACE_PG_POOL x instances, not by
// sandboxes x instances. 500 sandboxes on two instances, under PostgreSQL's default
// max_connections (100): each created through one instance answers a login on the other.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Postgres, postgresMissing, startPostgres } from '../../../../../scripts/postgres.ts';
import { clientOf, contentOf, startInstances } from './instances.fixture.ts';

const missing = postgresMissing();
let cluster: Postgres;

const SANDBOXES = 500;
const POOL = 10;
/** Requests in flight per step: enough to keep both instances busy, few enough for a busy machine. */
const AT_ONCE = 8;

/** Runs `work` for 0..count-1, `AT_ONCE` at a time. */
async function inParallel(count: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

describe.skipIf(missing)(`many sandboxes on two instances${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    cluster = await startPostgres({ maxConnections: 100 });
  }, 120_000);
  afterAll(() => cluster?.stop());

  it(`serves ${SANDBOXES} sandboxes on two instances with at most ${2 * POOL} connections, each answering a login`, async () => {
    const db = await cluster.createDatabase('many_sandboxes');
    const instances = await startInstances(db, 2, {
      MARKETPLACE_PG_POOL: String(POOL),
      MARKETPLACE_SANDBOX_MAX: String(SANDBOXES),
    });
    // The connections of the instances, sampled while they work: the most seen at once.
    const watcher = new pg.Client({ connectionString: db });
    await watcher.connect();
    let most = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const { rows } = await watcher.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'marketplace-server'",
        );
        most = Math.max(most, rows[0]!.n);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    try {
      const clients = instances.urls.map(clientOf);
      const created: { path: string; apiKey: string }[] = [];
      const failures: string[] = [];
      await inParallel(SANDBOXES, async (i) => {
        const answer = await clients[i % 2]!.call('POST', '/sandboxes', { json: { users: 1 } });
        if (answer.status !== 200) failures.push(`create ${i}: ${answer.status} ${JSON.stringify(answer.body)}`);
        else created[i] = { path: contentOf(answer).path, apiKey: contentOf(answer).users[0].apiKey };
      });
      expect(failures).toEqual([]);
      // Each sandbox through the instance that did not create it: that one opens the world too.
      await inParallel(SANDBOXES, async (i) => {
        const { path, apiKey } = created[i]!;
        const answer = await clients[(i + 1) % 2]!.call('POST', `${path}/user/login`, { json: { apiKey } });
        if (answer.status !== 200 || typeof contentOf(answer)?.jwt !== 'string')
          failures.push(`login ${i}: ${answer.status} ${JSON.stringify(answer.body)}`);
      });
      expect(failures).toEqual([]);
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(2 * POOL);
    } finally {
      watching = false;
      await watch.catch(() => {});
      await watcher.end();
      await instances.stopAll();
    }
  }, 900_000);
});
