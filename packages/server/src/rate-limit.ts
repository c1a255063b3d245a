// Fixed-window rate limiting (seed: Limits): about 600 requests per 60 s per user, route and
// method for API JWTs, and route-specific limits from the document's `x-rate-limit`. Windows read
// the injectable clock; counters live in memory only (they are not state worth persisting).
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

export class RateLimiter {
  readonly #clock: Clock;
  readonly #maxWindows: number;
  #windows = new Map<string, { start: number; count: number; window: number }>();

  /** `maxWindows`: past this many keys, expired windows are dropped (memory stays bounded). */
  constructor(clock: Clock, { maxWindows = 50_000 } = {}) {
    this.#clock = clock;
    this.#maxWindows = maxWindows;
  }

  /** How many windows are held. */
  get size(): number {
    return this.#windows.size;
  }

  /** Counts one request against `key`: at most `limit` per `windowSeconds`. */
  hit(key: string, limit: number, windowSeconds: number): Verdict {
    const now = this.#clock.now();
    let w = this.#windows.get(key);
    // A window that starts after `now` belongs to a clock the test helpers have moved back.
    if (!w || now >= w.start + w.window || now < w.start) {
      w = { start: now, count: 0, window: windowSeconds };
      this.#windows.set(key, w);
      if (this.#windows.size > this.#maxWindows) this.#sweep(now);
    }
    const reset = w.start + w.window;
    if (w.count >= limit) return { allowed: false, limit, remaining: 0, reset, retryAfter: Math.max(1, reset - now) };
    w.count += 1;
    return { allowed: true, limit, remaining: limit - w.count, reset, retryAfter: 0 };
  }

  /**
   * The verdict of one more request against `key`, without counting it: for rules that count only
   * some outcomes (failed logins), checked before the attempt and counted after it failed.
   */
  peek(key: string, limit: number, windowSeconds: number): Verdict {
    const now = this.#clock.now();
    const w = this.#windows.get(key);
    const live = w && now < w.start + w.window && now >= w.start;
    const reset = live ? w.start + w.window : now + windowSeconds;
    const count = live ? w.count : 0;
    if (count >= limit) return { allowed: false, limit, remaining: 0, reset, retryAfter: Math.max(1, reset - now) };
    return { allowed: true, limit, remaining: limit - count, reset, retryAfter: 0 };
  }

  /** Forgets every window (test helpers' reset). */
  clear(): void {
    this.#windows.clear();
  }

  #sweep(now: number): void {
    for (const [key, w] of this.#windows) if (now >= w.start + w.window) this.#windows.delete(key);
  }
}
