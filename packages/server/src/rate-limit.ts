// Fixed-window rate limiting (seed: Limits): about 600 requests per 60 s per user, route and
// method for API JWTs, and route-specific limits from the document's `x-rate-limit`. Windows read
// the injectable clock. With one process the counters live in memory (they are not state worth
// persisting); instances on one database count in it (store/postgres/rate-windows.ts), so a limit
// is per user, route and key across the service, not per instance.
import type { Clock } from './clock.ts';

export interface Verdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
  /** Seconds to wait; 0 when allowed. */
  retryAfter: number;
}

export interface Limiter {
  /** Counts one request against `key`: at most `limit` per `windowSeconds`. */
  hit(key: string, limit: number, windowSeconds: number): Promise<Verdict>;
  /**
   * The verdict of one more request against `key`, without counting it: for rules that count only
   * some outcomes (failed logins), checked before the attempt and counted after it failed.
   */
  peek(key: string, limit: number, windowSeconds: number): Promise<Verdict>;
  /** Forgets every window (test helpers' reset). */
  clear(): Promise<void>;
}

/** A refusal: the window that ends at `reset` is full. */
export const refused = (limit: number, reset: number, now: number): Verdict => ({
  allowed: false,
  limit,
  remaining: 0,
  reset,
  retryAfter: Math.max(1, reset - now),
});

export const allowed = (limit: number, remaining: number, reset: number): Verdict => ({
  allowed: true,
  limit,
  remaining,
  reset,
  retryAfter: 0,
});

export interface Window {
  start: number;
  count: number;
  window: number;
}

/** What `peek` answers for a key's window (none, or one that is over: a fresh window). */
export function peekVerdict(w: Window | undefined, limit: number, windowSeconds: number, now: number): Verdict {
  const live = w && now < w.start + w.window && now >= w.start;
  const reset = live ? w.start + w.window : now + windowSeconds;
  const count = live ? w.count : 0;
  return count >= limit ? refused(limit, reset, now) : allowed(limit, limit - count, reset);
}

/** The windows of one process, in memory. */
export class RateLimiter implements Limiter {
  readonly #clock: Clock;
  readonly #maxWindows: number;
  #windows = new Map<string, Window>();

  /** `maxWindows`: past this many keys, expired windows are dropped (memory stays bounded). */
  constructor(clock: Clock, { maxWindows = 50_000 } = {}) {
    this.#clock = clock;
    this.#maxWindows = maxWindows;
  }

  /** How many windows are held. */
  get size(): number {
    return this.#windows.size;
  }

  async hit(key: string, limit: number, windowSeconds: number): Promise<Verdict> {
    const now = this.#clock.now();
    let w = this.#windows.get(key);
    // A window that starts after `now` belongs to a clock the test helpers have moved back.
    if (!w || now >= w.start + w.window || now < w.start) {
      w = { start: now, count: 0, window: windowSeconds };
      this.#windows.set(key, w);
      if (this.#windows.size > this.#maxWindows) this.#sweep(now);
    }
    const reset = w.start + w.window;
    if (w.count >= limit) return refused(limit, reset, now);
    w.count += 1;
    return allowed(limit, limit - w.count, reset);
  }

  async peek(key: string, limit: number, windowSeconds: number): Promise<Verdict> {
    return peekVerdict(this.#windows.get(key), limit, windowSeconds, this.#clock.now());
  }

  async clear(): Promise<void> {
    this.#windows.clear();
  }

  #sweep(now: number): void {
    for (const [key, w] of this.#windows) if (now >= w.start + w.window) this.#windows.delete(key);
  }
}
