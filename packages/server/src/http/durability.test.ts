// Durability through the HTTP layer (ADR 0001): a state change is journaled and fsync'd before its
// answer leaves, so a server dropped without `close` (a crash) loses nothing it acknowledged.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startTestServer } from '../routes/test-harness.ts';
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
});
