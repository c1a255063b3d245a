import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSecret, parseConfig } from './config.ts';
import { StartRefusal } from './start-refusal.ts';

describe('parseConfig', () => {
  it('has the documented defaults', () => {
    expect(parseConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      demo: false,
      db: 'data/marketplace.json',
      jwtSecret: undefined,
      depositSecret: undefined,
      blockedCountries: [],
      trustProxy: 'loopback',
      testMode: false,
      smtpUrl: undefined,
      siteUrl: undefined,
      pgPool: 10,
      logLevel: 'info',
      onPurpose: { prefer: false },
      sandboxes: undefined,
    });
  });
  it('reads the sandboxes and on-purpose variables; test mode turns sandboxes and Prefer on', () => {
    expect(parseConfig({ MARKETPLACE_TEST_MODE: '1' })).toMatchObject({
      sandboxes: { max: 20, idleSeconds: 1800, memoryMb: undefined },
      onPurpose: { prefer: true },
    });
    expect(parseConfig({ MARKETPLACE_TEST_MODE: '1', MARKETPLACE_SANDBOXES: '0' }).sandboxes).toBeUndefined();
    expect(
      parseConfig({
        MARKETPLACE_SANDBOXES: '1',
        MARKETPLACE_SANDBOX_MAX: '5',
        MARKETPLACE_SANDBOX_IDLE: '60',
        MARKETPLACE_SANDBOX_MEMORY: '512',
        MARKETPLACE_LATENCY: '100-800',
        MARKETPLACE_FAIL_RATE: '0.1',
        MARKETPLACE_SEED: '42',
      }),
    ).toMatchObject({
      sandboxes: { max: 5, idleSeconds: 60, memoryMb: 512 },
      onPurpose: { prefer: false, latency: { min: 100, max: 800 }, failRate: 0.1, seed: 42 },
    });
    expect(() => parseConfig({ MARKETPLACE_LATENCY: '800-100', MARKETPLACE_FAIL_RATE: '2' })).toThrow(
      /MARKETPLACE_LATENCY: "800-100" is not a latency[^\n]*\nMARKETPLACE_FAIL_RATE: "2" is not a share from 0 to 1/,
    );
  });
  it('reads every variable', () => {
    const c = parseConfig({
      PORT: '9000',
      MARKETPLACE_DB: ':memory:',
      MARKETPLACE_BLOCKED_COUNTRIES: 'kp, ir',
      MARKETPLACE_TEST_MODE: '1',
      MARKETPLACE_TRUST_PROXY: '10.0.0.0/8',
      HOST: '0.0.0.0',
      MARKETPLACE_DEMO: '1',
      MARKETPLACE_PG_POOL: '25',
      MARKETPLACE_SITE_URL: 'https://market.example.com',
      LOG_LEVEL: 'warn',
    });
    expect(c).toMatchObject({
      pgPool: 25,
      siteUrl: 'https://market.example.com',
      logLevel: 'warn',
      port: 9000,
      host: '0.0.0.0',
      demo: true,
      db: ':memory:',
      blockedCountries: ['KP', 'IR'],
      testMode: true,
      trustProxy: '10.0.0.0/8',
    });
  });
  it('reads the CORS origins; unset leaves them to the mode, a bad one refuses the start', () => {
    expect(parseConfig({}).corsOrigins).toBeUndefined();
    expect(parseConfig({ MARKETPLACE_CORS_ORIGINS: 'none' }).corsOrigins).toEqual([]);
    expect(parseConfig({ MARKETPLACE_CORS_ORIGINS: 'https://a.example, http://localhost:*' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:*',
    ]);
    expect(() => parseConfig({ MARKETPLACE_CORS_ORIGINS: 'https://a.example/app' })).toThrow(
      'MARKETPLACE_CORS_ORIGINS: "https://a.example/app" is not none, * or a comma-separated list of origins (https://app.example.com, http://localhost:*)',
    );
  });
  it.each([
    ['1', true],
    ['0', false],
    ['', false],
    [undefined, false],
  ])('test mode for MARKETPLACE_TEST_MODE=%s is %s: only "1" enables it', (value, on) => {
    expect(parseConfig({ MARKETPLACE_TEST_MODE: value }).testMode).toBe(on);
  });

  it('reads the secrets and the SMTP URL, treating empty values as absent', () => {
    const [j, d] = ['j'.repeat(32), 'd'.repeat(32)];
    const given = { MARKETPLACE_JWT_SECRET: j, MARKETPLACE_DEPOSIT_SECRET: d, MARKETPLACE_SMTP_URL: 'smtp://m:25' };
    expect(parseConfig(given)).toMatchObject({ jwtSecret: j, depositSecret: d, smtpUrl: 'smtp://m:25' });
    const empty = { MARKETPLACE_JWT_SECRET: '', MARKETPLACE_DEPOSIT_SECRET: '', MARKETPLACE_SMTP_URL: '' };
    expect(parseConfig(empty)).toMatchObject({ jwtSecret: undefined, depositSecret: undefined, smtpUrl: undefined });
  });

  it('takes a relative database path from where npm was run', () => {
    expect(parseConfig({ INIT_CWD: '/srv/app' }).db).toBe('/srv/app/data/marketplace.json');
    expect(parseConfig({ INIT_CWD: '/srv/app', MARKETPLACE_DB: 'x.json' }).db).toBe('/srv/app/x.json');
    expect(parseConfig({ INIT_CWD: '/srv/app', MARKETPLACE_DB: '/var/db.json' }).db).toBe('/var/db.json');
    expect(parseConfig({ INIT_CWD: '/srv/app', MARKETPLACE_DB: ':memory:' }).db).toBe(':memory:');
    const url = 'postgres://u@db:5432/market';
    expect(parseConfig({ INIT_CWD: '/srv/app', MARKETPLACE_DB: url }).db).toBe(url);
  });
  it('refuses every bad variable in one StartRefusal, one line each', () => {
    let refusal: unknown;
    try {
      parseConfig({ PORT: 'http', MARKETPLACE_DEMO: 'yes', MARKETPLACE_PG_POOL: '0' });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(StartRefusal);
    expect((refusal as Error).message.split('\n')).toEqual([
      'PORT: "http" is not a port number (0-65535)',
      'MARKETPLACE_PG_POOL: "0" is not a number of connections (1-100)',
      'MARKETPLACE_DEMO: "yes" must be 0 or 1',
    ]);
  });
});

describe('loadSecret', () => {
  it('keeps a secret for :memory: in memory only, fresh each time', () => {
    const a = loadSecret(undefined, ':memory:', 'jwt-secret');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(loadSecret(undefined, ':memory:', 'jwt-secret')).not.toBe(a);
  });

  it('generates a secret once and keeps it private beside the database', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    try {
      const db = join(dir, 'db.json');
      const first = loadSecret(undefined, db, 'jwt-secret');
      expect(first).toMatch(/^[0-9a-f]{64}$/);
      expect(loadSecret(undefined, db, 'jwt-secret')).toBe(first);
      expect(statSync(`${db}.jwt-secret`).mode & 0o777).toBe(0o600);
      const given = 'g'.repeat(32);
      expect(loadSecret(given, db, 'jwt-secret')).toBe(given);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a given secret under 32 bytes and an empty or short secret file, in one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    try {
      const db = join(dir, 'db.json');
      const refusal = (f: () => unknown) => {
        try {
          f();
        } catch (error) {
          expect(error).toBeInstanceOf(StartRefusal);
          expect((error as Error).message).not.toContain('\n');
          return (error as Error).message;
        }
        throw new Error('accepted');
      };
      expect(refusal(() => loadSecret('s'.repeat(31), db, 'jwt-secret', 'MARKETPLACE_JWT_SECRET'))).toMatch(
        /MARKETPLACE_JWT_SECRET holds 31 bytes; a secret needs at least 32/,
      );
      expect(refusal(() => loadSecret('s'.repeat(31), db, 'jwt-secret'))).not.toContain('sssss');
      writeFileSync(`${db}.jwt-secret`, '\n');
      expect(refusal(() => loadSecret(undefined, db, 'jwt-secret'))).toMatch(/db\.json\.jwt-secret is empty/);
      writeFileSync(`${db}.jwt-secret`, 'short\n');
      expect(refusal(() => loadSecret(undefined, db, 'jwt-secret'))).toMatch(/holds 5 bytes/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('creates the directory of its file 0700', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    try {
      loadSecret(undefined, join(dir, 'new', 'db.json'), 'jwt-secret');
      expect(statSync(join(dir, 'new')).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
