// The shared world on PostgreSQL (ADR 19) with two or three worlds on one database in this process,
// as instances would be: a write on one is seen by another after its sync, writes of this instance
// not yet sent win over older ones of others, outbox ids are unique and in one order everywhere,
// and a clear reaches every instance.
import { describe, expect, it } from 'vitest';
import { Outbox } from '../../adapters/outbox.ts';
import { PlatformSimulator } from '../../adapters/platform.ts';
import { createTestClock } from '../../clock.ts';
import type { Pool } from './connection.ts';
import { useDatabases } from './databases.fixture.ts';
import { openPostgresStore } from './postgres-store.ts';
import { openPostgresWorld, type PostgresWorld } from './world.ts';

const { missing, instances, pool } = useDatabases('world');
/** The database of the last `worlds` call, and its pools. */
let url = '';
let pools: Pool[] = [];

/** `n` worlds, each on a pool of its own (as instances are), on a fresh database. */
async function worlds(n: number): Promise<PostgresWorld[]> {
  ({ url, pools } = await instances(n));
  return Promise.all(pools.map((p) => openPostgresWorld(p)));
}

const message = (to: string) => ({
  channel: 'email' as const,
  to,
  kind: 'k',
  subject: 's',
  body: 'b',
  data: {},
  timestamp: 1,
});

