// Which origins a CORS setting admits, and what a refused value says.
import { describe, expect, it } from 'vitest';
import { corsOriginAllowed, LOCAL_DEV_ORIGINS, parseCorsOrigins } from './cors.ts';

const REFUSED = 'is not none, * or a comma-separated list of origins (https://app.example.com, http://localhost:*)';

describe('parseCorsOrigins', () => {
  it.each([
    ['none', []],
    ['*', ['*']],
    ['https://app.example.com', ['https://app.example.com']],
    [' https://a.example.com , http://localhost:* ', ['https://a.example.com', 'http://localhost:*']],
    ['http://[::1]:5173', ['http://[::1]:5173']],
    ['https://app.example.com/', REFUSED],
    ['app.example.com', REFUSED],
    ['ftp://app.example.com', REFUSED],
    ['https://*.example.com', REFUSED],
    [',', REFUSED],
  ])('%j gives %j', (value, want) => {
    expect(parseCorsOrigins(value)).toEqual(want);
  });
});

describe('corsOriginAllowed', () => {
  it.each([
    ['the local dev defaults admit a dev server on any port', LOCAL_DEV_ORIGINS, 'http://127.0.0.1:5173', true],
    ['... localhost by name, over https', LOCAL_DEV_ORIGINS, 'https://localhost:3000', true],
    ['... IPv6 loopback', LOCAL_DEV_ORIGINS, 'http://[::1]:8081', true],
    ['... and no port', LOCAL_DEV_ORIGINS, 'http://localhost', true],
    ['... but no other host', LOCAL_DEV_ORIGINS, 'http://192.168.1.20:5173', false],
    ['... nor a host that only starts like one', LOCAL_DEV_ORIGINS, 'http://localhost.evil.example:5173', false],
    ['an exact origin', ['https://app.example.com'], 'https://app.example.com', true],
    ['... with its default port written out', ['https://app.example.com:443'], 'https://app.example.com', true],
    ['... not another scheme', ['https://app.example.com'], 'http://app.example.com', false],
    ['... not another port', ['https://app.example.com'], 'https://app.example.com:8443', false],
    ['... not a subdomain', ['https://app.example.com'], 'https://x.app.example.com', false],
    ['an opaque origin never', ['*'], 'null', false],
    ['a value with a path never', ['*'], 'https://app.example.com/', false],
    ['any origin with *', ['*'], 'https://anything.example', true],
    ['none with none', [], 'http://127.0.0.1:5173', false],
  ])('%s', (_name, patterns, origin, allowed) => {
    expect(corsOriginAllowed(patterns, origin)).toBe(allowed);
  });
});
