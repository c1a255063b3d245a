// The document's rate limits, counted in one room for every host (seed: "Limits"; the document's
// `x-rate-limit`): the general limit (about 600 requests per 60 s per user, route and method) and
// each operation's own rules that code knowing only the rule can count (rate-limit-counting.ts), on
// one fixed-window limiter whose windows the host keeps (fixed-window.ts). Counted in the order of
// the request:
// - `admit` (the gate, before the body is read: a caller refused so far costs no body): the general
//   limit, and the refusing rules keyed by IP or user;
// - `admitBody` (the gate, once the body is read, before it is validated): the refusing rules keyed
//   by API key, which the login's body carries;
// - `servesCached` (before the handler): the rules beyond which the cached answer is served;
// - `answered` (once the handler refused): the attempts answered with a rule's message.
// A rule that refuses answers the API's 429 with its four headers. What the document answers with a
// business error (`exceeded: business-error`) is the handler's (rate-limit-counting.ts).
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { FixedWindowLimiter, Verdict } from './fixed-window.ts';
import type { OperationInfo, RateLimitRule } from './operation-index.ts';
import { type RuleCounting, ruleCounting } from './rate-limit-counting.ts';
import { sendRateLimited } from './rate-limited.ts';

/** Seed, Limits: "about 600 requests per 60-second window, for GET and POST, per user, route and method". */
export const GENERAL_LIMIT: Pick<RateLimitRule, 'limit' | 'window'> = { limit: 600, window: 60 };

/**
 * The rate limits at the four points of a request: the seam the gate and `createApi` count through
 * (`OperationLimits` fills it; a host may give its own).
 */
export interface ApiLimits<Caller> {
  /** Before the body is read: over a limit it answers (the 429) and says false. */
  admit?(req: Request, res: Response, op: OperationInfo, caller: Caller | undefined): boolean | Promise<boolean>;
  /** Once the body is read, before it is validated (a rule keyed by a body field): the same. */
  admitBody?(req: Request, res: Response, op: OperationInfo, caller: Caller | undefined): boolean | Promise<boolean>;
  /** Before the handler: whether it answers from its cache (beyond a `serve-cached` rule). */
  servesCached?(req: Request, op: OperationInfo, caller: Caller | undefined): boolean | Promise<boolean>;
  /** Once the handler refused with `message`. */
  answered?(req: Request, op: OperationInfo, caller: Caller | undefined, message: unknown): void | Promise<void>;
}

/** Whom a known caller's requests count for. */
export interface Counted {
  /** The caller's user (its platform id). */
  user: string;
  /** The caller's API key, when the host holds it; a rule per API key counts by the user otherwise. */
  apiKey?: string;
  /** Whether the general limit applies (the seed enforces it on API tokens). */
  general: boolean;
}

export interface OperationLimitsOptions<Caller> {
  limiter: FixedWindowLimiter;
  /** Whom `caller`'s requests count for. */
  counted: (caller: Caller) => Counted;
}

/** A rule the limits count, where it is counted, and its key's prefix (its operation and place). */
interface Counting {
  rule: RateLimitRule;
  counting: Exclude<RuleCounting, { by: 'handler' }>;
  prefix: string;
}

/** An operation's rules by the step that counts (or checks) them. */
interface Plan {
  admit: Counting[];
  body: Counting[];
  cached: Counting[];
  answered: Counting[];
}

function planOf(op: OperationInfo): Plan {
  const plan: Plan = { admit: [], body: [], cached: [], answered: [] };
  for (const [i, rule] of op.rateLimits.entries()) {
    const counting = ruleCounting(rule);
    if (counting.by === 'handler') continue;
    const c = { rule, counting, prefix: `${op.operationId}:${i}` };
    if (rule.exceeded === 'serve-cached') plan.cached.push(c);
    else (rule.scope === 'apiKey' ? plan.body : plan.admit).push(c);
    if (counting.by === 'answered') plan.answered.push(c);
  }
  return plan;
}

const digest = (key: string): string => createHash('sha256').update(key).digest('base64url');

/**
 * The key of `scope` for a request: its IP, its caller's user, or an API key (the one its body sends,
 * else the caller's; kept as a digest: the windows keep no key). Without a caller, the IP.
 */
function scopeKey(scope: string, req: Request, counted: Counted | undefined): string {
  if (scope === 'apiKey') {
    const sent = (req.body as { apiKey?: unknown } | undefined)?.apiKey;
    if (typeof sent === 'string') return `apiKey:${digest(sent)}`;
    if (counted?.apiKey !== undefined) return `apiKey:${digest(counted.apiKey)}`;
  }
  if (scope !== 'ip' && counted) return `user:${counted.user}`;
  return `ip:${req.ip ?? ''}`;
}

