// The rate-limit windows of every instance on one database (ADR 0019): one row per key, counted by
// one atomic statement per request, so a limit holds across the service (per user, route and
// method, per API key, per IP), not per instance. "Now" is the caller's clock (the shared test
// clock in test mode), never the database's, as with the in-memory windows.
import type { Clock } from '../../clock.ts';
import { allowed, type Limiter, peekVerdict, refused, type Verdict } from '../../rate-limit.ts';
import type { Pool } from './connection.ts';

/** Counted requests between two sweeps of expired windows. */
const SWEEP_EVERY = 5_000;

export class PostgresRateLimiter implements Limiter {
  readonly #clock: Clock;
  readonly #pool: Pool;
  #sinceSweep = 0;

  constructor(clock: Clock, pool: Pool) {
    this.#clock = clock;
    this.#pool = pool;
  }

  async hit(key: string, limit: number, windowSeconds: number): Promise<Verdict> {
    const now = this.#clock.now();
    // A window that is over, or starts after `now` (a test clock moved back), starts again at
    // `now`. The count stops one past the limit: a refused request changes nothing but says so.
    const { rows } = await this.#pool.query<{ start: number; window_seconds: number; count: number }>(
      `INSERT INTO marketplace_rate_windows AS w (key, start, window_seconds, count) VALUES ($1, $2, $3, 1)
       ON CONFLICT (key) DO UPDATE SET
         start = CASE WHEN $2 >= w.start + w.window_seconds OR $2 < w.start THEN $2 ELSE w.start END,
         window_seconds = CASE WHEN $2 >= w.start + w.window_seconds OR $2 < w.start THEN $3 ELSE w.window_seconds END,
         count = CASE WHEN $2 >= w.start + w.window_seconds OR $2 < w.start THEN 1 ELSE least(w.count + 1, $4 + 1) END
       RETURNING start, window_seconds, count`,
      [key, now, windowSeconds, limit],
    );
    if (++this.#sinceSweep >= SWEEP_EVERY) this.#sweep(now);
    const { start, window_seconds, count } = rows[0]!;
    const reset = start + window_seconds;
    return count > limit ? refused(limit, reset, now) : allowed(limit, limit - count, reset);
  }

  async peek(key: string, limit: number, windowSeconds: number): Promise<Verdict> {
    const { rows } = await this.#pool.query<{ start: number; window: number; count: number }>(
      'SELECT start, window_seconds AS window, count FROM marketplace_rate_windows WHERE key = $1',
      [key],
    );
    return peekVerdict(rows[0], limit, windowSeconds, this.#clock.now());
  }

  async clear(): Promise<void> {
    await this.#pool.query('DELETE FROM marketplace_rate_windows');
  }

  /** Drops windows that are over, so the table holds the keys of the last minutes only. */
  #sweep(now: number): void {
    this.#sinceSweep = 0;
    this.#pool.query('DELETE FROM marketplace_rate_windows WHERE start + window_seconds <= $1', [now]).catch(() => {}); // housekeeping: the next sweep retries
  }
}
