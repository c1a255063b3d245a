// The helpers' gate (@marketplace/contract's helpers-gate.ts) in the reference server: a helper's body is read within its limit and checked
// against its schema in openapi/test-helpers.yaml before anything changes, refused with the
// documented 300, and fields its schema does not declare never reach the state.

import { HELPER_BODY_LIMIT } from '@marketplace/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test-harness.fixture.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(() => t.reset());

async function post(path: string, body: string) {
  const res = await fetch(`${t.baseUrl}/test_helpers${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return [res.status, await res.json()];
}
const bad = (message: string) => [300, { err: true, success: false, content: message }];
const counts = () => ({
  users: Object.keys(t.deps.store.state.users).length,
  items: Object.keys(t.deps.store.state.items).length,
  assets: Object.keys(t.deps.store.state.assets).length,
});

describe('fields a helper schema does not declare', () => {
  it('are not copied into an item (ItemRequest admits them, and drops them)', async () => {
    // ItemRequest declares every Item field ("any Item fields"): what no Item has is dropped.
    const body = { name: 'Key', game: 440, SKU: 'given', imagePertinence: 99, secret: 'x', deal: 5 };
    const [status, res] = await post('/items', JSON.stringify(body));
    expect(status).toBe(200);
    const stored = t.deps.store.state.items[res.content.id] as unknown as Record<string, unknown>;
    expect(stored).toMatchObject({ name: 'Key', game: 440, deal: 5, SKU: 'given', imagePertinence: 99 });
    expect(stored).not.toHaveProperty('secret');
  });

  it('do not overwrite what the server sets on an asset (its owner, its id)', async () => {
    const { platformId } = await t.user();
    const other = await t.user();
    const item = await t.item({ name: 'Hat' });
    const body = { owner: platformId, itemId: item.id, user: other.platformId, id: 999, html: '<b>' };
    const [status, res] = await post('/assets', JSON.stringify(body));
    expect(status).toBe(200);
    const stored = t.deps.store.state.assets[res.content.id] as unknown as Record<string, unknown>;
    expect(stored).toMatchObject({ user: platformId, id: res.content.id, html: '' });
    expect(res.content.id).not.toBe(999);
  });
});

describe('a body that breaks its schema', () => {
  it.each([
    ['/items', { name: 5, game: 440 }, 'Missing required parameter: name'],
    ['/items', { name: 'Key', game: '440' }, 'Invalid game parameter'],
    ['/users', { balance: '100' }, 'Invalid balance parameter'],
    ['/users', { admin: 'yes' }, 'Invalid admin parameter'],
    ['/assets', { owner: '76561198000000001', itemId: 1, state: 'listed' }, 'Invalid state parameter'],
    ['/population', { users: 1, items: 1, assets: '1' }, 'Invalid assets parameter: an integer from 0 to 5000000'],
    ['/clock', { advance: '60' }, 'Send advance or set'],
    ['/geoip', { ip: 7, country: 'FR' }, 'Invalid ip parameter'],
  ])('POST %s %j is refused with the documented 300 and changes nothing', async (path, body, message) => {
    const before = counts();
    const clock = t.deps.clock.now();
    expect(await post(path, JSON.stringify(body))).toEqual(bad(message));
    expect(counts()).toEqual(before);
    expect(t.deps.clock.now() - clock).toBeLessThan(5);
  });

  it('a JSON array or string is refused as an invalid body', async () => {
    expect(await post('/users', '[]')).toEqual(bad('Invalid request body'));
    expect(await post('/users', '"x"')).toEqual(bad('Invalid request body'));
    expect(counts().users).toBe(0);
  });
});

describe('body size', () => {
  it('refuses a body over the helper limit unread, and stores nothing', async () => {
    const name = 'k'.repeat(HELPER_BODY_LIMIT);
    const res = await fetch(`${t.baseUrl}/test_helpers/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, game: 440 }),
    });
    expect([res.status, await res.json()]).toEqual(bad('Invalid request body'));
    expect(res.headers.get('connection')).toBe('close');
    expect(counts().items).toBe(0);
  }, 30_000);

  it('refuses a population body over the bound its schema gives (a few hundred bytes)', async () => {
    const padded = `{"users": 1, "items": 1, "assets": 1${' '.repeat(64 * 1024)}}`;
    expect(await post('/population', padded)).toEqual(bad('Invalid request body'));
    expect(counts().users).toBe(0);
  });
});