describe.skipIf(missing)(`the shared world on PostgreSQL${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('shows a write of one instance to another after its sync, deletions too, and to an instance opened later', async () => {
    const [a, b] = await worlds(2);
    a!.put('geoip', '1.2.3.4', 'FR');
    a!.put('inventory', 'p:440', [{ assetId: 'x', itemId: 1 }]);
    await a!.flush();
    expect(b!.get('geoip', '1.2.3.4')).toBeUndefined();
    await b!.sync();
    expect(b!.get('geoip', '1.2.3.4')).toBe('FR');
    expect(b!.get('inventory', 'p:440')).toEqual([{ assetId: 'x', itemId: 1 }]);
    b!.delete('geoip', '1.2.3.4');
    await b!.flush();
    await a!.sync();
    expect(a!.get('geoip', '1.2.3.4')).toBeUndefined();
    const c = await openPostgresWorld(pool(url));
    expect([c.get('geoip', '1.2.3.4'), c.size('inventory')]).toEqual([undefined, 1]);
  }, 60_000);

  it("asks for nothing when the version the store's catch-up read is applied already, and pulls when it is newer", async () => {
    const [a, b] = await worlds(2);
    const store = await openPostgresStore(url);
    try {
      await store.sync();
      const before = store.worldVersion!;
      a!.put('geoip', '5.6.7.8', 'DE');
      await a!.flush();
      await b!.sync(before); // a version b has applied: no query, so no DE yet
      expect(b!.get('geoip', '5.6.7.8')).toBeUndefined();
      await store.sync(); // one query: the store's changes and the world's version
      expect(store.worldVersion).toBeGreaterThan(before);
      await b!.sync(store.worldVersion);
      expect(b!.get('geoip', '5.6.7.8')).toBe('DE');
    } finally {
      await store.close();
    }
  }, 60_000);

  it('keeps a write not yet sent over an older one of another instance, and then shares it', async () => {
    const [a, b] = await worlds(2);
    a!.put('clock', 'offset', 1000);
    await a!.flush();
    b!.put('clock', 'offset', 2000); // not flushed yet: B's own write is the newer one
    await b!.sync();
    expect(b!.get('clock', 'offset')).toBe(2000);
    await b!.flush();
    await a!.sync();
    expect(a!.get('clock', 'offset')).toBe(2000);
  }, 60_000);

  it('moves the test clock of every instance', async () => {
    const [a, b] = await worlds(2);
    const base = { now: () => 1_000, nowMs: () => 1_000_000 };
    const [clockA, clockB] = [createTestClock(base, a), createTestClock(base, b)];
    await clockA.advance(3600);
    await a!.flush();
    await b!.sync();
    expect(clockB.now()).toBe(4_600);
    clockB.reset();
    await b!.flush();
    await a!.sync();
    expect(clockA.now()).toBe(1_000);
  }, 60_000);

  it('gives outbox messages written at once on two instances unique ids, in one order everywhere', async () => {
    const [a, b, c] = await worlds(3);
    const [outboxA, outboxB] = [new Outbox(a), new Outbox(b)];
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const [outbox, world] = i % 2 ? [outboxA, a!] : [outboxB, b!];
        outbox.add(message(`m${i}`));
        await world.flush();
      }),
    );
    await Promise.all([a!.sync(), b!.sync(), c!.sync()]);
    const seen = [a!, b!, c!].map((w) => new Outbox(w).list().map((m) => [m.id, m.to]));
    expect(seen[0]).toHaveLength(40);
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
    const ids = seen[0]!.map(([id]) => id as number);
    expect(new Set(ids).size).toBe(40);
    expect(ids).toEqual(ids.toSorted((x, y) => x - y));
  }, 60_000);

  it('loses no write of instances writing at once while another syncs', async () => {
    const [a, b, c] = await worlds(3);
    const writer = async (world: PostgresWorld, name: string) => {
      for (let i = 0; i < 60; i++) {
        world.put('payment', `${name}${i}`, { i });
        if (i % 3 === 0) await world.flush();
      }
      await world.flush();
    };
    let writing = true;
    const reader = (async () => {
      while (writing) await c!.sync();
    })();
    await Promise.all([writer(a!, 'a'), writer(b!, 'b')]);
    writing = false;
    await reader;
    await c!.sync();
    expect(c!.size('payment')).toBe(120);
  }, 60_000);

  it('lists offers in the order they were first sent, the same on every instance, after a settlement', async () => {
    const [a, b] = await worlds(2);
    const [platformA, platformB] = [new PlatformSimulator(a), new PlatformSimulator(b)];
    platformA.sendOffer({ tradeId: 't1', kind: 'deposit', platformId: 'p', assetIds: ['1'] });
    await a!.flush();
    platformB.sendOffer({ tradeId: 't2', kind: 'deposit', platformId: 'p', assetIds: ['2'] });
    await b!.flush();
    await a!.sync();
    platformA.settle('t1', 'decline');
    await a!.flush();
    await b!.sync();
    for (const platform of [platformA, platformB])
      expect(platform.offers().map((o) => [o.tradeId, o.status])).toEqual([
        ['t1', -1],
        ['t2', 0],
      ]);
  }, 60_000);

  it('clears every instance, what it had not sent yet included; writes after the clear are kept', async () => {
    const [a, b] = await worlds(2);
    a!.put('geoip', 'ip1', 'FR');
    await a!.flush();
    b!.put('geoip', 'ip2', 'DE');
    await b!.flush();
    a!.put('geoip', 'ip3', 'IT'); // never sent: the clear drops it
    await a!.clear();
    expect(a!.size('geoip')).toBe(0);
    await b!.sync();
    expect(b!.size('geoip')).toBe(0);
    b!.put('geoip', 'ip4', 'ES');
    await b!.flush();
    await a!.sync();
    expect(a!.list('geoip').map((e) => e.key)).toEqual(['ip4']);
  }, 60_000);

  it('reloads everything when tombstones it had not seen were pruned (the horizon passed it)', async () => {
    const [a, b] = await worlds(2);
    a!.put('mail', 'm1', 'one');
    a!.put('mail', 'm2', 'two');
    await a!.flush();
    await b!.sync();
    a!.delete('mail', 'm1');
    await a!.flush();
    // What a prune does to a tombstone older than its age: gone, and the horizon at its version.
    await pools[0]!.query(
      `WITH gone AS (DELETE FROM marketplace_world WHERE doc IS NULL RETURNING version)
       UPDATE marketplace_world_meta SET horizon = (SELECT max(version) FROM gone)`,
    );
    await b!.sync();
    expect(b!.list('mail').map((e) => e.key)).toEqual(['m2']);
  }, 60_000);
});
