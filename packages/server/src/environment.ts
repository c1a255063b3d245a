// The server's environment variables as one TypeBox schema (issue 14 point 5): every variable is
// checked at once, so an operator who got three wrong reads three lines, each naming the variable,
// its value (a secret's length only, a URL without its password) and what is expected, instead of
// fixing them one restart at a time. An empty value counts as unset, as it always has.
import { isIP } from 'node:net';
import { parseCorsOrigins, parseFailRate, parseLatency, parseSeed } from '@marketplace/contract';
import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';

/** Secrets shorter than this are refused at start: a short HMAC key is guessed offline from one token. */
export const MIN_SECRET_BYTES = 32;

/** pino's levels (`silent` logs nothing). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const quoted = (v: string) => JSON.stringify(v);
/** A URL as it may be printed: `scheme://user:***@host`, even when it does not parse. */
const withoutPassword = (v: string) => quoted(v.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:).*@/i, '$1***@'));
const secretLength = (v: string) => `(${Buffer.byteLength(v)} bytes, not shown)`;

/**
 * One optional variable: a string `valid` accepts. A refused value reads `<shown value> <expected>`
 * after the variable's name.
 */
const variable = (valid: (v: string) => boolean, expected: string | ((v: string) => string), show = quoted) =>
  Type.Optional(
    Type.Refine(Type.String(), valid, (v) => `${show(v)} ${typeof expected === 'string' ? expected : expected(v)}`),
  );

const oneOf = (values: readonly string[]) => (v: string) => values.includes(v);

/** A URL whose scheme is one of `protocols` and that names a host. */
function urlOf(v: string, protocols: string[]): URL | undefined {
  try {
    const url = new URL(v);
    return protocols.includes(url.protocol) && url.hostname !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}

const isPostgresScheme = (v: string) => /^postgres(ql)?:\/\//i.test(v);
const isOtherScheme = (v: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(v) && !isPostgresScheme(v);

/** `:memory:`, a file path, or a PostgreSQL URL with a host and a database name (ADR 0019). */
function isDatabase(v: string): boolean {
  if (isPostgresScheme(v)) {
    const database = urlOf(v, ['postgres:', 'postgresql:'])?.pathname.slice(1);
    return !!database && !database.includes('/');
  }
  return !isOtherScheme(v) && !v.includes('\0');
}

const HOST_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/** What Express's `trust proxy` takes as a string: proxy-addr's names, addresses and ranges. */
function isTrustedProxy(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4; // a netmask
}

const list = (v: string) =>
  v
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

const Secret = variable(
  (v) => Buffer.byteLength(v) >= MIN_SECRET_BYTES,
  `is too short: a secret needs at least ${MIN_SECRET_BYTES} bytes (for example \`openssl rand -hex 32\`)`,
  secretLength,
);

/** The environment the server reads; any other variable is left alone (tools share the environment). */
export const Environment = Type.Object(
  {
    PORT: variable((v) => /^\d{1,5}$/.test(v) && Number(v) <= 65535, 'is not a port number (0-65535)'),
    HOST: variable((v) => isIP(v) !== 0 || HOST_NAME.test(v), 'is not a host name or an IP address'),
    MARKETPLACE_DB: variable(
      isDatabase,
      (v) =>
        isPostgresScheme(v)
          ? 'is not a PostgreSQL URL with a host and a database name (postgres://user:password@host:5432/database)'
          : 'is not :memory:, a file path or a postgres:// URL',
      withoutPassword,
    ),
    MARKETPLACE_PG_POOL: variable(
      (v) => /^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= 100,
      'is not a number of connections (1-100)',
    ),
    MARKETPLACE_JWT_SECRET: Secret,
    MARKETPLACE_DEPOSIT_SECRET: Secret,
    MARKETPLACE_SECRETS_KEY: Secret,
    MARKETPLACE_BLOCKED_COUNTRIES: variable(
      (v) => list(v).every((code) => /^[a-z]{2}$/i.test(code)),
      'is not a comma-separated list of two-letter country codes (KP,IR)',
    ),
    MARKETPLACE_TRUST_PROXY: variable(
      (v) => list(v).length > 0 && list(v).every(isTrustedProxy),
      'is not a comma-separated list of IP addresses, ranges (10.0.0.0/8) or loopback, linklocal, uniquelocal',
    ),
    MARKETPLACE_CORS_ORIGINS: variable(
      (v) => typeof parseCorsOrigins(v) !== 'string',
      (v) => String(parseCorsOrigins(v)),
    ),
    MARKETPLACE_TEST_MODE: variable(oneOf(['0', '1']), 'must be 0 or 1'),
    MARKETPLACE_DEMO: variable(oneOf(['0', '1']), 'must be 0 or 1'),
    MARKETPLACE_SMTP_URL: variable(
      (v) => !!urlOf(v, ['smtp:', 'smtps:']),
      'is not an smtp:// or smtps:// URL with a host',
      withoutPassword,
    ),
    MARKETPLACE_SITE_URL: variable(
      (v) => !!urlOf(v, ['http:', 'https:']),
      'is not an http:// or https:// URL with a host',
      withoutPassword,
    ),
    MARKETPLACE_SANDBOXES: variable(oneOf(['0', '1']), 'must be 0 or 1'),
    MARKETPLACE_SANDBOX_MAX: variable(
      (v) => /^\d{1,4}$/.test(v) && Number(v) >= 1 && Number(v) <= 1000,
      'is not a number of sandboxes (1-1000)',
    ),
    MARKETPLACE_SANDBOX_IDLE: variable(
      (v) => /^\d{1,6}$/.test(v) && Number(v) >= 1 && Number(v) <= 604_800,
      'is not a number of seconds (1-604800)',
    ),
    MARKETPLACE_SANDBOX_MEMORY: variable(
      (v) => /^\d{1,6}$/.test(v) && Number(v) >= 16,
      'is not a number of megabytes (at least 16)',
    ),
    MARKETPLACE_LATENCY: variable(
      (v) => typeof parseLatency(v) !== 'string',
      (v) => String(parseLatency(v)),
    ),
    MARKETPLACE_FAIL_RATE: variable(
      (v) => typeof parseFailRate(v) === 'number',
      (v) => String(parseFailRate(v)),
    ),
    MARKETPLACE_SEED: variable(
      (v) => typeof parseSeed(v) === 'number',
      (v) => String(parseSeed(v)),
    ),
    LOG_LEVEL: variable(oneOf(LOG_LEVELS), `is not a log level (${LOG_LEVELS.join(', ')})`),
    INIT_CWD: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
export type Environment = Static<typeof Environment>;

const check = Compile(Environment);

/**
 * The environment's set variables (an empty value is unset) and one line per bad one
 * (`PORT: "80a" is not a port number (0-65535)`), in the schema's order.
 */
export function readEnvironment(env: Record<string, string | undefined>): {
  environment: Environment;
  problems: string[];
} {
  const environment = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  if (check.Check(environment)) return { environment, problems: [] };
  const byVariable = new Map<string, string>();
  for (const error of check.Errors(environment)) {
    const name = error.instancePath.split('/')[1] ?? '(the environment)';
    if (!byVariable.has(name)) byVariable.set(name, `${name}: ${error.message}`);
  }
  const order = Object.keys(Environment.properties);
  const problems = [...byVariable.entries()]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([, line]) => line);
  return { environment: environment as Environment, problems };
}
