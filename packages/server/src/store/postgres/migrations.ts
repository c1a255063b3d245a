// The database schema, created and migrated by the server on start (ADR 0019). Migrations are
// numbered and applied in order, each in its own transaction, under a session advisory lock of the
// world's schema: two instances that start at once take turns, and the second finds nothing left
// to do; sandboxes' worlds (ADR 25) opened at once migrate side by side. A migration
// is never edited once released: a change is a new entry at the end.
import { type Pool, schemaKey } from './connection.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The first half of the `pg_advisory_lock` key of a schema's migrations ("mkt1"); the second is the schema's CRC-32. */
const MIGRATION_LOCK = 0x6d6b7431;

/**
 * Versions 1-9: the engine's store (store/postgres/postgres-store.ts). 10-19: the shared outside world
 * (simulators, test clock, rate-limit windows). 20-29: the service's own, not a world's (the sandbox
 * registry). 30-: whatever comes next.
 */
export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'engine change log, current records and settings',
    sql: `
      -- Every committed unit of work, in the one global order of the service: seq is assigned by the
      -- committing instance as its last seen seq + 1, so two instances committing on the same state
      -- collide on the primary key and one of them retries on the newer state.
      CREATE TABLE marketplace_changes (
        seq bigint PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('changes', 'replace')),
        changes jsonb NOT NULL,
        committed_at timestamptz NOT NULL DEFAULT now()
      );
      -- The state as of the newest change: what an instance loads at start.
      CREATE TABLE marketplace_records (
        collection text NOT NULL,
        id text NOT NULL,
        row jsonb NOT NULL,
        PRIMARY KEY (collection, id)
      );
      -- Secrets shared by every instance (JWT, deposit keys, code HMAC) unless the environment gives them.
      CREATE TABLE marketplace_secrets (
        name text PRIMARY KEY,
        value text NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'a token per committed batch',
    sql: `
      -- The random token of the batch that wrote each change row (postgres-store.ts): an instance
      -- whose connection broke while committing reads it back to learn whether its commit was
      -- carried out (ADR 19, "PostgreSQL going away"). NULL on rows written before.
      ALTER TABLE marketplace_changes ADD COLUMN token text;
    `,
  },
  {
    version: 10,
    name: 'shared world: the simulators, outbox and test clock of every instance',
    sql: `
      -- Keyed documents by kind (store/postgres/world.ts). version: of the last write; created: of
      -- the first (the service-wide order, outbox ids). A deleted document is a tombstone (doc NULL).
      CREATE TABLE marketplace_world (
        kind text NOT NULL,
        key text NOT NULL,
        doc jsonb,
        version bigint NOT NULL,
        created bigint NOT NULL,
        written_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (kind, key)
      );
      CREATE INDEX marketplace_world_version ON marketplace_world (version);
      -- One row: every write updates it first, so versions are taken and committed in one order;
      -- rows at or below the horizon were cleared or pruned (an instance that saw less reloads).
      CREATE TABLE marketplace_world_meta (
        id integer PRIMARY KEY CHECK (id = 1),
        version bigint NOT NULL,
        horizon bigint NOT NULL
      );
      INSERT INTO marketplace_world_meta VALUES (1, 0, 0);
    `,
  },
  {
    version: 11,
    name: 'rate-limit windows of every instance',
    sql: `
      -- One fixed window per key (rate-windows.ts, where the contract's FixedWindowLimiter counts),
      -- counted by one atomic upsert per request.
      -- UNLOGGED: no WAL per counted request; a crash of the database empties the table, which
      -- only reopens the windows (they are not state worth keeping).
      CREATE UNLOGGED TABLE marketplace_rate_windows (
        key text PRIMARY KEY,
        start bigint NOT NULL,
        window_seconds integer NOT NULL,
        count integer NOT NULL
      );
    `,
  },
  {
    version: 20,
    name: 'sandbox registry',
    sql: `
      -- The sandboxes of the service (ADR 25, store/postgres/sandbox-registry.ts): one row each; its
      -- world lives in the schema sandbox_<id>. last_used is written at most about once a minute per
      -- instance; rows idle longer than the idle time are deleted with their schema by any instance.
      CREATE TABLE marketplace_sandboxes (
        id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{16}$'),
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used timestamptz NOT NULL DEFAULT now(),
        users integer NOT NULL,
        balance bigint NOT NULL
      );
    `,
  },
];

/** The migrations of one world (the engine's store and the shared world): what a sandbox's schema holds. */
export const WORLD_MIGRATIONS = MIGRATIONS.filter((m) => m.version < 20);

/**
 * Applies every migration not applied yet to the world `pool` resolves in (`schema`: a sandbox's,
 * default the main world); safe to run from several instances at once.
 */
export async function migrate(pool: Pool, migrations: Migration[] = MIGRATIONS, schema?: string): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  const lock = [MIGRATION_LOCK, schemaKey(schema)];
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', lock);
    await client.query(`CREATE TABLE IF NOT EXISTS marketplace_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set(
      (await client.query<{ version: number }>('SELECT version FROM marketplace_migrations')).rows.map(
        (r) => r.version,
      ),
    );
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO marketplace_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      applied.push(m.version);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1, $2)', lock).catch(() => {});
    client.release();
  }
  return applied;
}
