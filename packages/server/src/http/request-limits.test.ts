// What a caller can make the server read and hold (issue 17, point 4): bodies bounded per
// operation from the document, smaller for callers without a JWT, unread when the caller is
// refused anyway, uploads in progress per IP without a JWT, logins per IP and per API key, and
// a stalled upload cut by the request timeout. Bodies the parsers refuse get the documented 300.
import { type AddressInfo, connect, type Socket } from 'node:net';
import { bodyLimitOf } from '@marketplace/contract';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import { startTestServer, type TestServer } from '../routes/test-harness.fixture.ts';
import { composeServer, listen } from '../server.ts';
import { ANONYMOUS_BODY_LIMIT, ANONYMOUS_UPLOADS, INVALID_BODY } from './app.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(() => t.reset());

const invalidBody = [300, { err: true, success: false, content: INVALID_BODY }];
/** The body limit the pipeline applies to an operation, read from the document as it reads it. */
function limitOf(operationId: string): number {
  for (const item of Object.values(t.deps.document.paths) as Record<string, { operationId?: string }>[])
    for (const op of Object.values(item)) if (op.operationId === operationId) return bodyLimitOf(t.deps.document, op)!;
  throw new Error(`no operation ${operationId}`);
}

async function post(path: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, json: await res.json(), headers: res.headers };
}

/** A JSON body of exactly `bytes` bytes: an object whose `apiKey` pads it. */
const jsonOf = (bytes: number, fields: Record<string, unknown> = {}) => {
  const head = JSON.stringify({ ...fields, apiKey: '' });
  return `${head.slice(0, -2)}${'k'.repeat(bytes - head.length)}"}`;
};

describe('body limits from the document', () => {
  it('reads a login body up to its limit (a few kilobytes), and refuses one byte more unread', async () => {
    const limit = limitOf('postUserLogin');
    expect(limit).toBeGreaterThan(256);
    expect(limit).toBeLessThan(ANONYMOUS_BODY_LIMIT);
    // Within the limit: read and validated (the key is too long for the schema).
    const within = await post('/user/login', jsonOf(limit));
    expect(within.status).toBe(300);
    expect(within.json.content).toBe('Invalid apiKey parameter');
    const over = await post('/user/login', jsonOf(limit + 1));
    expect([over.status, over.json]).toEqual(invalidBody);
    expect(over.headers.get('connection')).toBe('close');
  });

  it('reads megabytes only on the attachment routes, and only from a caller with a JWT', async () => {
    const { apiKey } = await t.user();
    const jwt = await t.login(apiKey);
    const attachment = 'QUJD'.repeat(1_750_000); // 7,000,000 base64 characters: the documented maximum
    const ticket = JSON.stringify({
      subject: 'A file',
      description: 'See attached.',
      topic: 'trading',
      concern: 'deposit',
      attachment,
    });
    const created = await post('/support/create', ticket, { authorization: `Bearer ${jwt}` });
    expect(created.status).toBe(200);
    expect(limitOf('postSupportCreate')).toBe(8_000_000);
    const tooBig = await post('/support/create', jsonOf(8_000_001), { authorization: `Bearer ${jwt}` });
    expect([tooBig.status, tooBig.json]).toEqual([300, { status: 'error', message: INVALID_BODY }]);
    // The same megabytes from nobody: refused before a byte of the body is read.
    const anonymous = await post('/support/create', ticket);
    expect(anonymous.status).toBe(403);
    expect(anonymous.headers.get('connection')).toBe('close');
  });

  it('answers a JSON array, a form nested deeper than 32 levels or with over 1,000 fields with the documented 300', async () => {
    expect(Object.values(await post('/user/login', '[]')).slice(0, 2)).toEqual(invalidBody);
    // A route that admits megabytes, so only the form's shape is refused.
    const jwt = await t.login((await t.user()).apiKey);
    const form = (body: string) =>
      fetch(`${t.baseUrl}/support/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${jwt}` },
        body,
      }).then(async (r) => [r.status, await r.json()]);
    const refused = [300, { status: 'error', message: INVALID_BODY }];
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i}=1`).join('&');
    expect(await form(`subject${'[a]'.repeat(33)}=x`)).toEqual(refused);
    expect(await form(fields(1001))).toEqual(refused);
    // At the bounds: read, then validated as usual (the required fields are missing).
    for (const body of [`subject${'[a]'.repeat(32)}=x`, fields(1000)]) {
      const [status, answer] = await form(body);
      expect(status).toBe(300);
      expect(answer).not.toEqual(refused[1]);
    }
  });
});

/** Opens a raw connection and sends `head` (request line and headers) and part of a body. */
function stall(port: number, path: string, length: number, ip: string): Promise<Socket> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nX-Forwarded-For: ${ip}\r\n\r\n{"apiKey": "`,
      );
      done(socket);
    });
    socket.on('error', fail);
  });
}

