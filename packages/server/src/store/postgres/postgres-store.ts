// The engine's store on PostgreSQL (ADR 0019): several server instances on one database answer as
// one service. Each instance keeps the whole state in memory as its working copy (the indexed
// engine of ADR 0009); the database holds the one durable truth:
//   marketplace_changes  every committed unit of work, in one global order (`seq`);
//   marketplace_records  the state as of the newest change, written in the same transaction.
// A unit of work is applied at once to the working copy and committed as change `seq + 1`; an
// instance that committed that seq first makes this commit fail on the primary key. The commit
// is then undone (with every later one of this instance not yet durable: they were built on it)
// and its promise rejects with `StoreConflict`: `execute` catches up and runs the command again.
// Commits arriving together share one transaction (group-commit.ts, ADR 0027).
// Before every request, `sync` applies what other instances committed since (one query).

import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { escapeLiteral } from 'pg';
import { COLLECTIONS, emptyState, type State, upgradeState } from '../../domain/state.ts';
import { applyChanges, type Change, type Tx } from '../../domain/tx.ts';
import { StartRefusal } from '../../start-refusal.ts';
import { codeOr } from '../error-code.ts';
import { GroupCommit, type Pending, StoreConflict, StoreUnavailable, StoreWriteError } from '../group-commit.ts';
import { isCollection, recordProblem } from '../record-schemas.ts';
import type { Store } from '../store.ts';
import {
  type Connections,
  createPool,
  isDatabaseError,
  isUnreachable,
  type Pool,
  type PoolClient,
  redactedUrl,
  schemaKey,
  worldPool,
} from './connection.ts';
import { MIGRATIONS, migrate, WORLD_MIGRATIONS } from './migrations.ts';

/** A record of the database that the engine cannot take: named by table, record and field. */
export class TableDamaged extends StartRefusal {
  override name = 'TableDamaged';
  constructor(table: string, record: string, reason: string) {
    super(
      `Refusing to start: the database table ${table} is damaged at record ${record}: ${reason}. Nothing was changed; restore the database from a backup or repair that row.`,
    );
  }
}

export interface PostgresStore extends Store {
  /** This world's view of the instance's connections. */
  readonly pool: Pool;
  /** The instance's connections, which the sandboxes it serves share (ADR 25). */
  readonly connections: Connections;
  /** Called after the working copy was replaced by the database's state (a reset on another instance). */
  onReload: (() => void) | undefined;
}

export interface PostgresStoreOptions {
  /** Connections of this instance, when it opens them (no `connections` given). */
  poolSize?: number;
  /** The instance's connections to share (a sandbox's world, ADR 25); closing the store leaves them open. */
  connections?: Connections;
  /** Change rows kept for instances that catch up; older ones are pruned (a lagging instance reloads). */
  keepChanges?: number;
  /** The schema of a sandbox's world (ADR 25): its tables only, created there; default the database's own. */
  schema?: string;
}

interface ChangeRow {
  seq: number;
  kind: 'changes' | 'replace';
  changes: Change[];
}

/** A row of the catch-up query: a change, or (world set, the rest null) the shared world's version. */
type CatchUpRow = (ChangeRow & { world: null }) | { world: number; seq: null; kind: null; changes: null };

// The catch-up reads the shared world's version in the same round trip (world.ts, ADR 19): the
// world then asks for its own rows only when something was written there. A UNION ALL, not a
// lateral join of the meta row: under a write load that shape made every write three times slower
// (measured: 260 against 950 writes/s on one instance). Named: prepared once per connection, as it
// runs before nearly every request.
const CATCH_UP = `(SELECT seq, kind, changes, NULL::bigint AS world FROM marketplace_changes WHERE seq > $1 ORDER BY seq LIMIT $2)
  UNION ALL SELECT NULL, NULL, NULL, version FROM marketplace_world_meta`;

/**
 * Errors that mean "another transaction got there first": a seq already taken (unique violation),
 * and, should they ever happen, a deadlock or a serialization failure. The command runs again.
 */
