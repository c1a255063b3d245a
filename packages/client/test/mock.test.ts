// The client against the mock of the document (packages/mock): what a frontend team gets before a
// backend exists. The documented examples come back typed, every documented error is reachable
// with `Prefer: code=..., example=...` and arrives as a MarketplaceError, and refusals are the 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMock } from '../../mock/src/mock.ts';
import { createMarketplaceClient } from '../src/index.ts';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock();
}, 60_000);
afterAll(() => mock?.stop());

describe('the client against the mock', () => {
  it('logs in with the example JWT and answers the example payload', async () => {
    const market = createMarketplaceClient({ baseUrl: mock.url, apiKey: 'any key: the mock accepts it' });
    const placed = await market.POST('/item/buyorder', { body: { itemid: 5021, value: 190, amount: 1 } });
    expect(placed).toEqual({ details: 'Inserted' });
    expect(market.session?.logins).toBe(1);
    expect(market.session?.current?.split('.')).toHaveLength(3);
  });

  it('turns a documented 300 example into a business MarketplaceError', async () => {
    const market = createMarketplaceClient({ baseUrl: mock.url, apiKey: 'k' });
    const outcome = await market.safe.POST('/item/buyorder', {
      body: { itemid: 5021, value: 190, amount: 1 },
      headers: { Prefer: 'code=300, example=notEnoughBalance' },
    });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect([outcome.error.status, outcome.error.kind, outcome.error.operation]).toEqual([
      300,
      'business',
      'postItemBuyorder',
    ]);
    expect(outcome.error.is('Not enough balance')).toBe(true);
  });

  it('unwraps envelope B examples and reports refusals as the documented 403 forbidden', async () => {
    const market = createMarketplaceClient({ baseUrl: mock.url });
    const staff = await market.GET('/infos/admin');
    expect(staff.length).toBeGreaterThan(0);
    expect(typeof staff[0]?.name).toBe('string');
    const anonymous = await market.safe.GET('/user/getBuyorder');
    expect(!anonymous.ok && [anonymous.error.status, anonymous.error.kind, anonymous.error.message]).toEqual([
      403,
      'forbidden',
      'forbidden',
    ]);
    const signedIn = createMarketplaceClient({ baseUrl: mock.url, apiKey: 'k' });
    const refused = await signedIn.safe.GET('/user/getBuyorder', { headers: { Prefer: 'code=403' } });
    expect(!refused.ok && [refused.error.status, refused.error.kind, refused.error.message]).toEqual([
      403,
      'forbidden',
      'forbidden',
    ]);
  });
});
