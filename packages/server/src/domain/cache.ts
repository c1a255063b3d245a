// Time-boxed reuse of computed answers (seed: "Limits" - single-item pricing cached 20 minutes,
// bulk pricing reuses rows updated within 5 minutes, price lists refreshed every 3 minutes).
// The cache is a map handed in by the caller and the time is an argument, so the rule is
// testable without a clock; cached answers are not state and are never journaled.

/** A computed answer and the Unix time it was computed. */
export interface CacheEntry {
  at: number;
  value: unknown;
}

/**
 * Computed answers by key (a `Map` is one). The server's is shared by every instance on one
 * database (ADR 19), so an answer reused for 20 minutes is the same whichever instance is asked.
 */
export interface Cache {
  get(key: string): CacheEntry | undefined;
  set(key: string, entry: CacheEntry): unknown;
}

export interface Cached<T> {
  value: T;
  /** Unix time of the computation that produced `value`. */
  at: number;
  /** True when `value` was reused rather than computed now. */
  hit: boolean;
}

/**
 * The answer under `key` when it was computed less than `ttl` seconds before `now`, otherwise a
 * fresh one from `compute`, stored for the next caller. `force` skips the stored answer. An entry
 * stamped after `now` (a clock moved backwards) counts as stale rather than as fresh forever.
 */
export function cached<T>(
  cache: Cache,
  key: string,
  options: { now: number; ttl: number; force?: boolean },
  compute: () => T,
): Cached<T> {
  const { now, ttl, force = false } = options;
  const entry = cache.get(key);
  if (entry && !force && entry.at <= now && now - entry.at < ttl)
    return { value: entry.value as T, at: entry.at, hit: true };
  const value = compute();
  cache.set(key, { at: now, value });
  return { value, at: now, hit: false };
}
