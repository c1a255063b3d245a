import { describe, expect, it } from 'vitest';
import { Chain } from './chain.ts';

/** A promise and the functions that settle it, for steps the test finishes by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
}

describe('Chain', () => {
  it('runs steps one at a time in the order they were queued, a failed step rejecting only its own promise', async () => {
    const chain = new Chain();
    const log: string[] = [];
    const first = gate();
    const one = chain.run(async () => {
      log.push('one starts');
      await first.opened;
      log.push('one ends');
      return 1;
    });
    const two = chain.run(async () => {
      log.push('two');
      throw new Error('two failed');
    });
    const three = chain.run(async () => {
      log.push('three');
      return 3;
    });
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(['one starts']); // nothing overtakes a running step
    first.open();
    await expect(one).resolves.toBe(1);
    await expect(two).rejects.toThrow('two failed');
    await expect(three).resolves.toBe(3);
    expect(log).toEqual(['one starts', 'one ends', 'two', 'three']);
  });

  it('drains the steps queued while it waits too', async () => {
    const chain = new Chain();
    const log: string[] = [];
    const first = gate();
    void chain.run(async () => {
      await first.opened;
      log.push('one');
      // Queued by a running step: the drain waits for it as well.
      void chain.run(async () => {
        await new Promise((r) => setTimeout(r, 10));
        log.push('queued meanwhile');
      });
    });
    let drained = false;
    const draining = chain.drain().then(() => {
      drained = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(drained).toBe(false);
    first.open();
    await draining;
    expect(log).toEqual(['one', 'queued meanwhile']);
    await expect(new Chain().drain()).resolves.toBeUndefined(); // nothing queued: at once
  });
});
