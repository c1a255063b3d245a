// The one fixed-window limiter of the API's rate limits (seed: "Limits"): at most `limit` requests
// per key in a window of `window` seconds that opens at the key's first request. Where the windows
// are kept is the host's: in memory for one process (`MemoryWindows`), in a database for several
// instances (the reference server's PostgreSQL windows), so that a limit holds across the service.
// "Now" is the host's clock (the test helpers' clock in test mode), never the store's.

/** What one more request against a key gets. */
export interface Verdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
  /** Seconds to wait; 0 when allowed. */
  retryAfter: number;
}

/** A key's window: when it opened (Unix seconds), how many seconds it lasts, what it counted. */
export interface RateWindow {
  start: number;
  length: number;
  count: number;
}

/** Where the windows are kept. Each call is atomic per key, whichever instance makes it. */
export interface RateWindows {
  /**
   * Counts one request under `key` at `now` and answers the window after it. A window that is
   * over, or that opens after `now` (a test clock moved back), opens again at `now` for `length`
   * seconds (`windowIsOver`); the count stops at `cap`, so a refused request changes nothing.
   */
  count(key: string, now: number, length: number, cap: number): Promise<RateWindow>;
  /** The window of `key` as kept, over or not. */
  read(key: string): Promise<RateWindow | undefined>;
  /** Forgets every window (the test helpers' reset). */
  clear(): Promise<void>;
}

/** Whether `w` no longer counts at `now`: it is over, or opens later (a clock moved back). */
export const windowIsOver = (w: RateWindow, now: number): boolean => now >= w.start + w.length || now < w.start;

/** A refusal: the window that ends at `reset` is full. */
const refused = (limit: number, reset: number, now: number): Verdict => ({
  allowed: false,
  limit,
  remaining: 0,
  reset,
  retryAfter: Math.max(1, reset - now),
});

const allowed = (limit: number, remaining: number, reset: number): Verdict => ({
  allowed: true,
  limit,
  remaining,
  reset,
  retryAfter: 0,
});

/** Fixed windows over `windows`, on the host's clock. */
export class FixedWindowLimiter {
  readonly #windows: RateWindows;
  readonly #now: () => number;

  constructor(windows: RateWindows, now: () => number) {
    this.#windows = windows;
    this.#now = now;
  }

  /** Counts one request against `key`: at most `limit` per `windowSeconds`. */
  async hit(key: string, limit: number, windowSeconds: number): Promise<Verdict> {
    const now = this.#now();
    const w = await this.#windows.count(key, now, windowSeconds, limit + 1);
    const reset = w.start + w.length;
    return w.count > limit ? refused(limit, reset, now) : allowed(limit, limit - w.count, reset);
  }

  /**
   * The verdict of one more request against `key`, without counting it: for rules that count only
   * some outcomes (failed logins), checked before the attempt and counted after it failed.
   */
  async peek(key: string, limit: number, windowSeconds: number): Promise<Verdict> {
    const now = this.#now();
    const w = await this.#windows.read(key);
    const live = w !== undefined && !windowIsOver(w, now);
    const reset = live ? w.start + w.length : now + windowSeconds;
    const count = live ? w.count : 0;
    return count >= limit ? refused(limit, reset, now) : allowed(limit, limit - count, reset);
  }

  /** Forgets every window (the test helpers' reset). */
  clear(): Promise<void> {
    return this.#windows.clear();
  }
}

/** The windows of one process. */
export class MemoryWindows implements RateWindows {
  readonly #maxWindows: number;
  #windows = new Map<string, RateWindow>();

  /** `maxWindows`: past this many keys, windows that are over are dropped (memory stays bounded). */
  constructor({ maxWindows = 50_000 } = {}) {
    this.#maxWindows = maxWindows;
  }

  /** How many windows are held. */
  get size(): number {
    return this.#windows.size;
  }

  async count(key: string, now: number, length: number, cap: number): Promise<RateWindow> {
    let w = this.#windows.get(key);
    if (!w || windowIsOver(w, now)) {
      w = { start: now, length, count: 0 };
      this.#windows.set(key, w);
      if (this.#windows.size > this.#maxWindows)
        for (const [k, old] of this.#windows) if (now >= old.start + old.length) this.#windows.delete(k);
    }
    w.count = Math.min(w.count + 1, cap);
    return { ...w };
  }

  async read(key: string): Promise<RateWindow | undefined> {
    const w = this.#windows.get(key);
    return w && { ...w };
  }

  async clear(): Promise<void> {
    this.#windows.clear();
  }
}
