// PostgreSQL going away under load (issue 33, ADR 19 "PostgreSQL going away"): two instances take
// writes while the database restarts three times and then has every connection of theirs
// terminated. No acknowledged write is lost, none is applied twice, a write answered 503 was not
// applied, every answer is 200 or the documented 503 with Retry-After within the request timeout,
// and both instances serve the same state afterwards without being restarted.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Postgres, postgresMissing, startPostgres } from '../../../../../scripts/postgres.ts';
import { auditMoney } from '../../domain/audit.ts';
import { type Client, clientOf, contentOf, placeWriters, startInstances, startWriting } from './instances.fixture.ts';
import { loadPostgresState } from './postgres-store.ts';

const missing = postgresMissing();
let cluster: Postgres;

const WRITERS_PER_INSTANCE = 3;
/** Updates per writer at most (the load bounded by count, under the general rate limit). */
const MAX_UPDATES = 400;
/** Longer than any answer may take: the request timeout is 60 s, an answer past this is a hang. */
const ANSWER_WITHIN_MS = 55_000;

describe.skipIf(missing)(`PostgreSQL going away under load${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('loses no acknowledged write and applies none twice across three restarts and dropped connections, and both instances serve again by themselves', async () => {
    const db = await cluster.createDatabase('going_away');
    const instances = await startInstances(db, 2);
    try {
      const clients: Client[] = instances.urls.map(clientOf);
      const item = await clients[0]!.helper<{ id: number }>('/items', { name: 'Restart Key', game: 440 });
      const writers = await placeWriters(clients, item.id, WRITERS_PER_INSTANCE, 60);
      const load = startWriting(writers, instances.urls, { cap: () => MAX_UPDATES, answerWithinMs: ANSWER_WITHIN_MS });
      const terminate = async () => {
        const admin = new pg.Client({ connectionString: db });
        await admin.connect();
        try {
          const { rows } = await admin.query<{ n: number }>(
            `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = 'marketplace-server'`,
          );
          return rows[0]!.n;
        } finally {
          await admin.end();
        }
      };

      let terminated = 0;
      try {
        await load.progress(5);
        for (let restart = 0; restart < 3; restart++) {
          await cluster.restart();
          await load.progress(5);
        }
        terminated = await terminate();
        await load.progress(5);
      } finally {
        await load.stop();
      }

      expect(load.failures, 'answers other than 200 and the documented 503').toEqual([]);
      expect(load.slowest).toBeLessThan(ANSWER_WITHIN_MS);
      expect(terminated, 'connections of the instances were terminated').toBeGreaterThan(0);
      for (const w of writers) expect(w.acked.length, 'writes acknowledged between the outages').toBeGreaterThan(20);

      // Each price was sent once: its change is in the log exactly once if it was acknowledged, and
      // never if it was answered 503; none is there twice.
      const admin = new pg.Client({ connectionString: db });
      await admin.connect();
      let applied: Map<string, number>;
      try {
        const { rows } = await admin.query<{ platformid: string; price: number; n: number }>(
          `SELECT c->'row'->>'platformid' AS platformid, (c->'row'->>'price')::int AS price, count(*)::int AS n
             FROM marketplace_changes, jsonb_array_elements(changes) AS c
            WHERE c->>'c' = 'buyOrders' AND c->'row' IS NOT NULL AND c->'row' <> 'null'::jsonb
            GROUP BY 1, 2`,
        );
        applied = new Map(rows.map((r) => [`${r.platformid}:${r.price}`, r.n]));
      } finally {
        await admin.end();
      }
      const lost: string[] = [];
      const doubled: string[] = [];
      const appliedRefused: string[] = [];
      for (const w of writers) {
        for (const p of w.acked)
          if ((applied.get(`${w.me.platformId}:${p}`) ?? 0) !== 1) lost.push(`${w.me.platformId}:${p}`);
        for (const p of w.refused)
          if (applied.has(`${w.me.platformId}:${p}`)) appliedRefused.push(`${w.me.platformId}:${p}`);
      }
      for (const [key, n] of applied) if (n > 1) doubled.push(`${key} x${n}`);
      expect(lost, 'acknowledged writes not in the database once').toEqual([]);
      expect(doubled, 'writes applied twice').toEqual([]);
      expect(appliedRefused, 'writes answered 503 that were applied').toEqual([]);

      // Both instances serve again without a restart, with the same state: each order at its last
      // acknowledged price, as in the database.
      const state = await loadPostgresState(db);
      expect(auditMoney(state).problems).toEqual([]);
      for (const w of writers) {
        const last = w.acked.at(-1)!;
        const inDatabase = Object.values(state.buyOrders).find((o) => o.platformid === w.me.platformId)!;
        expect(inDatabase.price).toBe(last);
        for (const client of clients) {
          const answer = await client.get(w.me, `/user/buyorder/${item.id}`);
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          expect(JSON.stringify(contentOf(answer))).toContain(`"price":${last}`);
        }
      }
    } catch (error) {
      throw new Error(
        `${error}\n--- instance 0:\n${instances.output(0).slice(-3000)}\n--- instance 1:\n${instances.output(1).slice(-3000)}`,
      );
    } finally {
      await instances.stopAll();
    }
  }, 600_000);
});
