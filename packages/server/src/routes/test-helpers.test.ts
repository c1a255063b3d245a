// The test-helper contract (shared/test-helpers.md): state, clock and GeoIP helpers in test mode,
// envelope A with HTTP 300 for a bad helper request, and outside test mode a 404 exactly like an
// unknown route's.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditMoney } from '../domain/audit.ts';
import { LOGIN } from '../domain/messages.ts';
import { refusal, startTestServer, type TestServer } from './test-harness.fixture.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(() => t.reset());

/** Status and body of a helper call with a JSON body. */
async function helper(method: 'GET' | 'POST', path: string, body?: unknown, baseUrl = t.baseUrl) {
  const res = await fetch(`${baseUrl}/test_helpers${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return [res.status, await res.json()];
}
const bad = (message: string) => [300, { err: true, success: false, content: message }];
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));

describe('POST /test_helpers/users', () => {
  it('creates a user with the documented defaults and a working API key', async () => {
    const [status, body] = await helper('POST', '/users', {});
    expect(status).toBe(200);
    const { platformId, apiKey } = body.content;
    expect(platformId).toMatch(/^[0-9]{17}$/);
    expect(t.deps.store.state.users[platformId]).toMatchObject({
      platformId,
      balance: 0,
      admin: false,
      country: 'US',
    });
    expect(claimsOf(await t.login(apiKey)).sub).toBe(platformId);
  });

  it('keeps a given platformId and refuses it twice', async () => {
    const platformId = '76561198000000042';
    expect((await helper('POST', '/users', { platformId, balance: 150, admin: true }))[1].content.platformId).toBe(
      platformId,
    );
    expect(t.deps.store.state.users[platformId]).toMatchObject({ balance: 150, admin: true });
    expect(await helper('POST', '/users', { platformId })).toEqual(bad('platformId already exists'));
  });

  it('links the given payment methods and switches 2FA on when asked', async () => {
    const body = { paymentMethods: ['provider_b'], twoFactor: true };
    const { platformId } = (await helper('POST', '/users', body))[1].content;
    expect(t.deps.store.state.users[platformId]).toMatchObject({
      paymentMethods: ['provider_b'],
      twoFactorEnabled: true,
    });
  });

  it.each([
    [{ balance: -1 }, 'Invalid balance parameter'],
    [{ balance: 1.5 }, 'Invalid balance parameter'],
    [{ platformId: '123' }, 'Invalid platformId parameter'],
    [{ paymentMethods: 'provider_a' }, 'Invalid paymentMethods parameter'],
    [{ paymentMethods: ['provider_c'] }, 'Invalid paymentMethods parameter'],
  ])('refuses %j with 300 %s', async (body, message) => {
    expect(await helper('POST', '/users', body)).toEqual(bad(message));
  });
});

describe('POST /test_helpers/items and /assets', () => {
  it('stores an item and an asset of it', async () => {
    const [, item] = await helper('POST', '/items', { name: 'Key', game: 440 });
    expect(item.content).toMatchObject({ id: expect.any(Number), name: 'Key', game: 440 });
    const { platformId } = await t.user();
    const [status, asset] = await helper('POST', '/assets', { owner: platformId, itemId: item.content.id, state: 1 });
    expect(status).toBe(200);
    expect(asset.content).toMatchObject({ id: expect.any(Number), assetId: expect.any(String) });
  });

  it('stores every Item field it is given, serves them in the item details, and drops a field that is no Item field', async () => {
    const given = {
      id: 77,
      name: 'Given Hat',
      game: 440,
      effect: 'Sunbeams',
      SKU: '77;5',
      quality: 'Unusual',
      type: 'Cosmetic',
      type_platform: 'Cosmetic Item',
      class: 'hat',
      image: '/images/given-hat.png',
      imagePertinence: 9,
      craftable: 0,
      rarity: 'Legendary',
      featured: 1,
      deal: 4200,
      t: { tag: 'x' },
      color: 'CF6A32',
      slot: 'head',
      hero: 'Soldier',
      weapon: 'none',
      exterior: 'Battle Scarred',
      url: 'given-hat-slug',
      description: 'A given hat.',
      shopdata: ['featured'],
    };
    const [status, stored] = await helper('POST', '/items', { ...given, bogus: 'not an Item field' });
    expect(status).toBe(200);
    expect(stored.content).toMatchObject(given);
    expect(stored.content).not.toHaveProperty('bogus');
    const details = await fetch(`${t.baseUrl}/item/details/77`);
    expect((await details.json()).content.informations).toEqual(given);
  });

  it.each([
    ['/items', { game: 440 }, 'Missing required parameter: name'],
    ['/items', { name: 'Key', game: 1 }, 'Invalid game parameter'],
    ['/assets', { owner: '76561198000000001', itemId: 1 }, 'Unknown user'],
  ])('POST %s %j answers 300 %s', async (path, body, message) => {
    expect(await helper('POST', path, body)).toEqual(bad(message));
  });

  it('answers 300 for an asset of an unknown item', async () => {
    const { platformId } = await t.user();
    expect(await helper('POST', '/assets', { owner: platformId, itemId: 999 })).toEqual(bad('Unknown item'));
  });
});

describe('POST /test_helpers/population', () => {
  it('adds users who can log in, items and assets their public routes show, with the money invariant intact', async () => {
    const body = { users: 4, items: 2, assets: 20, listedShare: 0.5, buyOrders: 3, balance: 2_000 };
    const [status, res] = await helper('POST', '/population', body);
    expect(status).toBe(200);
    const { apiKeys, platformIds, itemIds } = res.content;
    expect(res.content).toMatchObject({ users: 4, items: 2, assets: 20, buyOrders: 3 });
    expect(apiKeys).toEqual(['pop-0', 'pop-1', 'pop-2', 'pop-3']);
    expect(claimsOf(await t.login(apiKeys[2])).sub).toBe(platformIds[2]);
    // Half of each user's five assets (rounded) are listed: 3 each, 12 in all, dealt over both items.
    const jwt = await t.login(apiKeys[0]);
    const counts = await Promise.all(
      itemIds.map(
        async (item: number) =>
          (await t.api.GET('/item/listing/count/{item}', { params: { path: { item } }, ...t.auth(jwt) })).data?.content
            ?.count,
      ),
    );
    expect(counts.reduce((n: number, c: number) => n + c, 0)).toBe(12);
    expect(auditMoney(t.deps.store.state).problems).toEqual([]);
    // A second call numbers on.
    expect((await helper('POST', '/population', { users: 1, items: 0, assets: 0 }))[1].content.apiKeys).toEqual([
      'pop-4',
    ]);
  });

  it.each([
    [{ users: -1, items: 1, assets: 1 }, 'Invalid users parameter: an integer from 0 to 100000'],
    [{ users: 100_001, items: 1, assets: 1 }, 'Invalid users parameter: an integer from 0 to 100000'],
    [{ users: 1, items: 100_001, assets: 1 }, 'Invalid items parameter: an integer from 0 to 100000'],
    [{ users: 1, items: 1, assets: 5_000_001 }, 'Invalid assets parameter: an integer from 0 to 5000000'],
    [{ users: '10', items: 1, assets: 1 }, 'Invalid users parameter: an integer from 0 to 100000'],
    [{ users: 1, items: 1.5, assets: 1 }, 'Invalid items parameter: an integer from 0 to 100000'],
    [{ users: 1, items: 1 }, 'Invalid assets parameter: an integer from 0 to 5000000'],
    [{ users: 1, items: 1, assets: 1, listedShare: 1.2 }, 'Invalid listedShare parameter: a number from 0 to 1'],
    [{ users: 1, items: 1, assets: 1, listedShare: 'half' }, 'Invalid listedShare parameter: a number from 0 to 1'],
    [{ users: 1, items: 1, assets: 1, buyOrders: -2 }, 'Invalid buyOrders parameter: an integer from 0'],
    [{ users: 1, items: 1, assets: 1, buyOrders: 2 }, 'Invalid buyOrders parameter: at most one per user and item'],
    [{ users: 1, items: 1, assets: 1, balance: -5 }, 'Invalid balance parameter: an integer from 0 to 10000000000'],
    [{ users: 1, items: 1, assets: 1, balance: 1e11 }, 'Invalid balance parameter: an integer from 0 to 10000000000'],
    [{ users: 2, items: 2, assets: 1, buyOrders: 4, balance: 100 }, 'Not enough balance'],
    [{ users: 0, items: 3, assets: 5 }, 'Assets need at least one user and one item'],
  ])('answers %j with a 300 and adds nothing', async (body, message) => {
    expect(await helper('POST', '/population', body)).toEqual(bad(message));
    expect(Object.keys(t.deps.store.state.users)).toHaveLength(0);
  });
});

describe('the clock', () => {
  it('is set, advanced and read', async () => {
    expect(await helper('POST', '/clock', { set: 1_800_000_000 })).toEqual([
      200,
      { err: false, success: true, content: { now: 1_800_000_000 } },
    ]);
    expect((await helper('POST', '/clock', { advance: 3600 }))[1].content.now).toBe(1_800_003_600);
    expect((await helper('GET', '/clock'))[1].content.now).toBe(1_800_003_600);
    expect(await helper('POST', '/clock', { forward: 1 })).toEqual(bad('Send advance or set'));
  });

  it('is what JWTs are issued by', async () => {
    await t.clock({ set: 1_800_000_000 });
    expect(claimsOf(await t.login((await t.user()).apiKey)).iat).toBe(1_800_000_000);
  });
});

describe('POST /test_helpers/geoip', () => {
  it('sets the country a client IP resolves to; unknown IPs are US', async () => {
    expect(await helper('POST', '/geoip', { ip: '10.1.2.3', country: 'fr' })).toEqual([
      200,
      { err: false, success: true, content: { ip: '10.1.2.3', country: 'FR' } },
    ]);
    const { apiKey } = await t.user();
    const from = async (ip: string) => {
      const { data } = await t.api.POST('/user/login', { body: { apiKey }, headers: { 'x-forwarded-for': ip } });
      return claimsOf((data!.content as { jwt: string }).jwt).country;
    };
    expect(await from('10.1.2.3')).toBe('FR');
    expect(await from('10.1.2.4')).toBe('US');
  });

  it.each([
    [{ country: 'FR' }, 'Invalid ip parameter'],
    [{ ip: '10.1.2.3', country: 'France' }, 'Invalid country parameter'],
  ])('refuses %j with 300 %s', async (body, message) => {
    expect(await helper('POST', '/geoip', body)).toEqual(bad(message));
  });
});

describe('POST /test_helpers/totp (ours)', () => {
  // RFC 6238 appendix B: the SHA-1 secret "12345678901234567890" (base32 below); the 6-digit codes
  // are the last six digits of the RFC's 8-digit values.
  const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

  it('answers the code of a secret at the server clock (RFC 6238 test vectors)', async () => {
    await t.clock({ set: 59 });
    expect(await helper('POST', '/totp', { secret: RFC_SECRET })).toEqual([
      200,
      { err: false, success: true, content: { code: '287082', now: 59 } },
    ]);
    await t.clock({ set: 1_111_111_109 });
    expect((await helper('POST', '/totp', { secret: RFC_SECRET }))[1].content.code).toBe('081804');
  });

  it('gives the code that activates 2FA through the public route', async () => {
    const jwt = await t.login((await t.user()).apiKey);
    const created = await t.api.GET('/user/2FA/create', t.auth(jwt));
    const { base32, key } = (created.data as { content: { base32: string; key: string } }).content;
    const [, totp] = await helper('POST', '/totp', { secret: base32 });
    const validated = await t.api.POST('/user/2FA/validate', {
      ...t.auth(jwt),
      body: { secret: key, code: totp.content.code, email: 'backup@example.com' },
    });
    expect(validated.response.status).toBe(200);
  });

  it.each([{}, { secret: 'not base32!' }, { secret: 42 }])('refuses %j with 300', async (body) => {
    expect(await helper('POST', '/totp', body)).toEqual(bad('Invalid secret parameter'));
  });
});

describe('POST /test_helpers/notifications (ours)', () => {
  it('gives the user one unread entry of the kind, listed and counted, that closePaymentAlert closes by its id', async () => {
    const { platformId, apiKey } = await t.user();
    const [status, made] = await helper('POST', '/notifications', {
      platformId,
      kind: 'paymentReview',
      message: 'Under review',
    });
    expect(status).toBe(200);
    expect(made.content).toEqual({ id: expect.any(Number), platformId, kind: 'paymentReview' });
    expect((await helper('POST', '/notifications', { platformId, kind: 'alert' }))[0]).toBe(200);
    const jwt = await t.login(apiKey);
    const read = async () =>
      ((await t.api.GET('/user/notifications', t.auth(jwt))).data as { content: Record<string, unknown> }).content;
    expect(await read()).toMatchObject({
      paymentReviews: [{ id: made.content.id, message: 'Under review', read: false }],
      paymentReviewsCount: 1,
      alertCount: 1,
    });
    const closed = await t.api.POST('/user/closePaymentAlert', { ...t.auth(jwt), body: { id: made.content.id } });
    expect(closed.response.status).toBe(200);
    expect(await read()).toMatchObject({ paymentReviewsCount: 0, alertCount: 1 });
  });

  it.each([
    [{ kind: 'alert' }, 'Invalid platformId parameter'],
    [{ platformId: '76561198000000001' }, 'Invalid kind parameter'],
    [{ platformId: '76561198000000001', kind: 'offer' }, 'Invalid kind parameter'],
    [{ platformId: '76561198000000001', kind: 'alert' }, 'Unknown user'],
  ])('refuses %j with 300 %s', async (body, message) => {
    expect(await helper('POST', '/notifications', body)).toEqual(bad(message));
  });
});

describe('POST /test_helpers/reset', () => {
  it('forgets users, the clock, GeoIP entries and rate-limit counters', async () => {
    const platformId = '76561198000000077';
    await t.clock({ set: 1_800_000_000 });
    await helper('POST', '/geoip', { ip: '127.0.0.1', country: 'FR' });
    const { apiKey } = await t.user({ platformId });
    const jwt = await t.login(apiKey);
    const prices = () => t.api.GET('/item/prices', { params: { query: { game: 440 } }, ...t.auth(jwt) });
    expect((await prices()).response.status).toBe(200);
    expect((await prices()).response.status).toBe(429);

    expect(await helper('POST', '/reset')).toEqual([200, { err: false, success: true, content: { ok: true } }]);
    expect(t.deps.store.state.users).toEqual({});
    expect(refusal(await t.api.POST('/user/login', { body: { apiKey } }))).toEqual([403, LOGIN.invalidApiKey]);
    expect(Math.abs((await t.now()) - Math.floor(Date.now() / 1000))).toBeLessThanOrEqual(1);

    const again = await t.login((await t.user({ platformId })).apiKey);
    expect(claimsOf(again).country).toBe('US');
    const r = await t.api.GET('/item/prices', { params: { query: { game: 440 } }, ...t.auth(again) });
    expect(r.response.status).toBe(200);
  });
});

describe('the other helpers', () => {
  it('GET /test_helpers/outbox lists messages of a channel, and refuses an unknown channel', async () => {
    expect(await helper('GET', '/outbox?channel=email')).toEqual([
      200,
      { err: false, success: true, content: { messages: [] } },
    ]);
    expect(await helper('GET', '/outbox?channel=pigeon')).toEqual(bad('Invalid channel parameter'));
  });

  it('answers a malformed JSON body 300, and an unknown helper 404', async () => {
    const res = await fetch(`${t.baseUrl}/test_helpers/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"balance": ',
    });
    expect([res.status, await res.json()]).toEqual(bad('Invalid request body'));
    expect(await helper('POST', '/teleport', {})).toEqual([404, { err: true, success: false, content: 'Not found' }]);
  });
});

describe('outside test mode', () => {
  let prod: TestServer;
  beforeAll(async () => {
    prod = await startTestServer({ env: { MARKETPLACE_TEST_MODE: '0' } });
  });
  afterAll(() => prod.close());

  /** Everything a client can see of an answer. */
  async function seen(method: string, path: string, body?: unknown) {
    const res = await fetch(`${prod.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
  }

  it.each([
    ['POST', '/test_helpers/reset', undefined],
    ['POST', '/test_helpers/users', { admin: true }],
    ['POST', '/test_helpers/clock', { advance: 60 }],
    ['GET', '/test_helpers/clock', undefined],
    ['GET', '/test_helpers/outbox', undefined],
  ])('%s %s answers exactly like an unknown route', async (method, path, body) => {
    const answer = await seen(method, path, body);
    expect(answer).toEqual(await seen(method, '/no_such_route', body));
    expect(answer).toMatchObject({ status: 404, body: '{"err":true,"success":false,"content":"Not found"}' });
    expect(prod.deps.store.state.users).toEqual({});
  });

  it('keeps the real clock', () => {
    expect(prod.deps.testClock).toBeUndefined();
  });
});
