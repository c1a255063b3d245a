// The rate-limit windows of every instance on one database (ADR 0019): one row per key, counted by
// one atomic statement per request, so a limit holds across the service (per user, route and
// method, per API key, per IP), not per instance. The contract's one fixed-window limiter counts on
// them (@marketplace/contract's FixedWindowLimiter); "now" is its clock (the shared test clock in
// test mode), never the database's.
import type { RateWindow, RateWindows } from '@marketplace/contract';
import type { Pool } from './connection.ts';

/** Counted requests between two sweeps of expired windows. */
const SWEEP_EVERY = 5_000;

export class PostgresRateWindows implements RateWindows {
  readonly #pool: Pool;
  #sinceSweep = 0;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async count(key: string, now: number, length: number, cap: number): Promise<RateWindow> {
    // The contract's `windowIsOver` in SQL: a window that is over, or starts after `now` (a test
    // clock moved back), starts again at `now`. The count stops at `cap`.
    // Named: prepared once per connection, as it runs for most requests.
    const { rows } = await this.#pool.query<RateWindow>({
      name: 'marketplace-rate-count',
      text: `INSERT INTO marketplace_rate_windows AS w (key, start, window_seconds, count) VALUES ($1, $2, $3, 1)
       ON CONFLICT (key) DO UPDATE SET
         start = CASE WHEN $2 >= w.start + w.window_seconds OR $2 < w.start THEN $2 ELSE w.start END,
         window_seconds = CASE WHEN $2 >= w.start + w.window_seconds OR $2 < w.start THEN $3 ELSE w.window_seconds END,
         count = CASE WHEN $2 >= w.start + w.window_seconds OR $2 < w.start THEN 1 ELSE least(w.count + 1, $4) END
       RETURNING start, window_seconds AS length, count`,
      values: [key, now, length, cap],
    });
    if (++this.#sinceSweep >= SWEEP_EVERY) this.#sweep(now);
    return rows[0]!;
  }

  async read(key: string): Promise<RateWindow | undefined> {
    const { rows } = await this.#pool.query<RateWindow>(
      'SELECT start, window_seconds AS length, count FROM marketplace_rate_windows WHERE key = $1',
      [key],
    );
    return rows[0];
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
