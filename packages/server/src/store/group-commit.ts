// Group commit, shared by the file store (a journal line per unit of work, ADR 0010) and the
// PostgreSQL store (a change row per unit of work, ADR 0019); see ADR 0027. A unit of work is
// applied to the state at once (later commands build on it) and queued; the units queued while
// the event loop turns are written together, one write at a time and in order, on one chain that
// the stores also use for their own steps (rotations, replacements, catch-ups). When a write
// fails, it and every later unit not yet durable (they were built on it) are undone from their
// before-images, newest first, and their promises reject. What a write is, and what its failure
// means, is each store's own. A write the store refuses for what one unit holds (a constraint, an
// encoding) fails that unit alone: the batch is written again one unit at a time, the units before
// the refused one are kept, and the ones after it run their commands again without it.
import type { State } from '../domain/state.ts';
import { applyChanges, type Change, type Tx } from '../domain/tx.ts';
import { Chain } from './chain.ts';

/** A write the store could not make durable: nothing of it (or of later writes) was kept. */
export class StoreWriteError extends Error {
  override name = 'StoreWriteError';
}

/**
 * A commit made on a state another instance has changed since (PostgreSQL store, ADR 0019): it was
 * undone, and the command runs again once the instance has caught up (`execute`).
 */
export class StoreConflict extends StoreWriteError {
  override name = 'StoreConflict';
}

/**
 * The store could not be reached (PostgreSQL restarting, a connection dropped): nothing of the
 * write was kept, and the same request can be sent again once it is back (HTTP 503, Retry-After).
 */
export class StoreUnavailable extends StoreWriteError {
  override name = 'StoreUnavailable';
}

/**
 * The store refused what one unit of work holds (a constraint, an encoding), not the write itself:
 * that unit alone fails with it, and the others of its batch are kept or run again.
 */
export class RefusedChange extends StoreWriteError {
  override name = 'RefusedChange';
}

/** A unit of work applied to the state and waiting to be durable. */
export interface Pending<Entry> {
  seq: number;
  /** What the store writes for it (a journal line, the changes of a change row). */
  entry: Entry;
  /** Its before-images: applied newest first, they take the state back. */
  undo: Change[];
  done: () => void;
  failed: (error: unknown) => void;
}

export interface GroupCommitOptions<Entry> {
  /** The state units of work are applied to (a store may replace it: a reset, a reload). */
  state: () => State;
  /** The newest seq known to be durable. */
  durableSeq: number;
  /** What is written for a unit of work, made when it commits (later units may change its records). */
  entry: (seq: number, changes: Change[]) => Entry;
  /** Makes a batch durable, in order; throws when nothing of it was kept. Runs on the chain. */
  write: (batch: Pending<Entry>[]) => Promise<void>;
  /** A write threw: the store rolls back (`rollBack`) with the error its callers get, and cleans up. */
  failed: (batch: Pending<Entry>[], error: unknown) => Promise<void> | void;
  /**
   * Whether a write's error is the store refusing what a unit holds (nothing was kept, and the
   * same write would fail again): the batch is then written one unit at a time to find it.
   */
  refusedChange?: (error: unknown) => boolean;
  /** A batch is durable and its callers answered (housekeeping). */
  written?: (batch: Pending<Entry>[]) => void;
  /** A unit of work joined the queue; `durable` settles with its promise. */
  queued?: (durable: Promise<void>) => void;
}

export class GroupCommit<Entry> {
  /** The newest seq known to be durable (a store moves it when it reloads or replaces the state). */
  durableSeq: number;
  readonly #options: GroupCommitOptions<Entry>;
  #queue: Pending<Entry>[] = [];
  // Writes and the stores' own steps run one at a time, in order, on this chain.
  readonly #chain = new Chain();
  #flushScheduled = false;
  #refusal: string | undefined;

  constructor(options: GroupCommitOptions<Entry>) {
    this.#options = options;
    this.durableSeq = options.durableSeq;
  }

  /** Why every write is refused, or undefined; only a restart clears it. */
  get refusal(): string | undefined {
    return this.#refusal;
  }

  /** Refuses every write from now on (the store can no longer say what is durable). */
  refuse(reason: string): void {
    this.#refusal = reason;
  }

  /** Units of work applied and not yet handed to a write. */
  get waiting(): number {
    return this.#queue.length;
  }

