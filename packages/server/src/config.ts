// Configuration from the environment (environment.ts: every variable checked at once, one line per
// bad one). Secrets that are not given are generated once and kept next to the database file, so
// tokens and deposit keys survive restarts.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { type OnPurposeOptions, parseCorsOrigins, parseLatency } from '@marketplace/contract';
import { type LogLevel, MIN_SECRET_BYTES, readEnvironment } from './environment.ts';
import { StartRefusal } from './start-refusal.ts';
import { isPostgresUrl } from './store/postgres/connection.ts';

export { MIN_SECRET_BYTES };

export interface Config {
  port: number;
  /** The interface to listen on: loopback unless the operator opens it (`HOST=0.0.0.0`). */
  host: string;
  /** Seed demo data (users, market, admins with random keys) into a new store: only when asked. */
  demo: boolean;
  /** `:memory:`, the store's file, or a `postgres://` URL (ADR 0019). */
  db: string;
  /** Connections of this instance's PostgreSQL pool (`MARKETPLACE_PG_POOL`). */
  pgPool: number;
  jwtSecret: string | undefined;
  depositSecret: string | undefined;
  /** The key TOTP secrets are sealed with at rest (`MARKETPLACE_SECRETS_KEY`). */
  secretsKey: string | undefined;
  blockedCountries: string[];
  trustProxy: string;
  /**
   * Origins whose pages may call the API (`MARKETPLACE_CORS_ORIGINS`, @marketplace/contract's
   * cors.ts); undefined: the default of the mode, local dev servers in test mode, in every sandbox
   * and on a store in memory, none otherwise.
   */
  corsOrigins: string[] | undefined;
  testMode: boolean;
  smtpUrl: string | undefined;
  siteUrl: string | undefined;
  logLevel: LogLevel;
  /** Slow and failing on purpose (@marketplace/contract's on-purpose.ts): `Prefer` in test mode, per-run latency and failures when asked. */
  onPurpose: OnPurposeOptions;
  /** `POST /sandboxes` and the worlds under `/sandboxes/{id}` (issue 25): on in test mode or when asked. */
  sandboxes: SandboxLimits | undefined;
}

export interface SandboxLimits {
  /** Sandboxes at once (`MARKETPLACE_SANDBOX_MAX`, 20). */
  max: number;
  /** Seconds without a request after which a sandbox is removed (`MARKETPLACE_SANDBOX_IDLE`, 1800). */
  idleSeconds: number;
  /** Megabytes of heap above which no sandbox is created and none grows by a population (`MARKETPLACE_SANDBOX_MEMORY`). */
  memoryMb: number | undefined;
}

/**
 * The store's file. A relative path is taken from where `npm` was run (`INIT_CWD`), not from the
 * workspace folder npm switches to, so `npm start` at the root keeps its data in ./data.
 */
function databasePath(db: string, initCwd: string | undefined): string {
  // A postgres:// URL is no path: joined to INIT_CWD, `npm start` would open a file store named after it.
  if (db === ':memory:' || isPostgresUrl(db) || isAbsolute(db) || !initCwd) return db;
  return join(initCwd, db);
}

/**
 * Reads the configuration from environment variables (pure). Bad variables refuse the start, all
 * of them in one `StartRefusal`, one line each.
 */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const { environment: e, problems } = readEnvironment(env);
  if (problems.length > 0) throw new StartRefusal(problems.join('\n'));
  return {
    port: Number(e.PORT ?? 8080),
    host: e.HOST ?? '127.0.0.1',
    demo: e.MARKETPLACE_DEMO === '1',
    db: databasePath(e.MARKETPLACE_DB ?? join('data', 'marketplace.json'), e.INIT_CWD),
    pgPool: Number(e.MARKETPLACE_PG_POOL ?? 10),
    jwtSecret: e.MARKETPLACE_JWT_SECRET,
    depositSecret: e.MARKETPLACE_DEPOSIT_SECRET,
    secretsKey: e.MARKETPLACE_SECRETS_KEY,
    blockedCountries: (e.MARKETPLACE_BLOCKED_COUNTRIES ?? '')
      .split(',')
      .map((c) => c.trim().toUpperCase())
      .filter(Boolean),
    trustProxy: e.MARKETPLACE_TRUST_PROXY ?? 'loopback',
    corsOrigins:
      e.MARKETPLACE_CORS_ORIGINS === undefined ? undefined : (parseCorsOrigins(e.MARKETPLACE_CORS_ORIGINS) as string[]),
    testMode: e.MARKETPLACE_TEST_MODE === '1',
    smtpUrl: e.MARKETPLACE_SMTP_URL,
    siteUrl: e.MARKETPLACE_SITE_URL,
    logLevel: (e.LOG_LEVEL as LogLevel | undefined) ?? 'info',
    onPurpose: {
      prefer: e.MARKETPLACE_TEST_MODE === '1',
      latency:
        e.MARKETPLACE_LATENCY === undefined
          ? undefined
          : (parseLatency(e.MARKETPLACE_LATENCY) as OnPurposeOptions['latency']),
      failRate: e.MARKETPLACE_FAIL_RATE === undefined ? undefined : Number(e.MARKETPLACE_FAIL_RATE),
      seed: e.MARKETPLACE_SEED === undefined ? undefined : Number(e.MARKETPLACE_SEED),
    },
    sandboxes:
      e.MARKETPLACE_SANDBOXES === '1' || (e.MARKETPLACE_TEST_MODE === '1' && e.MARKETPLACE_SANDBOXES !== '0')
        ? {
            max: Number(e.MARKETPLACE_SANDBOX_MAX ?? 20),
            idleSeconds: Number(e.MARKETPLACE_SANDBOX_IDLE ?? 1800),
            memoryMb: e.MARKETPLACE_SANDBOX_MEMORY === undefined ? undefined : Number(e.MARKETPLACE_SANDBOX_MEMORY),
          }
        : undefined,
  };
}

/** `secret`, unless it is too short to be a key (`where` names its source in the refusal). */
export function longEnough(secret: string, where: string, hint: string): string {
  const bytes = Buffer.byteLength(secret);
  if (bytes >= MIN_SECRET_BYTES) return secret;
  throw new StartRefusal(
    `Refusing to start: ${where} ${bytes === 0 ? 'is empty' : `holds ${bytes} bytes`}; a secret needs at least ${MIN_SECRET_BYTES} (${hint}).`,
  );
}

/**
 * A secret from the configuration (`variable` names it) or the one kept beside the database, read
 * and checked without writing anything; undefined when none exists yet (`keepNewSecret` makes it
 * once the start is known to go ahead). A given or stored secret under 32 bytes refuses the start.
 */
export function checkSecret(given: string | undefined, db: string, name: string, variable = name): string | undefined {
  if (given) return longEnough(given, variable, 'for example `openssl rand -hex 32`');
  if (db === ':memory:') return undefined;
  const file = `${resolve(db)}.${name}`;
  if (existsSync(file))
    return longEnough(readFileSync(file, 'utf8').trim(), file, 'remove the file to have one generated');
  return undefined;
}

/** A new random secret, persisted beside the database (0600) unless the store is in memory. */
export function keepNewSecret(db: string, name: string): string {
  const secret = randomBytes(32).toString('hex');
  if (db === ':memory:') return secret;
  const file = `${resolve(db)}.${name}`;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** The secret `checkSecret` finds, or a new one kept beside the database. */
export function loadSecret(given: string | undefined, db: string, name: string, variable = name): string {
  return checkSecret(given, db, name, variable) ?? keepNewSecret(db, name);
}