const CONFLICTS = new Set(['23505', '40P01', '40001']);
/** The first half of the `pg_advisory_xact_lock` key commits and replacements take: "mkt2". */
const COMMIT_LOCK = 0x6d6b7432;

/**
 * The advisory lock key a world's commits and replacements take (ADR 19, 25): one commit at a time
 * per world, so sandboxes never wait for each other or for the main world.
 */
export function commitLock(schema: string | undefined): [number, number] {
  return [COMMIT_LOCK, schemaKey(schema)];
}

/**
 * How long a commit whose connection broke asks the database whether it was carried out: under the
 * request timeout (60 s), and long enough for a restart. Past it the outcome stays unknown.
 */
const IN_DOUBT_MS = 20_000;

/** Records per INSERT when a whole state is written (a reset, a population). */
const RECORDS_PER_STATEMENT = 5_000;
/** Change rows fetched per catch-up query. */
const CATCH_UP_PAGE = 2_000;

const isConflict = (error: unknown): boolean => isDatabaseError(error) && CONFLICTS.has(error.code ?? '');
/**
 * Errors that mean "the database will not take what this change holds": a data exception (class
 * 22: an encoding, a value out of range), an integrity constraint other than a seq already taken
 * (class 23), a program limit (class 54: a value too large). The transaction was rolled back and the
 * same write would fail again; the group commit finds the one unit at fault and fails it alone.
 */
const isRefusedChange = (error: unknown): boolean =>
  isDatabaseError(error) && !isConflict(error) && /^(22|23|54)/.test(error.code ?? '');
const reasonOf = (error: unknown): string => codeOr(error, (e) => (e instanceof Error ? e.message : String(e)));

/** Checks one record of a row against its collection's schema; meta rows are integers. */
function rowProblem(collection: string, row: unknown): string | undefined {
  if (collection === 'meta') return Number.isSafeInteger(row) ? undefined : 'a meta value is not an integer';
  if (!isCollection(collection)) return `"${collection}" is not a collection of the engine`;
  return recordProblem(collection, row);
}

/** Reads the whole state (and the seq it is at) in one consistent snapshot of the database. */
export async function readState(pool: Pool): Promise<State> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows: seqRows } = await client.query<{ seq: number }>(
      'SELECT coalesce(max(seq), 0)::bigint AS seq FROM marketplace_changes',
    );
    const state = emptyState();
    state.seq = seqRows[0]!.seq;
    // A cursor-free read in pages keeps one result set from holding every row twice in memory.
    let after: [string, string] = ['', ''];
    for (;;) {
      const { rows } = await client.query<{ collection: string; id: string; row: unknown }>(
        `SELECT collection, id, row FROM marketplace_records
          WHERE (collection, id) > ($1, $2) ORDER BY collection, id LIMIT 20000`,
        after,
      );
      for (const { collection, id, row } of rows) {
        const problem = rowProblem(collection, row);
        if (problem) throw new TableDamaged('marketplace_records', `${collection}/${id}`, problem);
        applyChanges(state, [{ c: collection as Change['c'], id, row }]);
      }
      if (rows.length < 20000) break;
      const last = rows.at(-1)!;
      after = [last.collection, last.id];
    }
    await client.query('COMMIT');
    return upgradeState(state);
  } finally {
    client.release();
  }
}

/** The state of the database at `url`, of the world in `schema` if given (tests check the money invariant on it). */
export async function loadPostgresState(url: string, schema?: string): Promise<State> {
  const pool = worldPool(createPool(url, { max: 1 }), schema, { owned: true });
  try {
    return await readState(pool);
  } finally {
    await pool.end();
  }
}

/** Every record of a state as (collection, id, row) triples, meta included. */
function recordsOf(state: State): { collection: string; id: string; row: unknown }[] {
  const out: { collection: string; id: string; row: unknown }[] = [];
  for (const c of COLLECTIONS)
    for (const [id, row] of Object.entries(state[c] as Record<string, unknown>)) out.push({ collection: c, id, row });
  for (const [c, n] of Object.entries(state.counters)) out.push({ collection: 'meta', id: `counter:${c}`, row: n });
  out.push({ collection: 'meta', id: 'feesCollected', row: state.feesCollected });
  return out;
}