/** Whether `req` is one of the requests `counting` counts. */
function counts(counting: Counting['counting'], req: Request): boolean {
  if (counting.by !== 'matching') return true;
  const value = (req.query as Record<string, unknown> | undefined)?.[counting.param];
  return value !== undefined && String(value) === counting.value;
}

/** The document's rate limits of every operation, counted on one limiter. */
export class OperationLimits<Caller> implements ApiLimits<Caller> {
  /** The windows' limiter: for the rules a handler counts itself (`ruleCounting` says `handler`). */
  readonly limiter: FixedWindowLimiter;
  readonly #counted: (caller: Caller) => Counted;
  readonly #plans = new WeakMap<OperationInfo, Plan>();

  constructor({ limiter, counted }: OperationLimitsOptions<Caller>) {
    this.limiter = limiter;
    this.#counted = counted;
  }

  /** Before the body is read: the general limit and the rules keyed by IP or user. False: 429 answered. */
  admit(req: Request, res: Response, op: OperationInfo, caller: Caller | undefined): boolean | Promise<boolean> {
    const counted = caller === undefined ? undefined : this.#counted(caller);
    const rules = this.#plan(op).admit;
    // Nothing to count (an anonymous read of an operation without rules): nothing to wait for.
    if (!counted?.general && rules.length === 0) return true;
    return this.#admitCounted(req, res, op, counted, rules);
  }

  async #admitCounted(
    req: Request,
    res: Response,
    op: OperationInfo,
    counted: Counted | undefined,
    rules: Counting[],
  ): Promise<boolean> {
    if (counted?.general) {
      const key = `general:${counted.user}:${op.method} ${op.path}`;
      const verdict = await this.limiter.hit(key, GENERAL_LIMIT.limit, GENERAL_LIMIT.window);
      if (!verdict.allowed) return refuse(res, verdict);
    }
    return this.#check(rules, req, res, counted);
  }

  /** Once the body is read, before it is validated: the rules keyed by API key. False: 429 answered. */
  admitBody(req: Request, res: Response, op: OperationInfo, caller: Caller | undefined): boolean | Promise<boolean> {
    const rules = this.#plan(op).body;
    if (rules.length === 0) return true;
    return this.#check(rules, req, res, caller === undefined ? undefined : this.#counted(caller));
  }

  /** Before the handler: counts the rules beyond which the cached answer is served; true when beyond one. */
  servesCached(req: Request, op: OperationInfo, caller: Caller | undefined): boolean | Promise<boolean> {
    const rules = this.#plan(op).cached;
    return rules.length === 0 ? false : this.#countCached(req, rules, caller);
  }

  async #countCached(req: Request, rules: Counting[], caller: Caller | undefined): Promise<boolean> {
    const counted = caller === undefined ? undefined : this.#counted(caller);
    let beyond = false;
    for (const { rule, counting, prefix } of rules) {
      if (!counts(counting, req)) continue;
      const verdict = await this.limiter.hit(
        `${prefix}:${scopeKey(rule.scope, req, counted)}`,
        rule.limit,
        rule.window,
      );
      beyond ||= !verdict.allowed;
    }
    return beyond;
  }

  /** Once the handler refused with `message`: counts the attempts answered with it. */
  async answered(req: Request, op: OperationInfo, caller: Caller | undefined, message: unknown): Promise<void> {
    const rules = this.#plan(op).answered;
    if (rules.length === 0) return;
    const counted = caller === undefined ? undefined : this.#counted(caller);
    for (const { rule, counting, prefix } of rules)
      if (counting.by === 'answered' && counting.message === message)
        await this.limiter.hit(`${prefix}:${scopeKey(rule.scope, req, counted)}`, rule.limit, rule.window);
  }

  /** Forgets every count (the test helpers' reset). */
  clear(): Promise<void> {
    return this.limiter.clear();
  }

  #plan(op: OperationInfo): Plan {
    const known = this.#plans.get(op);
    if (known) return known;
    const plan = planOf(op);
    this.#plans.set(op, plan);
    return plan;
  }

  /** Counts `rules` (checks those counted by their answer); the first refusal is answered. */
  async #check(rules: Counting[], req: Request, res: Response, counted: Counted | undefined): Promise<boolean> {
    for (const { rule, counting, prefix } of rules) {
      if (!counts(counting, req)) continue;
      const key = `${prefix}:${scopeKey(rule.scope, req, counted)}`;
      const verdict =
        counting.by === 'answered'
          ? await this.limiter.peek(key, rule.limit, rule.window)
          : await this.limiter.hit(key, rule.limit, rule.window);
      if (!verdict.allowed) return refuse(res, verdict);
    }
    return true;
  }
}

function refuse(res: Response, verdict: Verdict): false {
  sendRateLimited(res, verdict);
  return false;
}
