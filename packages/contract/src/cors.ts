// CORS for a page on another origin (issue 34): a browser asks the API with a preflight before a
// call that carries `Authorization` or a JSON body, and reads an answer only when it names the
// page's origin. This layer answers preflights of allowed origins itself and marks their answers
// readable, before anything of the API runs: no caller is identified, nothing is validated or
// counted against a rate limit, nothing is slowed or failed on purpose. An origin not allowed gets
// no CORS header at all (its preflight goes on to the API, which knows no OPTIONS: 404), so the
// browser refuses the call. The `cors` package writes the headers; this module only decides which
// origins. Kept a small before-router of its own so that a single request runtime (issue 35) can
// take it as it is.
import cors from 'cors';
import type { RequestHandler } from 'express';

/** Local development servers on any port: the default in test mode and in every sandbox. */
export const LOCAL_DEV_ORIGINS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'].flatMap((host) => [
  `http://${host}:*`,
  `https://${host}:*`,
]);

/**
 * Headers of the API's answers a page may read besides the CORS-safelisted ones: the rate-limit
 * headers and `Retry-After` (document: "Rate limits"), which the typed client waits by.
 */
export const CORS_EXPOSED_HEADERS: readonly string[] = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
];

/** Seconds a browser may keep a preflight's answer (Chromium keeps it at most 7200). */
export const CORS_MAX_AGE = 600;

/** One entry: `*`, or an origin `http(s)://host[:port]` whose port may be `*` (any port, or none). */
const ORIGIN_PATTERN = /^(https?):\/\/(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)(:(\d{1,5}|\*))?$/i;

/**
 * The origins of a `MARKETPLACE_CORS_ORIGINS` value (comma-separated; `none` for none), or the
 * reason it is refused.
 */
export function parseCorsOrigins(value: string): string[] | string {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 1 && entries[0] === 'none') return [];
  const bad = entries.find((entry) => entry !== '*' && !ORIGIN_PATTERN.test(entry));
  if (bad !== undefined || entries.length === 0)
    return 'is not none, * or a comma-separated list of origins (https://app.example.com, http://localhost:*)';
  return entries;
}

/** Whether a page at `origin` may read the API's answers under `patterns` (parseCorsOrigins). */
export function corsOriginAllowed(patterns: readonly string[], origin: string): boolean {
  let page: URL;
  try {
    page = new URL(origin);
  } catch {
    return false; // `null` (a file, a sandboxed frame) and anything else that is no origin
  }
  if (page.origin !== origin) return false; // a path, a user or a trailing slash: not what a browser sends
  return patterns.some((pattern) => {
    if (pattern === '*') return true;
    const [, scheme, host, , , port] = ORIGIN_PATTERN.exec(pattern) ?? [];
    if (`${scheme}:`.toLowerCase() !== page.protocol || host?.toLowerCase() !== page.hostname) return false;
    if (port === '*') return true;
    // The URL parser drops a scheme's default port: compare both the same way.
    return new URL(`${scheme}://${host}${port ? `:${port}` : ''}`).port === page.port;
  });
}

/** The CORS layer for `patterns`, or undefined when no origin is allowed (no layer, no cost). */
export function corsLayer(patterns: readonly string[]): RequestHandler | undefined {
  if (patterns.length === 0) return undefined;
  const any = patterns.includes('*');
  const handler = cors({
    // `*` only when every origin is allowed; otherwise the page's own origin, with `Vary: Origin`.
    origin: any ? '*' : (origin, done) => done(null, origin !== undefined && corsOriginAllowed(patterns, origin)),
    methods: ['GET', 'HEAD', 'POST', 'DELETE'],
    // allowedHeaders unset: the preflight's Access-Control-Request-Headers are echoed (Authorization,
    // Content-Type, Prefer, and whatever a page's tracing adds).
    exposedHeaders: [...CORS_EXPOSED_HEADERS],
    maxAge: CORS_MAX_AGE,
    // No Access-Control-Allow-Credentials, ever: the API authenticates with a bearer header the page
    // sends itself, never with cookies, so `*` cannot hand a user's session to another site.
    credentials: false,
    optionsSuccessStatus: 204,
  });
  if (any) return handler;
  // Every answer depends on the origin, a refused one too: a shared cache must not hand one
  // origin's answer (with or without the header) to another.
  return (req, res, next) => {
    res.vary('Origin');
    handler(req, res, next);
  };
}
