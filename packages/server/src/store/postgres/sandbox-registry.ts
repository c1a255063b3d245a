// The sandboxes of a service on PostgreSQL (ADR 25 "On several PostgreSQL instances"): one row
// each in `marketplace_sandboxes`, its world in a schema of its own (`sandbox_<id>`) holding the
// same tables as the main world, so the store, world and rate windows of ADR 19 work there
// unchanged (a pool whose search_path is that schema). Every instance serves every sandbox: one
// that is asked for an ID it does not hold finds the row and opens the schema. The bound on their
// number is the registry's, counted and inserted under one advisory lock so that two instances
// creating at once cannot both take the last place.
import { escapeIdentifier, type QueryResultRow } from 'pg';
import type { Pool } from './connection.ts';

/** A statement of a transaction, its rows typed as the caller reads them. */
type Query = <Row extends QueryResultRow = QueryResultRow>(
  text: string,
  values?: unknown[],
) => Promise<{ rows: Row[] }>;

/** An arbitrary fixed key of `pg_advisory_xact_lock`: creations of sandboxes, one at a time. */
const REGISTRY_LOCK = 0x6d6b7433; // "mkt3"

/** What a sandbox ID looks like (16 hex digits, as `POST /sandboxes` draws them): nothing else names a schema. */
export const isSandboxId = (id: string): boolean => /^[0-9a-f]{16}$/.test(id);

/** The schema of a sandbox's world. */
export function sandboxSchema(id: string): string {
  if (!isSandboxId(id)) throw new RangeError(`not a sandbox ID: ${id}`);
  return `sandbox_${id}`;
}

export class SandboxRegistry {
  readonly #pool: Pool;

  /** On the pool of the main world (the registry table is one of its migrations, version 20). */
  constructor(pool: Pool) {
    this.#pool = pool;
  }

  /**
   * Registers sandbox `id` and creates its (empty) schema, unless `max` exist already: then
   * nothing is written and the answer is false.
   */
  async claim(id: string, max: number, users: number, balance: number): Promise<boolean> {
    const schema = escapeIdentifier(sandboxSchema(id));
    return this.#transaction(async (query) => {
      await query('SELECT pg_advisory_xact_lock($1)', [REGISTRY_LOCK]);
      const { rows } = await query<{ n: number }>('SELECT count(*)::int AS n FROM marketplace_sandboxes');
      if (rows[0]!.n >= max) return false;
      await query('INSERT INTO marketplace_sandboxes (id, users, balance) VALUES ($1, $2, $3)', [id, users, balance]);
      await query(`CREATE SCHEMA ${schema}`);
      return true;
    });
  }

  /** Whether sandbox `id` is registered. */
  async exists(id: string): Promise<boolean> {
    if (!isSandboxId(id)) return false;
    const { rowCount } = await this.#pool.query('SELECT 1 FROM marketplace_sandboxes WHERE id = $1', [id]);
    return rowCount === 1;
  }

  /** Marks sandbox `id` as used now; false when it is no longer registered (deleted through another instance). */
  async touch(id: string): Promise<boolean> {
    const { rowCount } = await this.#pool.query('UPDATE marketplace_sandboxes SET last_used = now() WHERE id = $1', [
      id,
    ]);
    return rowCount === 1;
  }

  /** Deletes sandbox `id` and its world; false when there was none. */
  async drop(id: string): Promise<boolean> {
    if (!isSandboxId(id)) return false;
    return (await this.#dropWhere('id = $1', [id])).length === 1;
  }

  /** Deletes every sandbox not used for `idleSeconds` (by any instance) with its world; answers their IDs. */
  removeIdle(idleSeconds: number): Promise<string[]> {
    return this.#dropWhere("last_used < now() - $1 * interval '1 second'", [idleSeconds]);
  }

  /** The rows deleted and their schemas dropped, in one transaction: a row never outlives its world, nor a world its row. */
  #dropWhere(where: string, values: unknown[]): Promise<string[]> {
    return this.#transaction(async (query) => {
      const { rows } = await query<{ id: string }>(
        `DELETE FROM marketplace_sandboxes WHERE ${where} RETURNING id`,
        values,
      );
      const ids = rows.map((r) => r.id);
      for (const id of ids) await query(`DROP SCHEMA IF EXISTS ${escapeIdentifier(sandboxSchema(id))} CASCADE`);
      return ids;
    });
  }

  async #transaction<T>(work: (query: Query) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work((text, values) => client.query(text, values));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}
