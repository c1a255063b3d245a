// Configuration from the environment (issue: PORT, HOST, MARKETPLACE_DB, MARKETPLACE_JWT_SECRET,
// MARKETPLACE_BLOCKED_COUNTRIES, MARKETPLACE_TRUST_PROXY, MARKETPLACE_TEST_MODE, MARKETPLACE_DEMO). Secrets that are
// not given are generated once and kept next to the database file, so tokens and deposit keys
// survive restarts.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { StartRefusal } from './start-refusal.ts';
import { isPostgresUrl } from './store/postgres/connection.ts';

export interface Config {
  port: number;
  /** The interface to listen on: loopback unless the operator opens it (`HOST=0.0.0.0`). */
  host: string;
  /** Seed demo data (users, market, admins with random keys) into a new store: only when asked. */
  demo: boolean;
  db: string;
  jwtSecret: string | undefined;
  depositSecret: string | undefined;
  blockedCountries: string[];
  trustProxy: string;
  testMode: boolean;
  smtpUrl: string | undefined;
  siteUrl: string | undefined;
}

/**
 * The store's file. A relative path is taken from where `npm` was run (`INIT_CWD`), not from the
 * workspace folder npm switches to, so `npm start` at the root keeps its data in ./data.
 */
function databasePath(env: Record<string, string | undefined>): string {
  const db = env.MARKETPLACE_DB ?? join('data', 'marketplace.json');
  // A postgres:// URL is no path: joined to INIT_CWD, `npm start` would open a file store named after it.
  if (db === ':memory:' || isPostgresUrl(db) || isAbsolute(db) || !env.INIT_CWD) return db;
  return join(env.INIT_CWD, db);
}

/** Reads the configuration from environment variables (pure). */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    demo: env.MARKETPLACE_DEMO === '1',
    db: databasePath(env),
    jwtSecret: env.MARKETPLACE_JWT_SECRET || undefined,
    depositSecret: env.MARKETPLACE_DEPOSIT_SECRET || undefined,
    blockedCountries: (env.MARKETPLACE_BLOCKED_COUNTRIES ?? '')
      .split(',')
      .map((c) => c.trim().toUpperCase())
      .filter(Boolean),
    trustProxy: env.MARKETPLACE_TRUST_PROXY ?? 'loopback',
    testMode: env.MARKETPLACE_TEST_MODE === '1',
    smtpUrl: env.MARKETPLACE_SMTP_URL || undefined,
    siteUrl: env.MARKETPLACE_SITE_URL || undefined,
  };
}

/** Secrets shorter than this are refused at start: a short HMAC key is guessed offline from one token. */
export const MIN_SECRET_BYTES = 32;

/** `secret`, unless it is too short to be a key (`where` names its source in the refusal). */
export function longEnough(secret: string, where: string, hint: string): string {
  const bytes = Buffer.byteLength(secret);
  if (bytes >= MIN_SECRET_BYTES) return secret;
  throw new StartRefusal(
    `Refusing to start: ${where} ${bytes === 0 ? 'is empty' : `holds ${bytes} bytes`}; a secret needs at least ${MIN_SECRET_BYTES} (${hint}).`,
  );
}

/**
 * A secret from the configuration (`variable` names it), or one generated and persisted beside the
 * database (0600). A given or stored secret under 32 bytes refuses the start.
 */
export function loadSecret(given: string | undefined, db: string, name: string, variable = name): string {
  if (given) return longEnough(given, variable, 'for example `openssl rand -hex 32`');
  if (db === ':memory:') return randomBytes(32).toString('hex');
  const file = `${resolve(db)}.${name}`;
  if (existsSync(file))
    return longEnough(readFileSync(file, 'utf8').trim(), file, 'remove the file to have one generated');
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
