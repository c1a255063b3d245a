// The outside world the test helpers drive (ADR 0019 "What else is shared"): the platform
// simulator's inventories and offers, the payment provider simulator, the geo-IP table, the outbox
// and the test clock's offset. They are keyed JSON documents by kind, so that several instances on
// one database can share them: reads are local and synchronous (simulators and `clock.now()` are
// called inside engine code paths), a write applies here at once and is made durable and shared by
// `flush`, and `sync` takes what other instances wrote. With one process (a file store or
// :memory:) the world is `MemoryWorld`, where flush and sync cost nothing.

import type { Cache, CacheEntry } from './domain/cache.ts';

/** A document of a kind with its order: the service-wide order of its first write. */
export interface Listed<T> {
  key: string;
  doc: T;
  order: number;
}

export interface SharedWorld {
  get<T>(kind: string, key: string): T | undefined;
  /** The documents of a kind, oldest first (by order). */
  list<T>(kind: string): Listed<T>[];
  size(kind: string): number;
  /**
   * Writes a document (applied here at once; never mutate it afterwards); returns its order. A
   * document written before keeps its order, one written anew (or again after a delete) takes the next.
   */
  put(kind: string, key: string, doc: unknown): number;
  delete(kind: string, key: string): void;
  /**
   * Adds `delta` to a numeric document (0 when there is none) as one step service-wide, so that
   * instances adding at once lose none of it (a `put` of a value read here would); resolves to the
   * new value, which is then also the document here.
   */
  add(kind: string, key: string, delta: number): Promise<number>;
  /** Resolves once every write made before the call is durable and visible to other instances. */
  flush(): Promise<void>;
  /**
   * Applies what other instances wrote (called at the start of every request). `known`: a version
   * of the world read from the database since the request arrived (the store's catch-up reads it);
   * when this instance has applied it already, nothing is asked.
   */
  sync(known?: number): Promise<void>;
  /** True when other instances share the documents: only then do `sync` and `flush` do anything. */
  readonly replicated: boolean;
  /** Forgets every document of every kind, service-wide (POST /test_helpers/reset). */
  clear(): Promise<void>;
  /** Resolves once nothing is being written (before the connection closes). */
  close(): Promise<void>;
}

interface Entry {
  doc: unknown;
  order: number;
}

interface Kind {
  docs: Map<string, Entry>;
  /** The highest order in `docs`: a new entry below it unsorts the map. */
  last: number;
  sorted: boolean;
}

/**
 * The documents one instance holds, by kind and key. A kind's map stays in order as long as
 * entries arrive in order (always, with one process); otherwise it is re-sorted when next listed.
 */
export class Documents {
  #kinds = new Map<string, Kind>();

  #kind(kind: string): Kind {
    let k = this.#kinds.get(kind);
    if (!k) {
      k = { docs: new Map(), last: 0, sorted: true };
      this.#kinds.set(kind, k);
    }
    return k;
  }

  get<T>(kind: string, key: string): T | undefined {
    return this.#kinds.get(kind)?.docs.get(key)?.doc as T | undefined;
  }

  /** The order of a held document. */
  order(kind: string, key: string): number | undefined {
    return this.#kinds.get(kind)?.docs.get(key)?.order;
  }

  list<T>(kind: string): Listed<T>[] {
    const k = this.#kinds.get(kind);
    if (!k) return [];
    if (!k.sorted) {
      k.docs = new Map([...k.docs].sort((a, b) => a[1].order - b[1].order));
      k.sorted = true;
    }
    return Array.from(k.docs, ([key, { doc, order }]) => ({ key, doc: doc as T, order }));
  }

  size(kind: string): number {
    return this.#kinds.get(kind)?.docs.size ?? 0;
  }

  /** Holds `doc` under `key` with `order` (a held entry takes the new order too). */
  set(kind: string, key: string, doc: unknown, order: number): void {
    const k = this.#kind(kind);
    const held = k.docs.get(key);
    if (held) {
      held.doc = doc;
      if (held.order !== order) {
        held.order = order;
        k.sorted = false;
      }
    } else {
      k.docs.set(key, { doc, order });
      if (order < k.last) k.sorted = false;
    }
    k.last = Math.max(k.last, order);
  }

  remove(kind: string, key: string): void {
    this.#kinds.get(kind)?.docs.delete(key);
  }

  clear(): void {
    this.#kinds.clear();
  }
}

/** What every world reads from: the documents this instance holds. */
export abstract class HeldWorld {
  protected readonly documents = new Documents();

  get<T>(kind: string, key: string): T | undefined {
    return this.documents.get<T>(kind, key);
  }

  list<T>(kind: string): Listed<T>[] {
    return this.documents.list<T>(kind);
  }

  size(kind: string): number {
    return this.documents.size(kind);
  }
}

/** The world of one process: documents in memory, orders counted per kind (never reset, as ids were). */
export class MemoryWorld extends HeldWorld implements SharedWorld {
  readonly replicated = false;
  #counters = new Map<string, number>();

  put(kind: string, key: string, doc: unknown): number {
    let order = this.documents.order(kind, key);
    if (order === undefined) {
      order = (this.#counters.get(kind) ?? 0) + 1;
      this.#counters.set(kind, order);
    }
    this.documents.set(kind, key, doc, order);
    return order;
  }

  delete(kind: string, key: string): void {
    this.documents.remove(kind, key);
  }

  add(kind: string, key: string, delta: number): Promise<number> {
    const value = (this.get<number>(kind, key) ?? 0) + delta;
    this.put(kind, key, value);
    return Promise.resolve(value);
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  sync(): Promise<void> {
    return Promise.resolve();
  }

  clear(): Promise<void> {
    this.documents.clear();
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Deletes every document of `kinds` (a simulator's own `clear`; a service reset uses `clear()`). */
export function deleteKinds(world: SharedWorld, ...kinds: string[]): void {
  for (const kind of kinds) for (const { key } of world.list(kind)) world.delete(kind, key);
}

/**
 * The server's cache of computed answers (pricing, price lists) as documents of the world: every
 * instance reuses the answer one of them computed, as one server would (ADR 19).
 */
export function worldCache(world: SharedWorld): Cache & { clear(): void } {
  return {
    get: (key) => world.get<CacheEntry>('cache', key),
    set: (key, entry) => world.put('cache', key, entry),
    clear: () => deleteKinds(world, 'cache'),
  };
}
