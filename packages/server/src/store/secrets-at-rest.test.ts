// No secret in clear at rest (issue 24, point 5): after users enable 2FA, leave a secret pending,
// ask for a 2FA reset and an e-mail change, every file of a file store (snapshot, journals) is
// read and searched for each TOTP secret, 2FA key, API key and e-mailed code: none appears. A store
// written before sealing (secrets in clear) is sealed at the next start, files included.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Postgres, postgresMissing, startPostgres } from '../../../../scripts/postgres.ts';
import { parseConfig } from '../config.ts';
import { totpAt } from '../domain/two-factor.ts';
import { Tx } from '../domain/tx.ts';
import { composeServer, listen, serverUrl } from '../server.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'secrets-at-rest-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A test-mode server on a file store in `dir`; `stop` closes it and its store. */
async function start(db: string, env: Record<string, string> = {}) {
  const config = parseConfig({ MARKETPLACE_DB: db, MARKETPLACE_TEST_MODE: '1', ...env });
  const { app, deps } = await composeServer({ config, logger: pino({ level: 'silent' }) });
  const server: Server = await listen(app, { port: 0, host: '127.0.0.1' });
  const base = serverUrl(server);
  const call = async (method: string, path: string, body?: unknown, jwt?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (jwt) headers.authorization = `Bearer ${jwt}`;
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as { content: Record<string, string> & { messages: { data: { code: string } }[] } };
  };
  const stop = async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
    await deps.world.close();
    await deps.store.close();
  };
  return { deps, call, stop };
}

/** Every store file of `db` (snapshot and journals; the key files beside it hold keys by design). */
const storeFiles = (db: string) =>
  readdirSync(dir)
    .filter((f) => f.startsWith(db.split('/').at(-1)!) && !/-(secret|key)$/.test(f))
    .map((f) => [f, readFileSync(join(dir, f), 'utf8')] as const);

/**
 * Two users ask for a TOTP secret; one enables 2FA with it, then asks for a 2FA reset and an
 * e-mail change. Returns every secret value that went over the wire in clear: the six API keys,
 * TOTP secrets and 2FA keys first, then the e-mailed codes.
 */
async function leaveSecrets(s: Awaited<ReturnType<typeof start>>): Promise<string[]> {
  const clear: string[] = [];
  const now = Number((await s.call('GET', '/test_helpers/clock')).content.now);
  for (const name of ['active', 'pending']) {
    const { apiKey } = (await s.call('POST', '/test_helpers/users', { email: `${name}@example.com` })).content;
    const jwt = (await s.call('POST', '/user/login', { apiKey })).content.jwt!;
    const { base32, key } = (await s.call('GET', '/user/2FA/create', undefined, jwt)).content;
    clear.push(apiKey!, base32!, key!);
    if (name === 'pending') continue;
    const code = totpAt(base32!, now);
    const validated = await s.call('POST', '/user/2FA/validate', { secret: key, code, email: 'b@example.com' }, jwt);
    expect(validated.content).toBe('2FA activated');
    await s.call('POST', '/user/reset2FA/ask', {}, jwt);
    await s.call('POST', '/user/email/change/request', { email: 'new@example.com' }, jwt);
  }
  const mails = (await s.call('GET', '/test_helpers/outbox?channel=email')).content.messages;
  const codes = mails.map((m) => m.data?.code).filter((c): c is string => Boolean(c));
  expect(codes.length).toBeGreaterThanOrEqual(2);
  return [...clear, ...codes];
}

describe('secrets at rest', () => {
  it('no TOTP secret, 2FA key, API key or e-mailed code is in any store file', async () => {
    const db = join(dir, 'sealed.json');
    const s = await start(db);
    const clear = await leaveSecrets(s);
    await s.deps.store.snapshot(); // a snapshot file written from the journal, beside a new journal
    await s.call('POST', '/test_helpers/users', {}); // and a journal line after it
    await s.stop();
    const files = storeFiles(db);
    expect(files.map(([f]) => f)).toContain('sealed.json');
    for (const [file, text] of files)
      for (const value of clear) expect(text.includes(value), `${value} in ${file}`).toBe(false);
  }, 60_000);

  it('a store written before sealing is sealed at the next start, its files included', async () => {
    const db = join(dir, 'legacy.json');
    const first = await start(db);
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const user = '76561198000000042';
    const tx = new Tx(first.deps.store.state);
    tx.put('twoFactor', user, { user, secret, key: 'legacykey1', backupEmail: 'b@example.com', activatedAt: 1 });
    await first.deps.store.commit(tx); // as an earlier version kept it: in clear
    await first.stop();
    expect(storeFiles(db).some(([, text]) => text.includes(secret))).toBe(true);

    const second = await start(db);
    const stored = second.deps.store.state.twoFactor[user]!;
    expect([second.deps.sealer.open(stored.secret), second.deps.sealer.open(stored.key)]).toEqual([
      secret,
      'legacykey1',
    ]);
    await second.stop();
    for (const [file, text] of storeFiles(db)) expect(text.includes(secret), file).toBe(false);
  }, 60_000);
});

const missing = postgresMissing();
describe.skipIf(missing)(`secrets at rest on PostgreSQL${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let cluster: Postgres;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('no secret in any table, and the key given by a variable is not in the database', async () => {
    const url = await cluster.createDatabase('sealed');
    const secretsKey = 'a-secrets-key-kept-apart-from-the-database';
    const s = await start(url, { MARKETPLACE_SECRETS_KEY: secretsKey });
    const clear = await leaveSecrets(s);
    await s.stop();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const tables = await client.query<{ name: string }>(
        "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
      );
      expect(tables.rows.length).toBeGreaterThan(2);
      for (const { name } of tables.rows) {
        const rows = await client.query<{ row: string }>(`SELECT t::text AS row FROM ${pg.escapeIdentifier(name)} t`);
        const text = rows.rows.map((r) => r.row).join('\n');
        // The shared world holds the outbox of the mail simulator: the e-mails as sent, codes included.
        const values = name === 'marketplace_world' ? [...clear.slice(0, 6), secretsKey] : [...clear, secretsKey];
        for (const value of values) expect(text.includes(value), `${value} in ${name}`).toBe(false);
      }
    } finally {
      await client.end();
    }
  }, 120_000);
});
