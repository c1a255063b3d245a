// Slow and failing on purpose (issue 25), for frontends to build loading states and retries
// against, in the sandbox and the mock alike (both install this layer from @marketplace/contract):
// - per request, `Prefer: delay=<ms>` waits before answering, and `Prefer: code=429` / `code=500`
//   answers the API's 429 (its message and four rate-limit headers, Retry-After 1) or 500;
// - per run, a latency drawn in `min-max` ms for every request and a share of requests failing,
//   half of them with that 429 and half with 500, drawn from a generator seeded by `seed`: the
//   same run of requests meets the same delays and failures every time.

import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { sendError } from './envelope.ts';
import { INTERNAL_ERROR } from './messages.ts';
import { sendRateLimited } from './rate-limited.ts';

/** The longest delay a request may ask for: well inside the server's 60-second request timeout. */
export const MAX_DELAY_MS = 30_000;
/** The limit a forced 429 announces: the seed's general one (600 per 60 s). */
const FORCED_LIMIT = 600;

export interface OnPurposeOptions {
  /** Every answer waits a time drawn in [min, max] milliseconds. */
  latency?: { min: number; max: number };
  /** The share of requests (0..1) that fail: each one a 429 (as `Prefer: code=429`) or a 500, drawn half and half. */
  failRate?: number;
  /** Seeds the draws (default 1): the same requests in the same order meet the same delays and failures. */
  seed?: number;
  /** Whether `Prefer: delay=` and `Prefer: code=429|500` are honoured. */
  prefer?: boolean;
  /** Unix seconds (the 429's `X-RateLimit-Reset`). */
  now?: () => number;
}

/** The per-run options of the server's and the mock's command lines, for `parseArgs` (node:util). */
export const ON_PURPOSE_ARGS = {
  latency: { type: 'string' },
  'fail-rate': { type: 'string' },
  seed: { type: 'string' },
} as const;

/** `min-max` (or one number) in milliseconds, or the reason it is refused. */
export function parseLatency(text: string): { min: number; max: number } | string {
  const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text.trim());
  const min = Number(m?.[1]);
  const max = Number(m?.[2] ?? m?.[1]);
  if (!m || min > max || max > MAX_DELAY_MS)
    return `is not a latency in milliseconds: <min>-<max> (e.g. 100-800), at most ${MAX_DELAY_MS}`;
  return { min, max };
}

/** A share from 0 to 1, or the reason it is refused. */
export function parseFailRate(text: string): number | string {
  const rate = Number(text);
  return /^\d*\.?\d+$/.test(text.trim()) && rate >= 0 && rate <= 1 ? rate : 'is not a share from 0 to 1 (e.g. 0.1)';
}

/** A seed (an integer), or the reason it is refused. */
export function parseSeed(text: string): number | string {
  return /^-?\d{1,9}$/.test(text.trim()) ? Number(text) : 'is not an integer seed';
}

/** What a request asks of this layer in `Prefer`; `rest` is the header without it (for Prism). */
export function onPurposePrefer(header: string | undefined): { delay?: number; code?: 429 | 500; rest?: string } {
  if (!header) return {};
  const asked: { delay?: number; code?: 429 | 500 } = {};
  const rest: string[] = [];
  for (const part of header.split(/[,;]/)) {
    const [key = '', value = ''] = part.split('=').map((s) => s.trim());
    if (key === 'delay' && /^\d{1,6}$/.test(value)) asked.delay = Math.min(Number(value), MAX_DELAY_MS);
    else if (key === 'code' && (value === '429' || value === '500')) asked.code = Number(value) as 429 | 500;
    else if (key) rest.push(part.trim());
  }
  // `code=429, example=<name>` asks for a documented example: the code stays for the mock's examples.
  if (asked.code && rest.some((p) => p.startsWith('example='))) {
    rest.unshift(`code=${asked.code}`);
    delete asked.code;
  }
  return { ...asked, rest: rest.length ? rest.join(', ') : undefined };
}

/** Whether any of it is on: otherwise no middleware is installed. */
export const isOnPurpose = (o: OnPurposeOptions): boolean => !!(o.prefer || o.latency || o.failRate);

/**
 * The middleware: waits, then answers a forced failure or passes the request on (with `Prefer`
 * rewritten to what is left of it). Install it where only API operations pass.
 */
export function onPurpose(options: OnPurposeOptions): RequestHandler {
  const rng = xoroshiro128plus(options.seed ?? 1);
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  return (req: Request, res: Response, next: NextFunction) => {
    // Both draws are made for every request, so one request's Prefer does not shift the others'.
    const drawnDelay = options.latency ? uniformInt(rng, options.latency.min, options.latency.max) : 0;
    const drawnFailure = options.failRate ? uniformFloat64(rng) < options.failRate : false;
    const drawnCode = options.failRate ? ([429, 500] as const)[uniformInt(rng, 0, 1)] : undefined;
    const asked = options.prefer ? onPurposePrefer(req.get('prefer')) : {};
    if (options.prefer && req.headers.prefer !== undefined) {
      if (asked.rest) req.headers.prefer = asked.rest;
      else delete req.headers.prefer;
    }
    const delay = Math.min(drawnDelay + (asked.delay ?? 0), MAX_DELAY_MS);
    const code = asked.code ?? (drawnFailure ? drawnCode : undefined);
    const answer = () => {
      if (res.headersSent || res.destroyed) return;
      if (code === 429)
        return sendRateLimited(res, { limit: FORCED_LIMIT, remaining: 0, reset: now() + 1, retryAfter: 1 });
      if (code === 500) return sendError(res, 'A', INTERNAL_ERROR, 500);
      next();
    };
    if (delay > 0) setTimeout(answer, delay);
    else answer();
  };
}
