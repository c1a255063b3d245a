// A unit of work over the state: a command reads through it, writes into it, and either commits
// (every write is applied at once and returned as the change list the store journals) or is
// dropped (nothing happened). This is what makes "no half-applied change" hold: a command that
// fails half-way leaves the state as it was.
import type { Effect } from './effects.ts';
import {
  builtIndexes,
  defOf,
  type HashName,
  indexesOf,
  keysOf,
  type RowOf,
  type SortedDef,
  type SortedName,
} from './indexes.ts';
import type { CollectionName, Collections, State } from './state.ts';

export interface Change {
  c: CollectionName | 'meta';
  id: string;
  /** The new record, or null for a deletion. */
  row: unknown;
}

/** What a command may fail with: a message, or an object content (`{type, message}`) where the document has one. */
export type Failure = string | Record<string, unknown>;

/**
 * A command's outcome. `E` names the failures it may answer (`Result<Order, typeof X.a | typeof
 * X.b>`): a handler answers the result as its operation's reply, and that reply admits only the
 * messages the operation documents (http/context.ts), so `tsc` fails where a command can answer a
 * message the document does not list for the route.
 */
export type Result<T, E extends Failure = Failure> = { ok: true; value: T } | { ok: false; error: E; status?: number };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
/** A failure, its message kept as its literal type (the constants of messages.ts are `as const`). */
export const fail = <const E extends Failure>(error: E, status?: number): Result<never, E> =>
  status === undefined ? { ok: false, error } : { ok: false, error, status };

export class Tx {
  readonly state: State;
  #writes = new Map<string, { c: CollectionName; id: string; row: unknown }>();
  /** The same writes by collection, and the committed records they replace: what a query overlays. */
  #written = new Map<CollectionName, Map<string, object | null>>();
  #shadowed = new Map<CollectionName, Set<object>>();
  #counters: Record<string, number> = {};
  #fees = 0;
  #effects: Effect[] = [];
  #keepOnFailure = false;

  constructor(state: State) {
    this.state = state;
  }

  /** A record as this unit of work sees it. Treat it as read-only: write changes with `put`. */
  get<C extends CollectionName>(c: C, id: string | number): Readonly<Collections[C]> | undefined {
    const key = `${c}\u0000${id}`;
    if (this.#writes.has(key)) return (this.#writes.get(key)!.row ?? undefined) as Collections[C] | undefined;
    return this.state[c][String(id)] as Collections[C] | undefined;
  }

  /**
   * Every record of a collection as this unit of work sees it. Its cost grows with the collection:
   * routes read through the indexed queries below (`find`, `ordered`, `count`, `total`).
   */
  all<C extends CollectionName>(c: C): Readonly<Collections[C]>[] {
    const base = Object.values(this.state[c] as Record<string, Collections[C]>);
    const written = this.#written.get(c);
    if (!written) return base; // reads (most requests) see the state as it is
    const shadowed = this.#shadowed.get(c)!;
    const out = shadowed.size === 0 ? base : base.filter((r) => !shadowed.has(r));
    for (const row of written.values()) if (row !== null) out.push(row as Collections[C]);
    return out;
  }

  put<C extends CollectionName>(c: C, id: string | number, row: Collections[C]): Collections[C] {
    this.#write(c, String(id), row);
    return row;
  }

  delete(c: CollectionName, id: string | number): void {
    this.#write(c, String(id), null);
  }

  #write(c: CollectionName, id: string, row: object | null): void {
    this.#writes.set(`${c}\u0000${id}`, { c, id, row });
    let written = this.#written.get(c);
    if (!written) {
      written = new Map();
      this.#written.set(c, written);
      this.#shadowed.set(c, new Set());
    }
    if (!written.has(id)) {
      const committed = (this.state[c] as Record<string, object>)[id];
      if (committed) this.#shadowed.get(c)!.add(committed);
    }
    written.set(id, row);
  }

