// The shared world on PostgreSQL (ADR 0019 "What else is shared"): the simulators' documents, the
// outbox and the test clock of every instance on one database. Each instance holds all documents
// in memory (reads stay synchronous) and replicates through one table:
//   marketplace_world       (kind, key) -> doc, with the version of its last write and `created`,
//                           the version of its first write (the service-wide order: outbox ids);
//                           a deletion leaves a tombstone (doc NULL) for the others to see;
//   marketplace_world_meta  one row: the newest version, and the horizon below which rows are gone
//                           (a clear, pruned tombstones): an instance that saw less reloads all.
// Every write statement first updates the meta row, so writes take their versions and commit in
// one order: a reader that saw version N has seen every write up to N, and `sync` is one query
// for the rows above it. (A plain sequence would not do: a transaction may commit a lower
// version after a reader already saw a higher one, and its write would never be seen.)
import { HeldWorld, type SharedWorld } from '../../world.ts';
import { Chain } from '../chain.ts';
import type { Pool } from './connection.ts';

interface Write {
  kind: string;
  key: string;
  doc: unknown;
  deleted: boolean;
}

interface Row {
  newest: number;
  horizon: number;
  kind: string | null;
  key: string | null;
  doc: unknown;
  created: number | null;
}

/** Orders of documents written here and not yet durable: after every durable one, in writing order. */
const PROVISIONAL = 2 ** 52;
/** Tombstones older than this are pruned; an instance that synced less recently reloads everything. */
const TOMBSTONE_AGE = '10 minutes';
const PRUNE_EVERY = 500;

const idOf = (kind: string, key: string) => `${kind}\u0000${key}`;

/** The instance's world on `pool`, loaded (the schema is migrated by the store: versions 10-19). */
export async function openPostgresWorld(pool: Pool): Promise<PostgresWorld> {
  const world = new PostgresWorld(pool);
  await world.sync();
  return world;
}

export class PostgresWorld extends HeldWorld implements SharedWorld {
  readonly replicated = true;
  readonly #pool: Pool;
  /** Writes not yet sent, the newest per document, in the order of their first write. */
  #pending = new Map<string, Write>();
  /** The newest version applied here from the database. */
  #seen = 0;
  #provisional = PROVISIONAL;
  // Flushes, syncs and clears run one at a time, in order: a sync never runs while a flush is in
  // flight, so a document written here is either pending (and wins) or durable (and compared).
  readonly #chain = new Chain();
  #flushScheduled = false;
  #waitingSync: Promise<void> | undefined;
  #sincePrune = 0;
  /** The batch being sent, if any. */
  #sending: Promise<void> | undefined;

  constructor(pool: Pool) {
    super();
    this.#pool = pool;
  }

  put(kind: string, key: string, doc: unknown): number {
    const order = this.documents.order(kind, key) ?? ++this.#provisional;
    this.documents.set(kind, key, doc, order);
    this.#write({ kind, key, doc, deleted: false });
    return order;
  }

  delete(kind: string, key: string): void {
    this.documents.remove(kind, key);
    this.#write({ kind, key, doc: null, deleted: true });
  }

