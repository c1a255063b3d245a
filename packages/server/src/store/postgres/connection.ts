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
  const connectionString = schema ? inSchema(url, schema) : url;
  const pool = new pg.Pool({ connectionString, max, application_name: 'marketplace-server' });
  // An idle client that loses its connection (the database restarted) must not crash the process:
  // the pool drops it and the next query opens a new one.
  pool.on('error', () => {});
  return pool;
}

/**
 * The URL whose connections resolve table names in `schema` only (a sandbox's world, ADR 25): its
 * `search_path` is a startup option, added to the options the URL may give (which would otherwise
 * replace it, and send the sandbox's writes to the main world's tables).
 */
export function inSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  const given = parsed.searchParams.get('options');
  parsed.searchParams.set('options', `${given ?? ''} -c search_path=${pg.escapeIdentifier(schema)}`.trim());
  return parsed.toString();
}

pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** Whether `error` is PostgreSQL's answer to a statement (its SQLSTATE in `code`), not a lost connection. */
export const isDatabaseError = (error: unknown): error is pg.DatabaseError => error instanceof pg.DatabaseError;

export type { Pool, PoolClient } from 'pg';
