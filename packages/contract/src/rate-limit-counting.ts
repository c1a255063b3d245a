// Which requests a rate-limit rule of the document (`x-rate-limit`) counts, read from its `counts`
// and `exceeded`: every request, only those with a query value (`requests with update=1`), or only
// the attempts answered with one documented message (the login's refused keys: checked before the
// attempt, counted after it). Those are counted by the contract (operation-limits.ts). A rule
// answered with the operation's documented 300 (`business-error`) is the handler's: it follows
// from what the service keeps (the last giveaway a user created), which no window knows.
import type { RateLimitRule } from './operation-index.ts';

export type RuleCounting =
  /** Every request the operation admits counts. */
  | { by: 'every' }
  /** Only the requests whose query `param` is `value` count. */
  | { by: 'matching'; param: string; value: string }
  /** Only the attempts answered with `message` count; beyond the limit, every attempt is refused. */
  | { by: 'answered'; message: string }
  /** The handler counts and answers it (a documented 300 beyond the limit, or a `counts` not understood). */
  | { by: 'handler' };

/** How `rule` is counted: its `exceeded` and its `counts` (absent, `every ...`, `requests with p=v`, ``attempts answered `message` ``). */
export function ruleCounting(rule: RateLimitRule): RuleCounting {
  if (rule.exceeded === 'business-error') return { by: 'handler' };
  if (rule.counts === undefined || /^every\b/i.test(rule.counts)) return { by: 'every' };
  const matching = /^requests with ([\w.-]+)=(\S+)$/i.exec(rule.counts);
  if (matching) return { by: 'matching', param: matching[1]!, value: matching[2]! };
  const answered = /^attempts answered `([^`]+)`$/i.exec(rule.counts);
  // Beyond a limit on answers, the cached answer has no meaning: only a refusal does.
  return answered && rule.exceeded === 'reject' ? { by: 'answered', message: answered[1]! } : { by: 'handler' };
}
