// The environment's schema: each variable's good values pass, each bad one gets one line naming the
// variable, its value (never a secret, never a password) and what is expected.
import { describe, expect, it } from 'vitest';
import { readEnvironment } from './environment.ts';

const secret = 's'.repeat(32);

/** [variable, values it accepts, a value it refuses, the refusal's line]. */
const CASES: [string, string[], string, string][] = [
  ['PORT', ['0', '8080', '65535'], '80a', 'PORT: "80a" is not a port number (0-65535)'],
  ['PORT', [], '65536', 'PORT: "65536" is not a port number (0-65535)'],
  [
    'HOST',
    ['127.0.0.1', '::', '0.0.0.0', 'localhost', 'api.example.com'],
    'a b',
    'HOST: "a b" is not a host name or an IP address',
  ],
  [
    'MARKETPLACE_DB',
    [':memory:', 'data/marketplace.json', '/var/db.json', 'postgres://u:p@db:5432/market', 'postgresql://db/market'],
    'postgres://',
    'MARKETPLACE_DB: "postgres://" is not a PostgreSQL URL with a host and a database name (postgres://user:password@host:5432/database)',
  ],
  [
    'MARKETPLACE_DB',
    [],
    'postgres://u:hunter2@db:5432',
    'MARKETPLACE_DB: "postgres://u:***@db:5432" is not a PostgreSQL URL with a host and a database name (postgres://user:password@host:5432/database)',
  ],
  [
    'MARKETPLACE_DB',
    [],
    'mysql://db/m',
    'MARKETPLACE_DB: "mysql://db/m" is not :memory:, a file path or a postgres:// URL',
  ],
  ['MARKETPLACE_PG_POOL', ['1', '10', '100'], '0', 'MARKETPLACE_PG_POOL: "0" is not a number of connections (1-100)'],
  ['MARKETPLACE_PG_POOL', [], '101', 'MARKETPLACE_PG_POOL: "101" is not a number of connections (1-100)'],
  [
    'MARKETPLACE_JWT_SECRET',
    [secret, 'é'.repeat(16)],
    'hunter2',
    'MARKETPLACE_JWT_SECRET: (7 bytes, not shown) is too short: a secret needs at least 32 bytes (for example `openssl rand -hex 32`)',
  ],
  [
    'MARKETPLACE_DEPOSIT_SECRET',
    [secret],
    's'.repeat(31),
    'MARKETPLACE_DEPOSIT_SECRET: (31 bytes, not shown) is too short: a secret needs at least 32 bytes (for example `openssl rand -hex 32`)',
  ],
  [
    'MARKETPLACE_BLOCKED_COUNTRIES',
    ['KP', 'kp, ir', 'KP,IR,'],
    'KP,Iran',
    'MARKETPLACE_BLOCKED_COUNTRIES: "KP,Iran" is not a comma-separated list of two-letter country codes (KP,IR)',
  ],
  [
    'MARKETPLACE_TRUST_PROXY',
    ['loopback', '10.0.0.0/8', 'loopback, 192.168.0.1', '::1/128', '10.0.0.0/255.0.0.0'],
    'true',
    'MARKETPLACE_TRUST_PROXY: "true" is not a comma-separated list of IP addresses, ranges (10.0.0.0/8) or loopback, linklocal, uniquelocal',
  ],
  [
    'MARKETPLACE_TRUST_PROXY',
    [],
    '10.0.0.0/33',
    'MARKETPLACE_TRUST_PROXY: "10.0.0.0/33" is not a comma-separated list of IP addresses, ranges (10.0.0.0/8) or loopback, linklocal, uniquelocal',
  ],
  ['MARKETPLACE_TEST_MODE', ['0', '1'], 'yes', 'MARKETPLACE_TEST_MODE: "yes" must be 0 or 1'],
  ['MARKETPLACE_DEMO', ['0', '1'], 'true', 'MARKETPLACE_DEMO: "true" must be 0 or 1'],
  [
    'MARKETPLACE_SMTP_URL',
    ['smtp://mail:25', 'smtps://user:pw@mail.example.com:465'],
    'smtp://user:pw@',
    'MARKETPLACE_SMTP_URL: "smtp://user:***@" is not an smtp:// or smtps:// URL with a host',
  ],
  [
    'MARKETPLACE_SMTP_URL',
    [],
    'http://mail',
    'MARKETPLACE_SMTP_URL: "http://mail" is not an smtp:// or smtps:// URL with a host',
  ],
  [
    'MARKETPLACE_SITE_URL',
    ['https://market.example.com', 'http://127.0.0.1:8080'],
    'market.example.com',
    'MARKETPLACE_SITE_URL: "market.example.com" is not an http:// or https:// URL with a host',
  ],
  [
    'LOG_LEVEL',
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    'verbose',
    'LOG_LEVEL: "verbose" is not a log level (fatal, error, warn, info, debug, trace, silent)',
  ],
];

describe('the environment', () => {
  describe.each(CASES)('%s', (name, good, bad, line) => {
    it.each(good)(`accepts ${name}=%s`, (value) => {
      expect(readEnvironment({ [name]: value }).problems).toEqual([]);
    });
    it(`refuses ${name}=${bad} in one line naming it`, () => {
      expect(readEnvironment({ [name]: bad }).problems).toEqual([line]);
    });
  });

  it('refuses every bad variable at once, one line each, in a fixed order', () => {
    const { problems } = readEnvironment({
      LOG_LEVEL: 'loud',
      MARKETPLACE_TEST_MODE: 'yes',
      PORT: '80a',
      MARKETPLACE_JWT_SECRET: 'short',
      HOST: '127.0.0.1',
    });
    expect(problems).toEqual([
      'PORT: "80a" is not a port number (0-65535)',
      'MARKETPLACE_JWT_SECRET: (5 bytes, not shown) is too short: a secret needs at least 32 bytes (for example `openssl rand -hex 32`)',
      'MARKETPLACE_TEST_MODE: "yes" must be 0 or 1',
      'LOG_LEVEL: "loud" is not a log level (fatal, error, warn, info, debug, trace, silent)',
    ]);
  });

  it('takes an empty value as unset and leaves other variables alone', () => {
    const { environment, problems } = readEnvironment({ PORT: '', MARKETPLACE_URL: 'x y', PATH: '/bin' });
    expect(problems).toEqual([]);
    expect(environment).toEqual({ MARKETPLACE_URL: 'x y', PATH: '/bin' });
  });

  it('never prints a secret or a password', () => {
    const { problems } = readEnvironment({
      MARKETPLACE_JWT_SECRET: 'hunter2',
      MARKETPLACE_DEPOSIT_SECRET: 'hunter2',
      MARKETPLACE_DB: 'postgres://admin:hunter2@/market',
      MARKETPLACE_SMTP_URL: 'ftp://admin:hunter2@mail',
    });
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).not.toContain('hunter2');
  });
});
