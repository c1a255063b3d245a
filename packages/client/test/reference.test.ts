// The client against the reference server in test mode: typed values from both envelopes, typed
// business errors, one login reused, a new login when the token expires or is refused, and a
// rate-limited call retried after the wait the server asks for (the wait advances the server's
// test clock instead of sleeping).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/src/routes/test-harness.fixture.ts';
import { createMarketplaceClient, isMarketplaceError, MarketplaceError } from '../src/index.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** A fetch that records each request's method, path and status. */
function recording() {
  const seen: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await globalThis.fetch(request);
    seen.push(`${request.method} ${new URL(request.url).pathname} ${response.status}`);
    return response;
  };
  return { seen, fetch };
}

describe('the client against the reference server', () => {
  it('logs in once with the API key and reuses the JWT for every Connected call', async () => {
    const { apiKey } = await server.user({ balance: 1000 });
    const item = await server.item({ name: 'Client Key' });
    const { seen, fetch } = recording();
    const market = createMarketplaceClient({ baseUrl: server.baseUrl, apiKey, fetch });
    const placed = await market.POST('/item/buyorder', { body: { itemid: item.id, value: 300, amount: 2 } });
    expect(placed).toEqual({ details: 'Inserted' });
    const mine = await market.GET('/user/getBuyorder');
    expect(mine.values.map((o) => [o.itemid, o.price, o.amount])).toEqual([[item.id, 300, 2]]);
    expect(market.session?.logins).toBe(1);
    expect(seen).toEqual(['POST /user/login 200', 'POST /item/buyorder 200', 'GET /user/getBuyorder 200']);
  });

  it('throws a typed MarketplaceError for a business error (HTTP 300), naming the operation', async () => {
    const { apiKey } = await server.user({ balance: 100 });
    const item = await server.item({ name: 'Too Dear' });
    const market = createMarketplaceClient({ baseUrl: server.baseUrl, apiKey });
    const error = await market
      .POST('/item/buyorder', { body: { itemid: item.id, value: 101, amount: 1 } })
      .catch((e: unknown) => e);
    expect(isMarketplaceError(error, 'post', '/item/buyorder')).toBe(true);
    if (!isMarketplaceError(error, 'post', '/item/buyorder')) return;
    expect([error.status, error.kind, error.operation, error.message]).toEqual([
      300,
      'business',
      'postItemBuyorder',
      'Not enough balance',
    ]);
    expect(error.is('Not enough balance')).toBe(true);
    expect(error.is('Item not found')).toBe(false);
    const outcome = await market.safe.POST('/item/buyorder', { body: { itemid: item.id, value: 100, amount: 1 } });
    expect(outcome.ok && outcome.value).toEqual({ details: 'Inserted' });
  });

  it('unwraps envelope B (data) as well as envelope A (content)', async () => {
    await server.user({ admin: true, name: 'Ada Admin' });
    const market = createMarketplaceClient({ baseUrl: server.baseUrl });
    const staff = await market.GET('/infos/admin');
    expect(staff.map((s) => s.name)).toContain('Ada Admin');
  });

  it('refuses a Connected call without an API key with a forbidden MarketplaceError', async () => {
    const market = createMarketplaceClient({ baseUrl: server.baseUrl });
    const outcome = await market.safe.GET('/user/getBuyorder');
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect([outcome.error.status, outcome.error.kind, outcome.error.message]).toEqual([403, 'forbidden', 'forbidden']);
  });

  it('logs in again when the server refuses the token (its session logged out), and resends the call once', async () => {
    const { apiKey } = await server.user();
    const { seen, fetch } = recording();
    const market = createMarketplaceClient({ baseUrl: server.baseUrl, apiKey, fetch });
    await market.GET('/user/disconnect');
    const after = await market.GET('/user/getBuyorder');
    expect(after.count.nb).toBe(0);
    expect(market.session?.logins).toBe(2);
    expect(seen.slice(-3)).toEqual(['GET /user/getBuyorder 403', 'POST /user/login 200', 'GET /user/getBuyorder 200']);
  });

  it('logs in again before sending when its clock says the token expired, without a refused round trip', async () => {
    const { apiKey } = await server.user();
    const { seen, fetch } = recording();
    let clock = Date.now() / 1000;
    const market = createMarketplaceClient({ baseUrl: server.baseUrl, apiKey, fetch, now: () => clock });
    await market.GET('/user/getBuyorder');
    clock += 31 * 24 * 3600; // the seed's JWT lives about 31 days
    await market.GET('/user/getBuyorder');
    expect(seen.filter((s) => s.includes('403'))).toEqual([]);
    expect(seen.filter((s) => s.startsWith('POST /user/login'))).toHaveLength(2);
  });

  it('retries a rate-limited call after Retry-After, within its budget, and gives up beyond it', async () => {
    const { apiKey } = await server.user();
    const waits: number[] = [];
    // Waiting advances the server's test clock by the time asked for.
    const sleep = async (ms: number) => {
      waits.push(ms);
      await server.clock({ advance: Math.ceil(ms / 1000) });
    };
    const patient = createMarketplaceClient({ baseUrl: server.baseUrl, apiKey, sleep, retry: { maxWaitSeconds: 600 } });
    await patient.GET('/item/prices', { params: { query: { game: 440 } } });
    const second = await patient.GET('/item/prices', { params: { query: { game: 440 } } });
    expect(Array.isArray(second)).toBe(true);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(300_000);

    const hasty = createMarketplaceClient({ baseUrl: server.baseUrl, apiKey, sleep, retry: { maxWaitSeconds: 5 } });
    const refused = await hasty.safe.GET('/item/prices', { params: { query: { game: 440 } } });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error).toBeInstanceOf(MarketplaceError);
    expect([refused.error.status, refused.error.kind]).toEqual([429, 'rate_limited']);
    expect(refused.error.message).toMatch(/^Rate limit exceeded\. Retry after \d+ seconds\.$/);
    expect(refused.error.retryAfter).toBe(Number(refused.error.message.match(/\d+/)?.[0]));
    expect(waits).toHaveLength(1);
  });

  it('reports a target that does not answer as a network MarketplaceError', async () => {
    const market = createMarketplaceClient({ baseUrl: 'http://127.0.0.1:9' });
    const outcome = await market.safe.GET('/infos/admin');
    expect(!outcome.ok && [outcome.error.status, outcome.error.kind, outcome.error.operation]).toEqual([
      0,
      'network',
      'getInfosAdmin',
    ]);
    expect(!outcome.ok && outcome.error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:9\/infos\/admin did not answer: /);
  });

  it('reports a call its caller aborts as an aborted MarketplaceError, not a network one', async () => {
    const market = createMarketplaceClient({ baseUrl: server.baseUrl });
    const outcome = await market.safe.GET('/item/listing/{item}', {
      params: { path: { item: 1 } },
      signal: AbortSignal.abort(),
    });
    expect(!outcome.ok && [outcome.error.status, outcome.error.kind]).toEqual([0, 'aborted']);
    expect(!outcome.ok && outcome.error.message).toMatch(/^GET http:\S+\/item\/listing\/1 was aborted: /);
  });
});
