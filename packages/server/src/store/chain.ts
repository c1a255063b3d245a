// Steps that run one at a time, in the order they were queued: the group commit's writes and the
// stores' own steps (group-commit.ts, ADR 0027), the shared world's flushes, syncs and clears
// (postgres/world.ts). A step that fails rejects its own promise only: the next one runs anyway.

export class Chain {
  #tail: Promise<void> = Promise.resolve();

  /** Runs `step` after every step queued before it; settles as it does. */
  run<T>(step: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(step);
    this.#tail = run.then(
      () => {},
      () => {},
    );
    return run;
  }

  /** Resolves once no step is queued or running, steps queued while it waits included. */
  async drain(): Promise<void> {
    for (let seen: Promise<void> | undefined; seen !== this.#tail; ) {
      seen = this.#tail;
      await this.#tail;
    }
  }
}
