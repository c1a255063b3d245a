// Who counts a rate-limit rule of the document (`x-rate-limit`): code that knows only the rule (a
// generated project's app, ADR 0029) can count every request, or only the attempts answered with
// one documented message (the login's refused keys: checked before the attempt, counted after
// it). The rest is the operation's handler's: a rule beyond which the cached answer is served or
// the operation's documented 300 is answered, or one that counts requests by a condition of theirs
// (`requests with update=1`).
import type { RateLimitRule } from './operation-index.ts';

export type RuleCounting =
  /** Every request the operation admits counts. */
  | { by: 'every' }
  /** Only the attempts answered with `message` count; beyond the limit, every attempt is refused. */
  | { by: 'answered'; message: string }
  /** The handler counts and answers it (`ctx.limiter`). */
  | { by: 'handler' };

/** How `rule` is counted: its `exceeded` and its `counts` (absent, `every ...`, ``attempts answered `message` ``). */
export function ruleCounting(rule: RateLimitRule): RuleCounting {
  if (rule.exceeded !== 'reject') return { by: 'handler' };
  if (rule.counts === undefined || /^every\b/i.test(rule.counts)) return { by: 'every' };
  const answered = /^attempts answered `([^`]+)`$/i.exec(rule.counts);
  return answered ? { by: 'answered', message: answered[1]! } : { by: 'handler' };
}
