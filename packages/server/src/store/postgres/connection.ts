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

/**
 * How long a request waits for a new connection: a database that does not answer is then reported
 * (503, ADR 19 "PostgreSQL going away") well before the request's own timeout, never a hang.
 */
const CONNECT_TIMEOUT_MS = 5_000;

/** A pool on `url`; BIGINT (int8) columns are read as numbers (sequences stay far below 2^53). */
export function createPool(url: string, { max = 10 }: PoolOptions = {}): Connections {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: 'marketplace-server',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
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

/** Connections with a listener of their own for 'error' (see `worldPool`). */
const heard = new WeakSet<pg.PoolClient>();

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
    // A checked-out connection that breaks between two queries (the database restarting) emits
    // 'error', which the pool listens for only while the connection is idle: unheard, it would
    // end the process. Its next query fails instead, and the pool drops it when released.
    if (!heard.has(client)) {
      heard.add(client);
      client.on('error', () => {});
    }
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

/**
 * SQLSTATEs that mean the database is not there for now, not that it refused a statement: a
 * connection exception (class 08), a shutdown or a start in progress (57P01-57P03), no connection
 * left (53300).
 */
const UNREACHABLE_CODE = /^(08|57P0[123]$|53300$)/;
/** Socket errors of a connection that could not be opened or broke. */
const SOCKET_CODE = /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)$/;
/** What node-postgres throws, without a code, for a connection that ended or never opened in time. */
const LOST_CONNECTION =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/** Whether `error` says the database cannot be reached now (a restart, a dropped connection), rather than refusing a statement. */
export function isUnreachable(error: unknown): boolean {
  if (isDatabaseError(error)) return UNREACHABLE_CODE.test(error.code ?? '');
  if (!(error instanceof Error)) return false;
  const { code } = error as NodeJS.ErrnoException;
  return (code !== undefined && SOCKET_CODE.test(code)) || LOST_CONNECTION.test(error.message);
}

export type { PoolClient } from 'pg';
