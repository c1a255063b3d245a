// Rate limits, counted in fixed windows of the clock. The app counts by default, on implemented
// operations only (a stub answers 404 before anything is counted):
// - the seed's general limit, about 600 requests per 60 s per user, route and method (the gate's
//   `count` hook, before the body is read: `countGeneral`);
// - the operation's own rules (`x-rate-limit`, `ctx.op.rateLimits`) that the contract says code can
//   count without knowing the operation (`ruleCounting`): every request, or only the attempts
//   answered with one documented message (the login's refused keys: checked before the handler,
//   counted when it answers that message). `OperationLimits`, around the handler in app.ts.
// Over a limit: the API's 429 with its four headers and `Retry-After`. The other rules (a cached
// answer or a documented 300 beyond the limit, a count by a condition of the request) are the
// handler's: the stub's comment says "yours to count"; use `ctx.limiter` and `rateLimited`.
// In memory: one process counts (several instances behind a balancer would each count their own).
import {
  type OperationInfo,
  type RateLimitRule,
  rateLimited as rateLimitedMessage,
  ruleCounting,
  sendRateLimited,
  setRateLimitHeaders,
} from '@marketplace/contract';
import type { Response } from 'express';
import type { Caller } from './auth.ts';
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
/** A key's window: when it started, how many it counted, how long it lasts (seconds). */
type Window = { start: number; count: number; length: number };

/** Seed, Limits: "about 600 requests per 60-second window, for GET and POST, per user, route and method". */
export const GENERAL_LIMIT: Rule = { limit: 600, window: 60 };
/** Past this many keys, windows that are over are dropped: memory stays bounded. */
const MAX_WINDOWS = 50_000;

export class RateLimiter {
  private windows = new Map<string, Window>();

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
    // A window that starts after `now` belongs to a clock the test helpers moved back.
    if (!window || now >= window.start + window.length || now < window.start) {
      window = { start: now, count: 0, length: rule.window };
      this.windows.set(key, window);
      if (this.windows.size > MAX_WINDOWS)
        for (const [k, w] of this.windows) if (now >= w.start + w.length) this.windows.delete(k);
    }
    return window;
  }

  private verdict(window: Window, rule: Rule, now: number, next: number): Verdict {
    const reset = window.start + window.length;
    return {
      allowed: window.count + next <= rule.limit,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - window.count - next),
      reset,
      retryAfter: Math.max(1, reset - now),
    };
  }
}

/** The API's 429 as a handler's reply: its headers on `res`, its message. */
export function rateLimited(res: Response, verdict: Verdict): Refusal {
  setRateLimitHeaders(res, verdict);
  return { ok: false, error: rateLimitedMessage(verdict.retryAfter), status: 429 };
}

/**
 * The gate's `count` hook: the general limit, per user, route and method, for a caller with a
 * token (the seed enforces it on API tokens: every token of this project is one). Answers the 429
 * and says false when over.
 */
export function countGeneral(
  limiter: RateLimiter,
  res: Response,
  op: OperationInfo,
  caller: Caller | undefined,
  now: number,
): boolean {
  if (!caller) return true;
  const verdict = limiter.hit(`general:${caller.user.platformId}:${op.method} ${op.path}`, GENERAL_LIMIT, now);
  if (verdict.allowed) return true;
  sendRateLimited(res, verdict);
  return false;
}

/** What a request is counted by: its IP, its caller, the API key it sends (the login's body). */
export interface Who {
  ip: string;
  caller: Caller | undefined;
  body: unknown;
}

/** The key of a rule's `scope` (`ip`, `user`, `apiKey`); a scope with nobody known is counted per IP. */
function scopeKey(scope: string, who: Who): string {
  const sent = (who.body as { apiKey?: unknown } | undefined)?.apiKey;
  if (scope === 'apiKey' && typeof sent === 'string') return `apiKey:${sent}`;
  if (scope === 'apiKey' && who.caller) return `apiKey:${who.caller.user.apiKey}`;
  if (scope !== 'ip' && who.caller) return `user:${who.caller.user.platformId}`;
  return `ip:${who.ip}`;
}

/**
 * An operation's own rules the app counts, around its handler: `before` (a verdict over the limit
 * means: answer the 429, do not run the handler), then `after` with the handler's refusal message.
 */
export class OperationLimits {
  private readonly limiter: RateLimiter;

  constructor(limiter: RateLimiter) {
    this.limiter = limiter;
  }

  /** Counts the rules of every request; checks those of some answers. The first refusal, if any. */
  before(op: OperationInfo, who: Who, now: number): Verdict | undefined {
    for (const [i, rule] of op.rateLimits.entries()) {
      const by = ruleCounting(rule).by;
      if (by === 'handler') continue;
      const key = `${op.operationId}:${i}:${scopeKey(rule.scope, who)}`;
      const verdict = by === 'every' ? this.limiter.hit(key, rule, now) : this.limiter.peek(key, rule, now);
      if (!verdict.allowed) return verdict;
    }
    return undefined;
  }

  /** Counts the rules of the answers given: the handler refused with `message`. */
  after(op: OperationInfo, who: Who, message: unknown, now: number): void {
    for (const [i, rule] of op.rateLimits.entries()) {
      const counting = ruleCounting(rule);
      if (counting.by === 'answered' && counting.message === message)
        this.limiter.hit(`${op.operationId}:${i}:${scopeKey(rule.scope, who)}`, rule, now);
    }
  }
}
