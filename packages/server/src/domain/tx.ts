// A unit of work over the state: a command reads through it, writes into it, and either commits
// (every write is applied at once and returned as the change list the store journals) or is
// dropped (nothing happened). This is what makes "no half-applied change" hold: a command that
// fails half-way leaves the state as it was.
import type { Effect } from './effects.ts';
import type { CollectionName, Collections, State } from './state.ts';

export interface Change {
  c: CollectionName | 'meta';
  id: string;
  /** The new record, or null for a deletion. */
  row: unknown;
}

export type Result<T> =
  | { ok: true; value: T }
  | { ok: false; error: string | Record<string, unknown>; status?: number };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (error: string | Record<string, unknown>, status?: number): Result<never> =>
  status === undefined ? { ok: false, error } : { ok: false, error, status };

export class Tx {
  readonly state: State;
  #writes = new Map<string, { c: CollectionName; id: string; row: unknown }>();
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

  /** Every record of a collection as this unit of work sees it. */
  all<C extends CollectionName>(c: C): Readonly<Collections[C]>[] {
    const base = this.state[c] as Record<string, Collections[C]>;
    // Reads (most requests) see the state as it is: no copy.
    if (![...this.#writes.values()].some((w) => w.c === c)) return Object.values(base);
    const out = new Map<string, Collections[C]>(Object.entries(base));
    for (const w of this.#writes.values()) {
      if (w.c !== c) continue;
      if (w.row === null) out.delete(w.id);
      else out.set(w.id, w.row as Collections[C]);
    }
    return [...out.values()];
  }

  put<C extends CollectionName>(c: C, id: string | number, row: Collections[C]): Collections[C] {
    this.#writes.set(`${c}\u0000${id}`, { c, id: String(id), row });
    return row;
  }

  delete(c: CollectionName, id: string | number): void {
    this.#writes.set(`${c}\u0000${id}`, { c, id: String(id), row: null });
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
    for (const { c, id, row } of this.#writes.values()) {
      const collection = this.state[c] as Record<string, unknown>;
      undo.push({ c, id, row: Object.hasOwn(collection, id) ? collection[id] : null });
      if (row === null) delete collection[id];
      else collection[id] = row;
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
    this.#counters = {};
    this.#fees = 0;
    return { changes, undo: undo.reverse() };
  }
}

/** Applies journaled changes to a state (store recovery), or the undo list of a failed commit. */
export function applyChanges(state: State, changes: Change[]): void {
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
    if (row === null) delete collection[id];
    else collection[id] = row;
  }
}
