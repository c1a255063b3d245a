// Durability through the HTTP layer (ADR 0001): a state change is journaled and fsync'd before its
// answer leaves, so a server dropped without `close` (a crash) loses nothing it acknowledged.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startTestServer } from '../routes/test-harness.fixture.ts';
import { fullDiskFiles } from '../store/full-disk.fixture.ts';
import { openStore } from '../store/store.ts';

const dir = mkdtempSync(join(tmpdir(), 'durability-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('keeps the session of an acknowledged login when the server is dropped without closing its store', async () => {
  const db = join(dir, 'marketplace.json');
  const first = await startTestServer({ env: { MARKETPLACE_DB: db } });
  const { platformId, apiKey } = await first.user();
  const jwt = await first.login(apiKey);
  const { jti } = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));
  await first.close(); // stops listening; the store is never closed, flushed or snapshotted

  const reopened = await openStore(db);
  expect(reopened.state.users[platformId]).toMatchObject({ platformId });
  const sessions = Object.values(reopened.state.sessions);
  expect(sessions).toEqual([expect.objectContaining({ jti, user: platformId, ip: '127.0.0.1', revoked: false })]);
  await reopened.close();

  // A server on the same file (its JWT secret is kept beside it) takes the token as before.
  const second = await startTestServer({ env: { MARKETPLACE_DB: db } });
  const { data, response } = await second.api.GET('/user/ipList', second.auth(jwt));
  expect(response.status).toBe(200);
  expect(data?.content).toMatchObject({ count: 1, values: [{ user: platformId, current: true }] });
  await second.close();
  await second.deps.store.close();
}, 90_000); // fsyncs and snapshot merges in child processes: slow on a busy machine

it('answers a write the full disk refused with a 500 and shows nothing of it afterwards; later writes are kept', async () => {
  const db = join(dir, 'full.json');
  let full = false;
  const t = await startTestServer({ env: { MARKETPLACE_DB: db }, store: { files: fullDiskFiles(() => full) } });
  try {
    const { apiKey } = await t.user();
    const jwt = await t.login(apiKey);
    full = true;
    // a login is a write (a new session): refused, and the session it would have made is not there
    const sessionsBefore = Object.keys(t.deps.store.state.sessions);
    const { response } = await t.api.POST('/user/login', { body: { apiKey } });
    expect(response.status).toBe(500);
    expect(Object.keys(t.deps.store.state.sessions)).toEqual(sessionsBefore);
    const ips = await t.api.GET('/user/ipList', t.auth(jwt));
    expect(ips.data?.content).toMatchObject({ count: 1 });
    full = false;
    const again = await t.api.POST('/user/login', { body: { apiKey } });
    expect(again.response.status).toBe(200);
  } finally {
    await t.close();
  }
  const reopened = await openStore(db); // as after a crash: the server's store was never closed
  expect(Object.keys(reopened.state.sessions)).toHaveLength(2);
  await reopened.close();
  await t.deps.store.close();
}, 90_000);
