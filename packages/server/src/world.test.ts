import { describe, expect, it } from 'vitest';
import { Documents, deleteKinds, MemoryWorld, worldCache } from './world.ts';

describe('the memory world', () => {
  it('reads back what was written, by kind and key', () => {
    const world = new MemoryWorld();
    world.put('geoip', '1.2.3.4', 'FR');
    world.put('payment', '1.2.3.4', { status: 'pending' });
    expect(world.get('geoip', '1.2.3.4')).toBe('FR');
    expect(world.get('payment', '1.2.3.4')).toEqual({ status: 'pending' });
    expect(world.get('geoip', '5.6.7.8')).toBeUndefined();
  });

  it('orders documents by their first write, per kind: a rewrite keeps its place, a write after a delete goes last', () => {
    const world = new MemoryWorld();
    expect(['a', 'b', 'c'].map((key) => world.put('offer', key, { key }))).toEqual([1, 2, 3]);
    expect(world.put('mail', 'x', {})).toBe(1);
    expect(world.put('offer', 'a', { key: 'a', settled: true })).toBe(1);
    world.delete('offer', 'b');
    expect(world.put('offer', 'b', { key: 'b' })).toBe(4);
    expect(world.list('offer')).toEqual([
      { key: 'a', doc: { key: 'a', settled: true }, order: 1 },
      { key: 'c', doc: { key: 'c' }, order: 3 },
      { key: 'b', doc: { key: 'b' }, order: 4 },
    ]);
    expect(world.size('offer')).toBe(3);
  });

  it('forgets every kind on clear, and keeps counting orders after it (ids are never reused)', async () => {
    const world = new MemoryWorld();
    world.put('mail', 'm1', {});
    world.put('geoip', 'ip', 'FR');
    await world.clear();
    expect([world.list('mail'), world.get('geoip', 'ip')]).toEqual([[], undefined]);
    expect(world.put('mail', 'm2', {})).toBe(2);
  });

  it('deletes the documents of some kinds only', () => {
    const world = new MemoryWorld();
    world.put('offer', 't1', {});
    world.put('inventory', 'p:440', []);
    world.put('geoip', 'ip', 'FR');
    deleteKinds(world, 'offer', 'inventory');
    expect([world.size('offer'), world.size('inventory'), world.size('geoip')]).toEqual([0, 0, 1]);
  });

  it('flushes and syncs at once: there is no other instance', async () => {
    const world = new MemoryWorld();
    world.put('clock', 'offset', 1000);
    await world.flush();
    await world.sync();
    expect(world.get('clock', 'offset')).toBe(1000);
  });
});

describe('the documents of an instance', () => {
  it('lists entries that arrived out of order (another instance wrote first) sorted by order', () => {
    const documents = new Documents();
    documents.set('offer', 'late', 'L', 9);
    documents.set('offer', 'early', 'E', 3);
    documents.set('offer', 'middle', 'M', 5);
    expect(documents.list('offer').map((e) => e.key)).toEqual(['early', 'middle', 'late']);
    documents.set('offer', 'early', 'E2', 12); // a provisional order replaced by the durable one
    expect(documents.list('offer').map((e) => [e.key, e.doc])).toEqual([
      ['middle', 'M'],
      ['late', 'L'],
      ['early', 'E2'],
    ]);
  });
});

describe('the cache of computed answers', () => {
  it('keeps each answer as a document of the world, so every instance reuses it, and clears only its own kind', () => {
    const world = new MemoryWorld();
    const cache = worldCache(world);
    world.put('geoip', '1.2.3.4', 'FR');
    const entry = { at: 1_800_000_000, value: { lowest_sale_price: 120 } };
    cache.set('pricing:7', entry);
    expect(cache.get('pricing:7')).toEqual(entry);
    expect(world.get('cache', 'pricing:7')).toEqual(entry);
    expect(cache.get('pricing:8')).toBeUndefined();
    cache.clear();
    expect(cache.get('pricing:7')).toBeUndefined();
    expect(world.get('geoip', '1.2.3.4')).toBe('FR');
  });
});
