// Every time-based rule reads this clock (JWT expiry, cooldowns, rate-limit windows, caches, code
// lifetimes, trade holds, giveaway ends), so tests can move time through POST /test_helpers/clock.
// The test clock's offset is a document of the shared world: every instance on one database reads
// the same time.
import { MemoryWorld, type SharedWorld } from './world.ts';

export interface Clock {
  /** Unix seconds. */
  now(): number;
  /** Unix milliseconds. */
  nowMs(): number;
}

export const systemClock: Clock = {
  now: () => Math.floor(Date.now() / 1000),
  nowMs: () => Date.now(),
};

export interface TestClock extends Clock {
  set(unixSeconds: number): void;
  /** Moves the clock on by `seconds`, added to the shared offset as one step (instances at once lose none). */
  advance(seconds: number): Promise<void>;
  /** Back to real time. */
  reset(): void;
}

const KIND = 'clock';
const KEY = 'offset';

/** A clock that follows real time shifted by an offset the test helpers control. */
export function createTestClock(base: Clock = systemClock, world: SharedWorld = new MemoryWorld()): TestClock {
  const offsetMs = () => world.get<number>(KIND, KEY) ?? 0;
  const nowMs = () => base.nowMs() + offsetMs();
  return {
    nowMs,
    now: () => Math.floor(nowMs() / 1000),
    set: (unix) => {
      world.put(KIND, KEY, unix * 1000 - base.nowMs());
    },
    advance: async (seconds) => {
      await world.add(KIND, KEY, seconds * 1000);
    },
    reset: () => {
      world.delete(KIND, KEY);
    },
  };
}
