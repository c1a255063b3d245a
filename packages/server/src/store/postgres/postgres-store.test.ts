// The PostgreSQL store (ADR 19) with two stores on one database in this process, as two instances
// would be: what one commits the other sees after `sync`, a commit on a stale state collides and
// is undone, `execute` runs the command again so no update is lost, a replacement reaches every
// instance, a restart serves the same state, and a damaged row is refused in one line.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Postgres, postgresMissing, startPostgres } from '../../../../../scripts/postgres.ts';
import { emptyState } from '../../domain/state.ts';
import { ok, Tx } from '../../domain/tx.ts';
import { createUser } from '../../domain/users.ts';
import type { ServerDeps } from '../../http/deps.ts';
import { execute } from '../../http/execute.ts';
import { StoreConflict } from '../group-commit.ts';
import type { Store } from '../store.ts';
import { commitLock, loadPostgresState, openPostgresStore, type PostgresStore } from './postgres-store.ts';
import { sharedSecret } from './secrets.ts';

const missing = postgresMissing();
let cluster: Postgres;
let databases = 0;
const freshDatabase = () => cluster.createDatabase(`store_${++databases}`);

beforeAll(async () => {
  if (!missing) cluster = await startPostgres();
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

/** Commits one write of a free-form record through `store`. */
function put(store: Store, id: string, n: number): Promise<void> {
  const tx = new Tx(store.state);
  tx.put('records', id, { id, kind: 'test', n });
  return store.commit(tx);
}

const n = (store: Store, id: string) => (store.state.records[id] as { n?: number } | undefined)?.n;

/** Just what `execute` reads of the server's deps. */
const depsOf = (store: Store) => ({ store, clock: { now: () => 0 } }) as unknown as ServerDeps;

async function query(url: string, sql: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(missing)(`PostgreSQL store${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('shows what one instance committed to the other after its sync, and keeps it across a restart', async () => {
    const url = await freshDatabase();
    const a = await openPostgresStore(url);
    const b = await openPostgresStore(url);
    try {
      expect(a.created).toBe(true); // the instance that created the schema seeds demo data, the other does not
      expect(b.created).toBe(false);
      await put(a, 'x', 1);
      expect(n(b, 'x')).toBeUndefined();
      await b.sync();
      expect(n(b, 'x')).toBe(1);
      expect(b.state.seq).toBe(a.state.seq);
    } finally {
      await a.close();
      await b.close();
    }
    const again = await openPostgresStore(url);
    try {
      expect(n(again, 'x')).toBe(1);
      expect(again.state.seq).toBe(1);
    } finally {
      await again.close();
    }
  }, 60_000);

  it('creates the schema once when instances start at the same moment on a new database', async () => {
    const url = await freshDatabase();
    const stores = await Promise.all([openPostgresStore(url), openPostgresStore(url), openPostgresStore(url)]);
    try {
      expect(stores.filter((s) => s.created)).toHaveLength(1);
      const versions = await query(url, 'SELECT version FROM marketplace_migrations ORDER BY version');
      expect(versions.map((v) => v.version)).toEqual([...new Set(versions.map((v) => v.version))]);
      expect(versions[0]).toEqual({ version: 1 });
    } finally {
      for (const s of stores) await s.close();
    }
  }, 60_000);

  it("lets a world commit while another world's commit lock is held, and holds that world's commits", async () => {
    const url = await freshDatabase();
    await query(url, 'CREATE SCHEMA sandbox_a; CREATE SCHEMA sandbox_b');
    const main = await openPostgresStore(url);
    const a = await openPostgresStore(url, { schema: 'sandbox_a' });
    const b = await openPostgresStore(url, { schema: 'sandbox_b' });
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1, $2)', commitLock('sandbox_a'));
      let aDone = false;
      const held = put(a, 'x', 1).then(() => {
        aDone = true;
      });
      // Sandbox b and the main world commit while sandbox a's lock is held.
      await put(b, 'y', 2);
      await put(main, 'z', 3);
      await new Promise((r) => setTimeout(r, 300));
      expect(aDone).toBe(false); // sandbox a's commit waits for its own lock only
      await holder.query('COMMIT');
      await held;
      expect(await query(url, 'SELECT count(*)::int AS n FROM sandbox_a.marketplace_changes')).toEqual([{ n: 1 }]);
      expect(await query(url, 'SELECT count(*)::int AS n FROM sandbox_b.marketplace_changes')).toEqual([{ n: 1 }]);
    } finally {
      await holder.end();
      for (const s of [main, a, b]) await s.close();
    }
  }, 60_000);

  it('refuses a commit made on a state another instance changed since, and undoes it', async () => {
    const url = await freshDatabase();
    const a = await openPostgresStore(url);
    const b = await openPostgresStore(url);
    try {
      await put(a, 'x', 1);
      const stale = put(b, 'y', 2); // b has not seen a's commit: its seq 1 is taken
      await expect(stale).rejects.toBeInstanceOf(StoreConflict);
      expect(b.state.records.y).toBeUndefined();
      expect(b.state.seq).toBe(0);
      await b.sync();
      expect(n(b, 'x')).toBe(1);
      await put(b, 'y', 2); // on the newer state it goes through
      await a.sync();
      expect([n(a, 'x'), n(a, 'y')]).toEqual([1, 2]);
      expect(await query(url, 'SELECT seq, kind FROM marketplace_changes ORDER BY seq')).toEqual([
        { seq: 1, kind: 'changes' },
        { seq: 2, kind: 'changes' },
      ]);
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);

  it('deletes a record on every instance and in the database, in the same batch as other writes', async () => {
    const url = await freshDatabase();
    const a = await openPostgresStore(url);
    const b = await openPostgresStore(url);
    try {
      await Promise.all([put(a, 'x', 1), put(a, 'y', 2)]);
      const tx = new Tx(a.state);
      tx.delete('records', 'x');
      tx.put('records', 'y', { id: 'y', kind: 'test', n: 3 });
      await Promise.all([a.commit(tx), put(a, 'z', 4)]); // one batch: a deletion, an update and an insert
      await b.sync();
      expect(Object.keys(b.state.records).sort()).toEqual(['y', 'z']);
      expect([n(b, 'y'), n(b, 'z')]).toEqual([3, 4]);
      const rows = await query(
        url,
        `SELECT id, row->>'n' AS n FROM marketplace_records WHERE collection = 'records' ORDER BY id`,
      );
      expect(rows).toEqual([
        { id: 'y', n: '3' },
        { id: 'z', n: '4' },
      ]);
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);

  it('loses no update when two instances increment one counter at once through execute', async () => {
    const url = await freshDatabase();
    const stores = [await openPostgresStore(url), await openPostgresStore(url)];
    const increment = (store: PostgresStore) =>
      execute(depsOf(store), (tx) => {
        const now = (tx.get('records', 'counter') as { n?: number } | undefined)?.n ?? 0;
        tx.put('records', 'counter', { id: 'counter', kind: 'test', n: now + 1 });
        return ok(now + 1);
      });
    try {
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => increment(stores[i % 2]!)));
      const values = results.map((r) => (r.ok ? r.value : -1)).sort((x, y) => x - y);
      // Each increment saw a different value: one global order, no two commits on the same state.
      expect(values).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      for (const s of stores) await s.sync();
      expect(stores.map((s) => n(s, 'counter'))).toEqual([40, 40]);
      expect((await loadPostgresState(url)).records.counter).toMatchObject({ n: 40 });
    } finally {
      for (const s of stores) await s.close();
    }
  }, 120_000);

  it('commits concurrent commands of two instances that write the same records in different orders, none failing', async () => {
    // Two batches that lock record rows in different orders would deadlock; PostgreSQL aborts one
    // after a second. The commit lock prevents it (one commit at a time); a conflict of any kind
    // runs the command again. Before both, some of these requests answered 500.
    const url = await freshDatabase();
    const stores = [await openPostgresStore(url), await openPostgresStore(url)];
    const write = (store: PostgresStore, i: number) =>
      execute(depsOf(store), (tx) => {
        const ids = i % 2 === 0 ? ['p', 'q', `own${i}`] : [`own${i}`, 'q', 'p'];
        for (const id of ids) {
          const now = (tx.get('records', id) as { n?: number } | undefined)?.n ?? 0;
          tx.put('records', id, { id, kind: 'test', n: now + 1 });
        }
        return ok(i);
      });
    try {
      const results = await Promise.allSettled(Array.from({ length: 120 }, (_, i) => write(stores[i % 2]!, i)));
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      const state = await loadPostgresState(url);
      expect([state.records.p, state.records.q]).toMatchObject([{ n: 120 }, { n: 120 }]);
    } finally {
      for (const s of stores) await s.close();
    }
  }, 120_000);

  it('takes a replacement (a reset) on every instance, which then drops its caches', async () => {
    const url = await freshDatabase();
    const a = await openPostgresStore(url);
    const b = await openPostgresStore(url);
    let reloads = 0;
    b.onReload = () => {
      reloads += 1;
    };
    try {
      await put(a, 'x', 1);
      await b.sync();
      const next = emptyState();
      next.records.fresh = { id: 'fresh', kind: 'test' };
      await a.replace(next);
      await b.sync();
      expect(reloads).toBe(1);
      expect(Object.keys(b.state.records)).toEqual(['fresh']);
      expect(b.state.seq).toBe(a.state.seq);
      await put(b, 'y', 2); // commits go on after the replacement, on both
      await a.sync();
      expect(Object.keys(a.state.records).sort()).toEqual(['fresh', 'y']);
      expect(Object.keys((await loadPostgresState(url)).records).sort()).toEqual(['fresh', 'y']);
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);

  it('refuses to start on a damaged row, naming the table, the record and the field', async () => {
    const url = await freshDatabase();
    await (await openPostgresStore(url)).close(); // creates the schema
    await query(
      url,
      `INSERT INTO marketplace_records (collection, id, row) VALUES ('items', '7', '{"id": 7, "name": "A", "game": 440, "deal": "cheap", "maxPrice": null}')`,
    );
    const refused = openPostgresStore(url);
    await expect(refused).rejects.toThrow(
      /^Refusing to start: the database table marketplace_records is damaged at record items\/7: a items record \/deal .*$/,
    );
    await query(url, `UPDATE marketplace_records SET collection = 'nothing' WHERE id = '7'`);
    await expect(openPostgresStore(url)).rejects.toThrow(/record nothing\/7: "nothing" is not a collection/);
  }, 60_000);

  it('stops the server with that one line and exit code 1, printing nothing else', async () => {
    const url = await freshDatabase();
    const store = await openPostgresStore(url);
    const tx = new Tx(store.state);
    createUser(tx, {}, 'k'.repeat(48), '76561198000000001', 1_800_000_000);
    await store.commit(tx);
    await store.close();
    await query(
      url,
      `UPDATE marketplace_records SET row = jsonb_set(row, '{balance}', '"a lot"') WHERE collection = 'users'`,
    );
    const child = spawn(process.execPath, [join(import.meta.dirname, '..', '..', 'main.ts')], {
      env: { ...process.env, MARKETPLACE_DB: url, PORT: '0', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    expect(await new Promise((r) => child.once('exit', r))).toBe(1);
    expect(out).toBe('');
    expect(err.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^Refusing to start: the database table marketplace_records is damaged at record users\/76561198000000001: a users record \/balance must be integer\. /,
      ),
    ]);
  }, 60_000);

  it('refuses to start in one line, password hidden, when the database cannot be reached', async () => {
    const url = `postgres://someone:secret-pass@127.0.0.1:${cluster.port}/no_such_database`;
    const refused = openPostgresStore(url);
    await expect(refused).rejects.toThrow(/^Refusing to start: the PostgreSQL database postgres:\/\/someone:\*\*\*@/);
    await expect(refused).rejects.not.toThrow(/secret-pass/);
  }, 60_000);

  it('shares generated secrets between instances and refuses a short given one', async () => {
    const url = await freshDatabase();
    const a = await openPostgresStore(url);
    const b = await openPostgresStore(url);
    try {
      const [first, second] = await Promise.all([
        sharedSecret(a.pool, undefined, 'jwt-secret'),
        sharedSecret(b.pool, undefined, 'jwt-secret'),
      ]);
      expect(first).toMatch(/^[0-9a-f]{64}$/);
      expect(second).toBe(first);
      expect(await sharedSecret(b.pool, 'g'.repeat(32), 'jwt-secret', 'MARKETPLACE_JWT_SECRET')).toBe('g'.repeat(32));
      await expect(sharedSecret(a.pool, 'short', 'jwt-secret', 'MARKETPLACE_JWT_SECRET')).rejects.toThrow(
        /MARKETPLACE_JWT_SECRET holds 5 bytes/,
      );
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);
});