  add(kind: string, key: string, delta: number): Promise<number> {
    return this.#onChain(async () => {
      await this.#send(); // this instance's earlier writes first (a `set` of the clock before an advance)
      const { rows } = await this.#pool.query<{ doc: number; created: number }>(
        `WITH v AS (UPDATE marketplace_world_meta SET version = version + 1 RETURNING version)
         INSERT INTO marketplace_world AS w (kind, key, doc, version, created)
           SELECT $1, $2, to_jsonb($3::numeric), v.version, v.version FROM v
         ON CONFLICT (kind, key) DO UPDATE
           SET doc = to_jsonb(coalesce((w.doc #>> '{}')::numeric, 0) + $3::numeric), version = excluded.version,
               written_at = now(), created = CASE WHEN w.doc IS NULL THEN excluded.created ELSE w.created END
         RETURNING doc, created`,
        [kind, key, delta],
      );
      const { doc, created } = rows[0]!;
      // A write made here since the call is newer, and stays (it is sent after this).
      if (!this.#pending.has(idOf(kind, key))) this.documents.set(kind, key, doc, created);
      return doc;
    });
  }

  flush(): Promise<void> {
    // With nothing pending, only a batch already on its way can hold this caller's writes.
    if (this.#pending.size === 0) return this.#sending ?? Promise.resolve();
    return this.#onChain(() => this.#send());
  }

  sync(known?: number): Promise<void> {
    if (known !== undefined && known <= this.#seen) return Promise.resolve();
    // Requests arriving together share one query, as long as it has not started yet.
    if (this.#waitingSync) return this.#waitingSync;
    const run = this.#onChain(async () => {
      this.#waitingSync = undefined;
      await this.#pull();
    });
    this.#waitingSync = run;
    return run;
  }

  clear(): Promise<void> {
    return this.#onChain(async () => {
      this.#pending.clear();
      this.documents.clear();
      const client = await this.#pool.connect();
      try {
        await client.query('BEGIN');
        // The meta row first: writes of other instances wait for it, so the DELETE (a statement
        // with a newer snapshot) sees every write that took a version before the clear's.
        const { rows } = await client.query<{ version: number }>(
          'UPDATE marketplace_world_meta SET version = version + 1, horizon = version + 1 RETURNING version',
        );
        await client.query('DELETE FROM marketplace_world');
        await client.query('COMMIT');
        this.#seen = rows[0]!.version;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    });
  }

  /** Resolves once no flush, sync or clear is queued or running. */
  close(): Promise<void> {
    return this.#chain.drain();
  }

  #onChain<T>(step: () => Promise<T>): Promise<T> {
    return this.#chain.run(step);
  }

  /** Queues a write, and a flush soon after: a write nobody awaits becomes durable too. */
  #write(write: Write): void {
    this.#pending.set(idOf(write.kind, write.key), write);
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      this.flush().catch(() => {}); // kept pending: the next flush tries again and reports
    });
  }

  #send(): Promise<void> {
    if (this.#pending.size === 0) return Promise.resolve();
    const sending = this.#sendBatch();
    this.#sending = sending;
    return sending.finally(() => {
      if (this.#sending === sending) this.#sending = undefined;
    });
  }

  async #sendBatch(): Promise<void> {
    const batch = [...this.#pending.values()];
    this.#pending = new Map();
    let rows: { kind: string; key: string; created: number }[];
    try {
      ({ rows } = await this.#pool.query(
        `WITH v AS (
           UPDATE marketplace_world_meta SET version = version + $2::bigint RETURNING version - $2::bigint AS base
         )
         INSERT INTO marketplace_world AS w (kind, key, doc, version, created)
           SELECT r.kind, r.key, CASE WHEN r.deleted THEN NULL ELSE r.doc END, v.base + r.ord, v.base + r.ord
             FROM v, jsonb_to_recordset($1::jsonb) AS r(ord bigint, kind text, key text, doc jsonb, deleted boolean)
         ON CONFLICT (kind, key) DO UPDATE SET doc = excluded.doc, version = excluded.version, written_at = now(),
           created = CASE WHEN w.doc IS NULL THEN excluded.created ELSE w.created END
         RETURNING kind, key, created`,
        [JSON.stringify(batch.map((w, i) => ({ ord: i + 1, ...w }))), batch.length],
      ));
    } catch (error) {
      // Nothing of the batch was kept: it goes back in front of what was written since.
      const since = this.#pending;
      this.#pending = new Map(batch.map((w) => [idOf(w.kind, w.key), w]));
      for (const [id, w] of since) this.#pending.set(id, w);
      throw error;
    }
    // Documents written here take their service-wide order (unless written again meanwhile).
    for (const { kind, key, created } of rows) {
      if (this.#pending.has(idOf(kind, key))) continue;
      const doc = this.documents.get(kind, key);
      if (doc !== undefined) this.documents.set(kind, key, doc, created);
    }
    if (++this.#sincePrune >= PRUNE_EVERY) this.#prune();
  }

  /** Applies the rows written since `#seen`; everything when a clear or a prune passed it. */
  async #pull(): Promise<void> {
    // Named: prepared once per connection, as this runs before every request.
    const { rows } = await this.#pool.query<Row>({
      name: 'marketplace-world-sync',
      text: `SELECT m.version AS newest, m.horizon, w.kind, w.key, w.doc, w.created
         FROM marketplace_world_meta m
         LEFT JOIN marketplace_world w ON w.version > CASE WHEN m.horizon > $1::bigint THEN 0 ELSE $1::bigint END
        ORDER BY w.version`,
      values: [this.#seen],
    });
    const { newest, horizon } = rows[0]!;
    const reload = horizon > this.#seen;
    if (reload) {
      this.documents.clear();
      // What this instance wrote and did not send yet is newer than anything read here.
      for (const w of this.#pending.values())
        if (!w.deleted) this.documents.set(w.kind, w.key, w.doc, ++this.#provisional);
    }
    for (const { kind, key, doc, created } of rows) {
      if (kind === null || key === null || this.#pending.has(idOf(kind, key))) continue;
      if (doc === null) this.documents.remove(kind, key);
      else this.documents.set(kind, key, doc, created!);
    }
    this.#seen = newest;
  }

  /** Drops old tombstones; the horizon tells instances that synced before them to reload. */
  #prune(): void {
    this.#sincePrune = 0;
    this.#pool
      .query(
        `WITH gone AS (
           DELETE FROM marketplace_world WHERE doc IS NULL AND written_at < now() - $1::interval RETURNING version
         )
         UPDATE marketplace_world_meta SET horizon = greatest(horizon, (SELECT max(version) FROM gone))`,
        [TOMBSTONE_AGE],
      )
      .catch(() => {}); // housekeeping: the next one retries
  }
}