/** The last value of each record a batch of changes writes (a batch may write one record twice). */
function finalRows(batch: Pending<Change[]>[]): {
  upserts: { collection: string; id: string; row: unknown }[];
  deletes: { collection: string; id: string }[];
} {
  const last = new Map<string, { collection: string; id: string; row: unknown }>();
  for (const p of batch) for (const { c, id, row } of p.entry) last.set(`${c}\u0000${id}`, { collection: c, id, row });
  const upserts: { collection: string; id: string; row: unknown }[] = [];
  const deletes: { collection: string; id: string }[] = [];
  for (const r of last.values()) {
    if (r.row === null) deletes.push({ collection: r.collection, id: r.id });
    else upserts.push(r);
  }
  return { upserts, deletes };
}

async function upsertRecords(client: PoolClient, records: { collection: string; id: string; row: unknown }[]) {
  for (let i = 0; i < records.length; i += RECORDS_PER_STATEMENT) {
    await client.query(
      `INSERT INTO marketplace_records (collection, id, row)
         SELECT collection, id, row FROM jsonb_to_recordset($1::jsonb) AS r(collection text, id text, row jsonb)
       ON CONFLICT (collection, id) DO UPDATE SET row = excluded.row`,
      [JSON.stringify(records.slice(i, i + RECORDS_PER_STATEMENT))],
    );
  }
}

