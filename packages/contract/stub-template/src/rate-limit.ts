// Counting requests in fixed windows of the clock, for the operations' rate limits (`x-rate-limit`,
// `ctx.op.rateLimits`): a handler (or the gate's `count` hook in app.ts) hits or peeks a key such as
// `login:ip:<ip>` and answers `rateLimited` when the verdict says no. In memory: one process.
import type { RateLimitRule } from '@marketplace/contract';
import type { Response } from 'express';
import type { Refusal } from './handler.ts';

export interface Verdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window ends. */
  reset: number;
  /** Seconds to wait (at least 1). */
  retryAfter: number;
}

type Rule = Pick<RateLimitRule, 'limit' | 'window'>;

export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  /** Forgets every count (test helpers: reset). */
  clear(): void {
    this.windows.clear();
  }

  /** Whether one more request under `key` is within the rule, without counting it. */
  peek(key: string, rule: Rule, now: number): Verdict {
    return this.verdict(this.window(key, rule, now), rule, now, 1);
  }

  /** Counts a request under `key`: allowed while the window holds at most `limit`. */
  hit(key: string, rule: Rule, now: number): Verdict {
    const window = this.window(key, rule, now);
    window.count += 1;
    return this.verdict(window, rule, now, 0);
  }

  private window(key: string, rule: Rule, now: number) {
    let window = this.windows.get(key);
    if (!window || now >= window.start + rule.window) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    return window;
  }

  private verdict(window: { start: number; count: number }, rule: Rule, now: number, next: number): Verdict {
    const reset = window.start + rule.window;
    return {
      allowed: window.count + next <= rule.limit,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - window.count - next),
      reset,
      retryAfter: Math.max(1, reset - now),
    };
  }
}

/** The API's 429: its headers on `res`, its message as the reply. */
export function rateLimited(res: Response, verdict: Verdict): Refusal {
  res.set({
    'X-RateLimit-Limit': String(verdict.limit),
    'X-RateLimit-Remaining': String(verdict.remaining),
    'X-RateLimit-Reset': String(verdict.reset),
    'Retry-After': String(verdict.retryAfter),
  });
  return { ok: false, error: `Rate limit exceeded. Retry after ${verdict.retryAfter} seconds.`, status: 429 };
}
