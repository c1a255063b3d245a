// The PostgreSQL connection of a server instance (ADR 0019): `MARKETPLACE_DB=postgres://...` selects
// it. node-postgres (`pg`) is the driver: the most used Node client, a pool, pure JavaScript (no
// libpq to build), and `pg-protocol` parses rows off the event loop's hot path cheaply enough.
import pg from 'pg';

/** Whether a `MARKETPLACE_DB` value names a PostgreSQL database rather than a file or `:memory:`. */
export const isPostgresUrl = (db: string): boolean => /^postgres(ql)?:\/\//i.test(db);

/** The URL without its password, for logs and refusals. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unreadable URL)';
  }
}

export interface PoolOptions {
  /** Connections of this instance (default 10). */
  max?: number;
  /**
   * The schema every table name of the pool's queries resolves in (a sandbox's world, ADR 25):
   * set as each connection's `search_path` when it opens. Default: the database's own search path.
   */
  schema?: string;
}

/** A pool on `url`; BIGINT (int8) columns are read as numbers (sequences stay far below 2^53). */
export function createPool(url: string, { max = 10, schema }: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: 'marketplace-server',
    ...(schema && { options: `-c search_path=${pg.escapeIdentifier(schema)}` }),
  });
  // An idle client that loses its connection (the database restarted) must not crash the process:
  // the pool drops it and the next query opens a new one.
  pool.on('error', () => {});
  return pool;
}

pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type { Pool, PoolClient } from 'pg';