/** Opens (creating or migrating) the store on the PostgreSQL database at `url`. */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const { poolSize = 10, keepChanges = 10_000, schema } = options;
  const connections = options.connections ?? createPool(url, { max: poolSize });
  const pool = worldPool(connections, schema, { owned: !options.connections });
  const lock = commitLock(schema).join(', ');
  let applied: number[];
  let loaded: State;
  try {
    applied = await migrate(pool, schema ? WORLD_MIGRATIONS : MIGRATIONS, schema);
    loaded = await readState(pool);
  } catch (error) {
    await pool.end();
    if (error instanceof StartRefusal) throw error;
    throw new StartRefusal(
      `Refusing to start: the PostgreSQL database ${redactedUrl(url)} could not be opened (${reasonOf(error)}).`,
    );
  }

  let sincePrune = 0;
  /** A catch-up queued on the chain and not started yet, which a new request can join. */
  let waitingSync: Promise<void> | undefined;

  // Catch-ups and replacements run on the group commit's chain too. `durableSeq` is the newest seq
  // this instance knows to be committed in the database, and applied here.
  const commits: GroupCommit<Change[]> = new GroupCommit({
    state: () => store.state,
    durableSeq: loaded.seq,
    entry: (_seq, changes) => changes,
    write: (batch) => writeBatch(batch),
    refusedChange: isRefusedChange,
    failed: async (batch, error) => {
      if (isConflict(error)) return commits.rollBack(batch, new StoreConflict('another instance committed first'));
      const failure =
        error instanceof StoreUnavailable
          ? error
          : isUnreachable(error)
            ? new StoreUnavailable(`the database could not be reached (${reasonOf(error)}); nothing of it was kept`)
            : new StoreWriteError(`the database write failed (${reasonOf(error)}); nothing of it was kept`);
      commits.rollBack(batch, failure);
      // The commit may have reached the database before the connection broke: take the database's
      // word for what happened rather than this instance's.
      await reload().catch(() => {});
    },
    written: (batch) => {
      sincePrune += batch.length;
      if (sincePrune >= 1_000) prune();
    },
  });

  /** Replaces the working copy by the database's state (a replace by another instance, a pruned gap). */
  const reload = async (): Promise<void> => {
    const fresh = await readState(pool);
    store.state = fresh;
    commits.durableSeq = fresh.seq;
    store.onReload?.();
  };

  /** Applies the changes other instances committed after `durableSeq`. Runs on the chain. */
  const catchUp = async (): Promise<void> => {
    for (;;) {
      const { rows: read } = await pool.query<CatchUpRow>({
        name: 'marketplace-catch-up',
        text: CATCH_UP,
        values: [commits.durableSeq, CATCH_UP_PAGE],
      });
      const rows: ChangeRow[] = [];
      for (const r of read) {
        if (r.world !== null) store.worldVersion = Math.max(store.worldVersion ?? 0, r.world);
        else rows.push(r);
      }
      rows.sort((x, y) => x.seq - y.seq); // a UNION ALL promises no order
      if (rows.length === 0) return;
      // Commits of this instance not yet flushed were built on a state that is not the newest.
      if (commits.waiting > 0) commits.rollBack([], new StoreConflict('another instance committed first'));
      if (rows[0]!.seq !== commits.durableSeq + 1 || rows.some((r) => r.kind === 'replace')) {
        await reload(); // the log was pruned past us, or the service was reset: take the whole state
        return;
      }
      for (const row of rows) {
        for (const change of row.changes) {
          const problem = change.c === 'meta' ? undefined : rowProblem(change.c, change.row ?? undefined);
          if (change.row !== null && problem) {
            const reason = `change ${row.seq} of marketplace_changes is damaged: ${problem}; restart the server`;
            commits.refuse(reason);
            throw new StoreWriteError(reason);
          }
        }
        applyChanges(store.state, row.changes);
        commits.durableSeq = row.seq;
        store.state.seq = row.seq;
      }
      if (rows.length < CATCH_UP_PAGE) return;
    }
  };

  const prune = (): void => {
    sincePrune = 0;
    pool
      .query("DELETE FROM marketplace_changes WHERE seq < $1 AND committed_at < now() - interval '1 minute'", [
        commits.durableSeq - keepChanges,
      ])
      .catch(() => {}); // pruning is housekeeping: the next one retries
  };

  /**
   * Writes a batch in one transaction; a seq another instance took fails it on the primary key. A
   * connection that breaks once the transaction was sent leaves its outcome unknown: the batch's
   * token is then read back (`committed`), and a batch that was carried out is durable as if the
   * answer had arrived. Only a batch the database does not hold fails, so an instance never
   * answers a write as failed that the database kept, nor undoes it here while others apply it.
   */
  const writeBatch = async (batch: Pending<Change[]>[]): Promise<void> => {
    const { upserts, deletes } = finalRows(batch);
    const token = randomUUID();
    const client = await pool.connect(); // failing, nothing was sent: unreachable, nothing kept
    try {
      // One round trip: a transaction that first takes its world's commit lock, so the world's
      // commits of all instances run one after the other (without it, two statements locking
      // record rows in different orders deadlock, and PostgreSQL breaks the tie only after a
      // second), then writes the change rows and the records they leave. A seq another instance
      // took fails it on the primary key.
      // The simple query protocol takes no parameters: the JSON goes in as escaped literals.
      const literal = (value: unknown) => `${escapeLiteral(JSON.stringify(value))}::jsonb`;
      await client.query(`BEGIN;
        SELECT pg_advisory_xact_lock(${lock});
        WITH changes AS (
          INSERT INTO marketplace_changes (seq, kind, changes, token)
            SELECT seq, 'changes', changes, ${escapeLiteral(token)}
              FROM jsonb_to_recordset(${literal(batch.map((p) => ({ seq: p.seq, changes: p.entry })))}) AS c(seq bigint, changes jsonb)
        ), upserts AS (
          INSERT INTO marketplace_records (collection, id, row)
            SELECT collection, id, row FROM jsonb_to_recordset(${literal(upserts)}) AS r(collection text, id text, row jsonb)
          ON CONFLICT (collection, id) DO UPDATE SET row = excluded.row
        ), deletes AS (
          DELETE FROM marketplace_records
           WHERE (collection, id) IN (
             SELECT collection, id FROM jsonb_to_recordset(${literal(deletes)}) AS d(collection text, id text))
        )
        SELECT 1;
        COMMIT;`);
    } catch (error) {
      if (!isUnreachable(error)) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
      if (await committed(token, batch[0]!.seq, error)) return;
      throw new StoreUnavailable(`the database could not be reached (${reasonOf(error)}); nothing of it was kept`);
    } finally {
      client.release();
    }
  };

  /**
   * Whether the batch of `token` (its first change `seq`) was committed: asked on a new connection
   * until the database answers, for at most IN_DOUBT_MS. The world's commit lock is taken first,
   * so a transaction of the broken connection still in flight has ended before the row is read.
   */
  const committed = async (token: string, seq: number, cause: unknown): Promise<boolean> => {
    const until = Date.now() + IN_DOUBT_MS;
    for (;;) {
      try {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query(`SELECT pg_advisory_xact_lock(${lock})`);
          const { rows } = await client.query<{ token: string | null }>(
            'SELECT token FROM marketplace_changes WHERE seq = $1',
            [seq],
          );
          await client.query('COMMIT');
          client.release();
          return rows[0]?.token === token;
        } catch (error) {
          client.release(true); // never back in the pool halfway through a transaction
          throw error;
        }
      } catch (error) {
        if (!isUnreachable(error)) throw error;
        if (Date.now() >= until) {
          // The database stayed away: this instance cannot say. It undoes the batch here; should the
          // database hold it after all, the next catch-up applies it like any other instance's.
          throw new StoreUnavailable(
            `the database could not be reached (${reasonOf(cause)}), and whether the write was kept is unknown`,
          );
        }
        await sleep(250);
      }
    }
  };

  const store: PostgresStore = {
    state: loaded,
    pool,
    connections,
    created: applied.includes(1),
    onReload: undefined,
    replicated: true,
    worldVersion: undefined,
    get refusal() {
      return commits.refusal;
    },
    commit: (tx: Tx) => commits.commit(tx),
    sync() {
      // Requests arriving together share one catch-up query, as long as it has not started yet: a
      // query that starts after a request arrived sees every change acknowledged before it.
      if (waitingSync) return waitingSync;
      const run = commits.onChain(async () => {
        waitingSync = undefined;
        await catchUp();
      });
      waitingSync = run;
      return run;
    },
    snapshot: async () => {
      // The database is the snapshot; what can be dropped is the change log other instances no longer need.
      prune();
    },
    replace(next: State) {
      return commits.onChain(async () => {
        if (commits.waiting > 0) commits.rollBack([], new StoreConflict('the state was replaced'));
        const records = recordsOf(next);
        for (;;) {
          const client = await pool.connect();
          try {
            await client.query('BEGIN');
            await client.query(`SELECT pg_advisory_xact_lock(${lock})`);
            // Commits of other instances wait at their first statement until this one is done (and
            // then find their seq taken): no interleaving with the DELETE below, hence no deadlock.
            await client.query('LOCK TABLE marketplace_changes IN SHARE ROW EXCLUSIVE MODE');
            const { rows } = await client.query<{ seq: number }>(
              'SELECT coalesce(max(seq), 0)::bigint + 1 AS seq FROM marketplace_changes',
            );
            const seq = rows[0]!.seq;
            await client.query('DELETE FROM marketplace_records');
            await upsertRecords(client, records);
            await client.query(`INSERT INTO marketplace_changes (seq, kind, changes) VALUES ($1, 'replace', '[]')`, [
              seq,
            ]);
            await client.query('COMMIT');
            next.seq = seq;
            store.state = next;
            commits.durableSeq = seq;
            return;
          } catch (error) {
            await client.query('ROLLBACK').catch(() => {});
            // Another instance committed that seq first: a replacement does not build on the state, so take the next one.
            if (!isConflict(error)) throw error;
          } finally {
            client.release();
          }
        }
      });
    },
    async close() {
      await commits.drain();
      await pool.end();
    },
  };
  return store;
}
