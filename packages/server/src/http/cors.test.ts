// CORS on the reference server (issue 34): a preflight of an allowed origin is answered before
// anything of the API runs, every answer to it is readable (a 429 with its headers too), an origin
// not allowed gets no CORS header, production (a server on a store that keeps its data) allows
// none unless told, and sandboxes and a server in memory take the local dev default of test mode.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORS_MAX_AGE } from '@marketplace/contract';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import { startServer } from '../server.ts';

type Started = Awaited<ReturnType<typeof startServer>>;
const started: Started[] = [];

async function start(env: Record<string, string>): Promise<string> {
  const config = parseConfig({ MARKETPLACE_DB: ':memory:', PORT: '0', LOG_LEVEL: 'silent', ...env });
  const server = await startServer({ config, logger: pino({ level: 'silent' }) });
  server.server.keepAliveTimeout = 65_000; // see routes/test-harness.fixture.ts
  started.push(server);
  return server.url;
}
const scratch = mkdtempSync(join(tmpdir(), 'cors-'));
afterAll(async () => {
  await Promise.all(started.map((s) => s.close()));
  rmSync(scratch, { recursive: true, force: true });
});
/** A production-like store: a file, which keeps its data. */
const fileStore = (name: string) => ({ MARKETPLACE_DB: join(scratch, `${name}.json`) });

const DEV = 'http://127.0.0.1:5173';

/**
 * An answer read to its end: a body left unread keeps its connection busy until the garbage
 * collector ends it, which can leave the client a connection that holds the server's close.
 */
async function read(answer: Promise<Response>): Promise<Response> {
  const res = await answer;
  await res.clone().arrayBuffer();
  return res;
}

/** What a browser sends before a call with a bearer and a JSON body from `origin`. */
function preflight(url: string, origin: string, method = 'POST') {
  return read(
    fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization,content-type',
      },
    }),
  );
}

const corsHeaders = (res: Response) =>
  [...res.headers.keys()].filter((name) => name.startsWith('access-control-')).sort();

describe('CORS in test mode (the default: local dev servers on any port)', { timeout: 120_000 }, () => {
  let url: string;
  beforeAll(async () => {
    // Every API request fails on purpose: a preflight that reached the API would fail too.
    url = await start({ MARKETPLACE_TEST_MODE: '1', MARKETPLACE_FAIL_RATE: '1' });
  }, 120_000);

  it('Given a dev server origin, the preflight is answered 204 with the methods, headers and max age', async () => {
    const res = await preflight(`${url}/item/buyorder`, DEV);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(DEV);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization,content-type');
    expect(res.headers.get('access-control-max-age')).toBe(String(CORS_MAX_AGE));
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/Origin/);
  });

  it('Given a dev server origin, an answer of the API names it and exposes the rate-limit headers', async () => {
    const res = await read(fetch(`${url}/item/listing/1`, { headers: { origin: 'http://localhost:3000' } }));
    expect([429, 500]).toContain(res.status); // failed on purpose (half 429, half 500): the API's answers all the same
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(res.headers.get('access-control-expose-headers')).toBe(
      'X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset,Retry-After',
    );
  });

  it('Given an origin that is not allowed, no answer carries a CORS header', async () => {
    const refused = await preflight(`${url}/item/buyorder`, 'https://evil.example');
    // It goes on to the API (here failed on purpose; else 404, the API knows no OPTIONS): refused by the browser.
    expect(refused.status).not.toBe(204);
    expect(corsHeaders(refused)).toEqual([]);
    expect(refused.headers.get('vary')).toMatch(/Origin/);
    const answer = await read(fetch(`${url}/openapi.json`, { headers: { origin: 'https://evil.example' } }));
    expect([answer.status, corsHeaders(answer)]).toEqual([200, []]);
  });

  it('Given a sandbox of this server, its preflights and answers are allowed the same way', async () => {
    const created = await read(fetch(`${url}/sandboxes`, { method: 'POST', headers: { origin: DEV } }));
    expect(created.headers.get('access-control-allow-origin')).toBe(DEV);
    const { content } = (await created.json()) as { content: { url: string } };
    const res = await preflight(`${content.url}/user/login`, DEV);
    expect([res.status, res.headers.get('access-control-allow-origin')]).toEqual([204, DEV]);
  });
});

describe('CORS outside test mode', { timeout: 120_000 }, () => {
  it('Given no setting, production allows no origin: no preflight answer, no header', async () => {
    const url = await start(fileStore('production'));
    const res = await preflight(`${url}/user/login`, DEV);
    expect([res.status, corsHeaders(res)]).toEqual([404, []]);
  });

  it('Given MARKETPLACE_CORS_ORIGINS, exactly those origins are allowed', async () => {
    const url = await start({ ...fileStore('listed'), MARKETPLACE_CORS_ORIGINS: 'https://app.example.com' });
    const allowed = await preflight(`${url}/user/login`, 'https://app.example.com');
    expect([allowed.status, allowed.headers.get('access-control-allow-origin')]).toEqual([
      204,
      'https://app.example.com',
    ]);
    expect(corsHeaders(await preflight(`${url}/user/login`, DEV))).toEqual([]);
  });

  it('Given *, every origin is allowed with a bare *, never with credentials', async () => {
    const url = await start({ MARKETPLACE_CORS_ORIGINS: '*' });
    const res = await preflight(`${url}/user/login`, 'https://anywhere.example');
    expect([res.status, res.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('Given --sandboxes without test mode and no setting, the server allows none but its sandboxes take the dev default', async () => {
    const url = await start({ ...fileStore('sandboxes'), MARKETPLACE_SANDBOXES: '1' });
    const created = await read(fetch(`${url}/sandboxes`, { method: 'POST', headers: { origin: DEV } }));
    expect(corsHeaders(created)).toEqual([]);
    const { content } = (await created.json()) as { content: { url: string } };
    const res = await preflight(`${content.url}/user/login`, DEV);
    expect([res.status, res.headers.get('access-control-allow-origin')]).toEqual([204, DEV]);
  });

  it('Given a store in memory (npm run sandbox), local dev servers are allowed without a setting', async () => {
    const url = await start({ MARKETPLACE_DEMO: '1' });
    const res = await preflight(`${url}/user/login`, DEV);
    expect([res.status, res.headers.get('access-control-allow-origin')]).toEqual([204, DEV]);
  });

  it('Given MARKETPLACE_CORS_ORIGINS=none in test mode, no origin is allowed', async () => {
    const url = await start({ MARKETPLACE_TEST_MODE: '1', MARKETPLACE_CORS_ORIGINS: 'none' });
    expect(corsHeaders(await preflight(`${url}/user/login`, DEV))).toEqual([]);
  });
});