describe('callers without a JWT', () => {
  it(`frees a slot once its body has arrived: ${ANONYMOUS_UPLOADS + 8} complete logins at once from one IP all succeed`, async () => {
    const users = await Promise.all(Array.from({ length: ANONYMOUS_UPLOADS + 8 }, () => t.user()));
    const answers = await Promise.all(
      users.map((u) => post('/user/login', JSON.stringify({ apiKey: u.apiKey }), { 'x-forwarded-for': '203.0.113.9' })),
    );
    expect(answers.map((a) => a.status)).toEqual(users.map(() => 200));
  });

  it(`may have ${ANONYMOUS_UPLOADS} uploads in progress per IP; the next gets 429 until one ends`, async () => {
    const port = Number(new URL(t.baseUrl).port);
    const held = await Promise.all(
      Array.from({ length: ANONYMOUS_UPLOADS }, () => stall(port, '/user/login', 1000, '203.0.113.7')),
    );
    try {
      // Once the server has the headers of all of them (a busy machine may take a while), the
      // next upload from that IP is refused.
      const next = () => post('/user/login', '{"apiKey": "nope"}', { 'x-forwarded-for': '203.0.113.7' });
      await expect.poll(async () => (await next()).status, { timeout: 20_000, interval: 100 }).toBe(429);
      const limited = await next();
      expect(limited.status).toBe(429);
      expect(limited.json.content).toBe('Rate limit exceeded. Retry after 1 seconds.');
      expect(limited.headers.get('x-ratelimit-limit')).toBe(String(ANONYMOUS_UPLOADS));
      expect(limited.headers.get('retry-after')).toBe('1');
      const elsewhere = await post('/user/login', '{"apiKey": "nope"}', { 'x-forwarded-for': '203.0.113.8' });
      expect(elsewhere.status).toBe(403);
    } finally {
      for (const socket of held) socket.destroy();
    }
    await expect
      .poll(async () => (await post('/user/login', '{"apiKey": "nope"}', { 'x-forwarded-for': '203.0.113.7' })).status)
      .toBe(403);
  });
});

describe('login attempts', () => {
  const login = (apiKey: string, ip: string) =>
    post('/user/login', JSON.stringify({ apiKey }), { 'x-forwarded-for': ip });

  it('are refused with 429 after 20 unknown keys from one IP, for any key, until the window ends', async () => {
    const { apiKey } = await t.user();
    for (let i = 0; i < 20; i++) expect((await login(`wrong-${i}`, '198.51.100.50')).status).toBe(403);
    const limited = await login(apiKey, '198.51.100.50');
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({
      err: true,
      success: false,
      content: expect.stringMatching(/^Rate limit exceeded\. Retry after \d+ seconds\.$/),
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // Successful logins from another IP are not counted against it.
    expect((await login(apiKey, '198.51.100.51')).status).toBe(200);
    await t.clock({ advance: 301 });
    expect((await login(apiKey, '198.51.100.50')).status).toBe(200);
  });

  it('are refused with 429 after 30 attempts with one API key, from any IP', async () => {
    const { apiKey } = await t.user();
    const other = await t.user();
    for (let i = 0; i < 30; i++) expect((await login(apiKey, `192.0.2.${i + 1}`)).status).toBe(200);
    expect((await login(apiKey, '192.0.2.200')).status).toBe(429);
    expect((await login(other.apiKey, '192.0.2.200')).status).toBe(200);
  });
});

describe('the request timeout', () => {
  it('cuts an upload that stalls, and the server keeps answering', async () => {
    const config = parseConfig({ MARKETPLACE_DB: ':memory:', MARKETPLACE_TEST_MODE: '1' });
    const { app } = await composeServer({ config, logger: pino({ level: 'silent' }) });
    const server = await listen(app, { port: 0, host: '127.0.0.1', requestTimeout: 1500, headersTimeout: 1000 });
    try {
      const port = (server.address() as AddressInfo).port;
      const socket = await stall(port, '/user/login', 1000, '203.0.113.9');
      const started = Date.now();
      const answer = await new Promise<string>((done) => {
        let text = '';
        socket.on('data', (chunk) => (text += chunk));
        socket.on('close', () => done(text));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(Date.now() - started).toBeLessThan(20_000);
      const res = await fetch(`http://127.0.0.1:${port}/openapi.json`);
      expect(res.status).toBe(200);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});