  /**
   * Applies `tx` to the state as the next seq and queues it; resolves once it is durable, rejects
   * when it was undone. A unit of work that changes nothing resolves at once.
   */
  commit(tx: Tx): Promise<void> {
    if (this.#refusal) return Promise.reject(new StoreWriteError(`the store refuses writes: ${this.#refusal}`));
    const { changes, undo } = tx.commitWithUndo();
    if (changes.length === 0) return Promise.resolve();
    const state = this.#options.state();
    state.seq += 1;
    const seq = state.seq;
    let entry: Entry;
    try {
      entry = this.#options.entry(seq, changes);
    } catch (error) {
      // What the store cannot even write down (a value its format cannot hold) fails alone, undone.
      applyChanges(state, undo);
      state.seq -= 1;
      return Promise.reject(
        new RefusedChange(`the store refused this change (${messageOf(error)}); nothing of it was kept`),
      );
    }
    const durable = new Promise<void>((done, failed) => this.#queue.push({ seq, entry, undo, done, failed }));
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      // The units committed while the event loop turns share the write.
      this.onChain(() => new Promise<void>((r) => setImmediate(r)).then(() => this.#flush()));
    }
    this.#options.queued?.(durable);
    return durable;
  }

  /** Runs `step` on the chain, after every write and step before it. */
  onChain<T>(step: () => Promise<T>): Promise<T> {
    return this.#chain.run(step);
  }

  /** Resolves once no write or step is pending or running. */
  drain(): Promise<void> {
    return this.#chain.drain();
  }

  /**
   * Undoes `failedBatch` and every unit queued after it, newest first, puts the state's seq back to
   * the durable one and rejects their promises with `failure`, all at once: nothing can commit on
   * the undone state in between.
   */
  rollBack(failedBatch: Pending<Entry>[], failure: Error): void {
    const pending = this.#undo(failedBatch);
    for (const p of pending) p.failed(failure);
  }

  /**
   * `rollBack`, rejecting the promises only once `settle` (the store's own clean-up, such as cutting
   * the journal back) is done: a caller told of the failure sees the store as it then is.
   */
  async rollBackAfter(settle: () => Promise<void>, failedBatch: Pending<Entry>[], failure: Error): Promise<void> {
    const pending = this.#undo(failedBatch);
    await settle();
    for (const p of pending) p.failed(failure);
  }

  #undo(failedBatch: Pending<Entry>[]): Pending<Entry>[] {
    const pending = [...failedBatch, ...this.#queue];
    this.#queue = [];
    const state = this.#options.state();
    for (const p of pending.toReversed()) applyChanges(state, p.undo);
    state.seq = this.durableSeq;
    return pending;
  }

  async #flush(): Promise<void> {
    this.#flushScheduled = false;
    const batch = this.#queue;
    this.#queue = [];
    if (batch.length === 0) return;
    if (this.#refusal) {
      this.rollBack(batch, new StoreWriteError(`the store refuses writes: ${this.#refusal}`));
      return;
    }
    try {
      await this.#options.write(batch);
    } catch (error) {
      if (this.#options.refusedChange?.(error)) await this.#isolate(batch, error);
      else await this.#options.failed(batch, error);
      return;
    }
    this.#durable(batch);
  }

  #durable(batch: Pending<Entry>[]): void {
    this.durableSeq = batch.at(-1)!.seq;
    for (const p of batch) p.done();
    this.#options.written?.(batch);
  }

  /**
   * A batch the store refused for what one of its units holds: written again one unit at a time,
   * in order, each unit before the refused one is durable as it was. The refused unit fails alone;
   * the units after it (and those queued since) were built on it, so they are undone with it and
   * their commands run again on the state without it (`StoreConflict`, as after another
   * instance's commit: `execute` retries).
   */
  async #isolate(batch: Pending<Entry>[], refusal: unknown): Promise<void> {
    let refused = 0;
    let error = refusal;
    if (batch.length > 1) {
      for (; refused < batch.length; refused++) {
        const unit = batch[refused]!;
        try {
          await this.#options.write([unit]);
        } catch (alone) {
          if (!this.#options.refusedChange?.(alone)) return this.#options.failed(batch.slice(refused), alone);
          error = alone;
          break;
        }
        this.#durable([unit]);
      }
      if (refused === batch.length) return; // every unit went through alone: what failed was their sum
    }
    const [unit, ...undone] = this.#undo(batch.slice(refused));
    unit!.failed(new RefusedChange(`the store refused this change (${messageOf(error)}); nothing of it was kept`));
    for (const p of undone) p.failed(new StoreConflict('run again without a change the store refused'));
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
