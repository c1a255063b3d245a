// The PostgreSQL connection of a server instance (ADR 0019): `MARKETPLACE_DB=postgres://...` selects
// it. node-postgres (`pg`) is the driver: the most used Node client, a pool, pure JavaScript (no
// libpq to build), and `pg-protocol` parses rows off the event loop's hot path cheaply enough.
import { crc32 } from 'node:zlib';
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
  /** Connections of the pool (default 10): every world of the instance shares them (ADR 25). */
  max?: number;
}

/** The instance's connections to the database: one pool, whatever the number of worlds it serves. */
export type Connections = pg.Pool;

/** A pool on `url`; BIGINT (int8) columns are read as numbers (sequences stay far below 2^53). */
export function createPool(url: string, { max = 10 }: PoolOptions = {}): Connections {
  const pool = new pg.Pool({ connectionString: url, max, application_name: 'marketplace-server' });
  // An idle client that loses its connection (the database restarted) must not crash the process:
  // the pool drops it and the next query opens a new one.
  pool.on('error', () => {});
  return pool;
}

/** What a world's code asks of the database: queries and checked-out clients in its own schema. */
export interface Pool {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string | pg.QueryConfig,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>>;
  connect(): Promise<pg.PoolClient>;
  /** Ends the connections when this world owns them; a sandbox's view leaves the shared pool open. */
  end(): Promise<void>;
}

/**
 * The second half of a world's advisory lock keys (its commits, its migrations): the CRC-32 of its
 * schema (the main world's is '') as a signed int4. Two schemas that happen to share it only wait
 * for each other.
 */
export const schemaKey = (schema: string | undefined): number => crc32(schema ?? '') | 0;

/** The schema each connection's table names resolve in now; none (absent): the session's own. */
const schemaOf = new WeakMap<pg.PoolClient, string>();

/**
 * A world's view of the instance's connections (ADR 25): a connection checked out for the world
 * of `schema` (a sandbox's) resolves table names there (`SET search_path`, sent only when the
 * connection last served another world), and one checked out for the main world (no schema) is
 * back on the search path it opened with (`RESET`: the URL's options stay in force). Every
 * sandbox an instance serves thus shares its one pool: the connections are bounded by
 * configuration, not by sandboxes x instances. A switch costs one round trip; the named
 * statements stay prepared (PostgreSQL parses them again under a new search path).
 */
export function worldPool(connections: Connections, schema: string | undefined, { owned = false } = {}): Pool {
  const connect = async (): Promise<pg.PoolClient> => {
    const client = await connections.connect();
    if (schemaOf.get(client) === schema) return client;
    try {
      await client.query(schema ? `SET search_path TO ${pg.escapeIdentifier(schema)}` : 'RESET search_path');
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    if (schema) schemaOf.set(client, schema);
    else schemaOf.delete(client);
    return client;
  };
  return {
    connect,
    async query<R extends pg.QueryResultRow>(text: string | pg.QueryConfig, values?: unknown[]) {
      const client = await connect();
      try {
        return await client.query<R>(text, values);
      } finally {
        client.release(); // a connection that broke is not queryable, and the pool drops it
      }
    },
    end: () => (owned ? connections.end() : Promise.resolve()),
  };
}

pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** Whether `error` is PostgreSQL's answer to a statement (its SQLSTATE in `code`), not a lost connection. */
export const isDatabaseError = (error: unknown): error is pg.DatabaseError => error instanceof pg.DatabaseError;

export type { PoolClient } from 'pg';