  /** The records under `key` of a hash index (indexes.ts), in no particular order. */
  find<N extends HashName>(name: N, key: string): RowOf<N>[] {
    const def = defOf(name);
    const out: object[] = [];
    const shadowed = this.#shadowed.get(def.c);
    for (const row of indexesOf(this.state).bucket(name, key)) if (!shadowed?.has(row)) out.push(row);
    for (const row of this.#pending(def.c)) if (def.kind === 'hash' && keysOf(def, row).includes(key)) out.push(row);
    return out as RowOf<N>[];
  }

  /** The first record under `key` of a hash index (for keys that name one record). */
  findOne<N extends HashName>(name: N, key: string): RowOf<N> | undefined {
    return this.find(name, key)[0];
  }

  /** How many records a hash index holds under `key`, or a sorted index in `group`. */
  count(name: HashName | SortedName, key: string): number {
    const def = defOf(name);
    if (def.kind === 'sorted') return this.#sum(name as SortedName, key, () => 1);
    let n = indexesOf(this.state).bucketSize(name as HashName, key);
    for (const row of this.#shadowed.get(def.c) ?? []) if (keysOf(def, row).includes(key)) n -= 1;
    for (const row of this.#pending(def.c)) if (keysOf(def, row).includes(key)) n += 1;
    return n;
  }

  /** The summed weight of a sorted index's group (the amounts of an item's active buy orders). */
  total(name: SortedName, group: string): number {
    const def = defOf(name) as SortedDef<CollectionName> & { weight?: (row: object) => number };
    return this.#sum(name, group, def.weight ?? (() => 1), true);
  }

  #sum(name: SortedName, group: string, weight: (row: object) => number, weighted = false): number {
    const def = defOf(name) as SortedDef<CollectionName> & { group: (row: object) => string | undefined };
    const g = indexesOf(this.state).group(name, group);
    let n = g ? (weighted ? g.weight : g.tree.size) : 0;
    for (const row of this.#shadowed.get(def.c) ?? []) if (def.group(row) === group) n -= weight(row);
    for (const row of this.#pending(def.c)) if (def.group(row) === group) n += weight(row);
    return n;
  }

  /**
   * The records of a sorted index's group in its order, starting at `from` (a record or a partial
   * one holding the fields the order compares). Lazy: a reader that stops early pays for what it read.
   */
  *ordered<N extends SortedName>(name: N, group: string, from?: Partial<RowOf<N>>): Generator<RowOf<N>> {
    const def = defOf(name) as SortedDef<CollectionName> & {
      group: (row: object) => string | undefined;
      order: (a: object, b: object) => number;
    };
    const shadowed = this.#shadowed.get(def.c);
    const tree = indexesOf(this.state).group(name, group)?.tree;
    // Nothing of this collection written here (every read): the committed order as it is.
    if (shadowed === undefined) {
      if (tree) yield* tree.keys(from) as IterableIterator<RowOf<N>>;
      return;
    }
    const pending = [...this.#pending(def.c)]
      .filter((r) => def.group(r) === group && (from === undefined || def.order(r, from) >= 0))
      .sort(def.order);
    let i = 0;
    if (tree)
      for (const row of tree.keys(from)) {
        if (shadowed?.has(row)) continue;
        while (i < pending.length && def.order(pending[i]!, row) < 0) yield pending[i++] as RowOf<N>;
        yield row as RowOf<N>;
      }
    while (i < pending.length) yield pending[i++] as RowOf<N>;
  }

  /** The first record of a sorted index's group in its order: `ordered(...)`'s first, without a generator when nothing was written. */
  first<N extends SortedName>(name: N, group: string): RowOf<N> | undefined {
    if (this.#shadowed.has(defOf(name).c)) return this.ordered(name, group).next().value;
    return indexesOf(this.state).group(name, group)?.tree.minKey() as RowOf<N> | undefined;
  }

  /**
   * The groups of a sorted index that hold records, as this unit of work sees them (the items with
   * a listing, the items with an active buy order), in no particular order: the committed groups
   * plus those this unit of work filled, minus those it emptied. O(groups + its own writes).
   */
  groups(name: SortedName): string[] {
    const def = defOf(name) as SortedDef<CollectionName> & { group: (row: object) => string | undefined };
    const out = new Set(indexesOf(this.state).trees.get(name)!.keys());
    const touched = new Set<string>();
    for (const row of [...(this.#shadowed.get(def.c) ?? []), ...this.#pending(def.c)]) {
      const group = def.group(row);
      if (group !== undefined) touched.add(group);
    }
    for (const group of touched) {
      if (this.count(name, group) > 0) out.add(group);
      else out.delete(group);
    }
    return [...out];
  }

  /** The last record of a sorted index's group (the lowest-priced of an item's buy orders). */
  last<N extends SortedName>(name: N, group: string): RowOf<N> | undefined {
    if (!this.#written.has(defOf(name).c)) return indexesOf(this.state).group(name, group)?.tree.maxKey() as RowOf<N>;
    let last: RowOf<N> | undefined;
    for (const row of this.ordered(name, group)) last = row;
    return last;
  }

  /** The records this unit of work wrote to a collection (not deleted). */
  *#pending(c: CollectionName): Generator<object> {
    for (const row of this.#written.get(c)?.values() ?? []) if (row !== null) yield row;
  }

  /** The next numeric ID of a collection (1, 2, ...). */
  nextId(c: CollectionName): number {
    const next = (this.#counters[c] ?? this.state.counters[c] ?? 0) + 1;
    this.#counters[c] = next;
    return next;
  }

  /** Makes sure `nextId` never hands out `id` again (a record stored with a chosen ID). */
  claimId(c: CollectionName, id: number): void {
    if (id > (this.#counters[c] ?? this.state.counters[c] ?? 0)) this.#counters[c] = id;
  }

  /** Records cents kept by the marketplace as fees. */
  collectFee(cents: number): void {
    this.#fees += cents;
  }

  /** Asks for an outside effect once the unit of work is durable (domain/effects.ts). */
  emit(effect: Effect): void {
    this.#effects.push(effect);
  }

  /** The effects emitted so far, in order. */
  get effects(): readonly Effect[] {
    return this.#effects;
  }

  /**
   * Makes the writes made so far count even if the command then fails: a wrong code counts as an
   * attempt although the request is refused. Effects of a failed command are still dropped.
   */
  keepWritesOnFailure(): void {
    this.#keepOnFailure = true;
  }

  get keepsWritesOnFailure(): boolean {
    return this.#keepOnFailure;
  }

  /** Applies every write to the state and returns them as journal changes. */
  commit(): Change[] {
    return this.commitWithUndo().changes;
  }

  /**
   * Applies every write to the state; returns the journal changes and the changes that undo them
   * (the before-images, newest first). The store keeps the undo list until the change is durable,
   * so a failed journal write leaves the state as it was (ADR 0010).
   */
  commitWithUndo(): { changes: Change[]; undo: Change[] } {
    const changes: Change[] = [];
    const undo: Change[] = [];
    const indexes = builtIndexes(this.state);
    for (const { c, id, row } of this.#writes.values()) {
      const collection = this.state[c] as Record<string, object>;
      undo.push({ c, id, row: Object.hasOwn(collection, id) ? collection[id] : null });
      indexes?.update(c, collection[id], (row ?? undefined) as object | undefined);
      if (row === null) delete collection[id];
      else collection[id] = row as object;
      changes.push({ c, id, row });
    }
    for (const [c, n] of Object.entries(this.#counters)) {
      undo.push({ c: 'meta', id: `counter:${c}`, row: this.state.counters[c] ?? null });
      this.state.counters[c] = n;
      changes.push({ c: 'meta', id: `counter:${c}`, row: n });
    }
    if (this.#fees !== 0) {
      undo.push({ c: 'meta', id: 'feesCollected', row: this.state.feesCollected });
      this.state.feesCollected += this.#fees;
      changes.push({ c: 'meta', id: 'feesCollected', row: this.state.feesCollected });
    }
    this.#writes.clear();
    this.#written.clear();
    this.#shadowed.clear();
    this.#counters = {};
    this.#fees = 0;
    return { changes, undo: undo.reverse() };
  }
}

/** Applies journaled changes to a state (store recovery), or the undo list of a failed commit. */
export function applyChanges(state: State, changes: Change[]): void {
  // Built indexes follow each record (an undo after a failed journal write); replay at load runs
  // before any index is built.
  const indexes = builtIndexes(state);
  for (const { c, id, row } of changes) {
    if (c === 'meta') {
      if (id === 'feesCollected') state.feesCollected = row as number;
      else if (id.startsWith('counter:')) {
        // null: the counter did not exist before the commit being undone
        if (row === null) delete state.counters[id.slice(8)];
        else state.counters[id.slice(8)] = row as number;
      }
      continue;
    }
    const collections = state as unknown as Record<string, Record<string, unknown>>;
    collections[c] ??= {}; // a journal may name a collection that an older snapshot lacks
    const collection = collections[c];
    indexes?.update(
      c as CollectionName,
      collection[id] as object | undefined,
      (row ?? undefined) as object | undefined,
    );
    if (row === null) delete collection[id];
    else collection[id] = row;
  }
}
