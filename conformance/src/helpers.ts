// The test helpers of shared/test-helpers.md, typed by the test-helpers document: state set-up,
// the clock, the outbox, the platform's inventory and offers, payments and GeoIP. Only used when the target exposes them.
import type { TestHelperComponents } from '@marketplace/types';
import { call } from './http.ts';
import { settings } from './settings.ts';
import type { Target } from './target.ts';

type Schemas = TestHelperComponents['schemas'];

async function helper<T>(method: 'GET' | 'POST', path: string, json?: unknown): Promise<T> {
  const a = await call(method, `/test_helpers${path}`, json === undefined ? {} : { json });
  if (a.status !== 200) throw new Error(`test helper ${path} answered ${a.status}: ${JSON.stringify(a.body)}`);
  return (a.body as { content: T }).content;
}

export const helpers = {
  reset: () => helper('POST', '/reset'),
  user: (body: Partial<Schemas['UserRequest']> = {}) =>
    helper<{ platformId: string; apiKey: string }>('POST', '/users', body),
  item: (body: Schemas['ItemRequest']) =>
    helper<{ id: number; name: string; game: number; url: string }>('POST', '/items', body),
  asset: (body: Partial<Schemas['AssetRequest']> & Pick<Schemas['AssetRequest'], 'owner' | 'itemId'>) =>
    helper<{ id: number; assetId: string; price: number | null }>('POST', '/assets', body),
  buyOrder: (body: Schemas['BuyOrderRequest']) => helper<{ id: number }>('POST', '/buyorders', body),
  advance: (seconds: number) => helper<{ now: number }>('POST', '/clock', { advance: seconds }),
  setClock: (unix: number) => helper<{ now: number }>('POST', '/clock', { set: unix }),
  now: async () => (await helper<{ now: number }>('GET', '/clock')).now,
  /**
   * Sets the clock to the start of the next whole second and returns it. The clock keeps running,
   * but a test that compares a server timestamp with this value has a full second before the
   * server's `now` moves on, where a second reading of `now` could fall on either side of a tick.
   */
  pinClock: async () => {
    const at = (await helper<{ now: number }>('GET', '/clock')).now + 1;
    return (await helper<{ now: number }>('POST', '/clock', { set: at })).now;
  },
  geoip: (ip: string, country: string) => helper('POST', '/geoip', { ip, country }),
  /** What the outside world was sent, oldest first (e-mails with their `data.code`, notices). */
  outbox: async (channel: Schemas['OutboxMessage']['channel'], to?: string) => {
    const query = new URLSearchParams(to === undefined ? { channel } : { channel, to });
    return (await helper<{ messages: Schemas['OutboxMessage'][] }>('GET', `/outbox?${query}`)).messages;
  },
  /** Sets what a user holds on the external platform (what GET /deposit/{game} offers). */
  platformInventory: (body: Schemas['PlatformInventoryRequest']) =>
    helper<{ count: number }>('POST', '/platform/inventory', body),
  /** The trade offers the service's bots sent, oldest first. */
  offers: async (platformId?: string) => {
    const query = platformId === undefined ? '' : `?${new URLSearchParams({ platformId })}`;
    return (await helper<{ offers: Schemas['PlatformOffer'][] }>('GET', `/platform/offers${query}`)).offers;
  },
  /** The user accepts, declines or fails a trade offer on the platform. */
  settleOffer: (tradeId: string, outcome: Schemas['OfferOutcomeRequest']['outcome']) =>
    helper<Record<string, unknown>>('POST', `/platform/offers/${encodeURIComponent(tradeId)}`, { outcome }),
  /** The payment provider reports on a cashout. */
  payment: (cashoutId: number, outcome: Schemas['PaymentOutcomeRequest']['outcome']) =>
    helper<Record<string, unknown>>('POST', `/payments/${cashoutId}`, { outcome }),
};

/** A fresh user logged in from `ip`: its platform ID, API key and JWT. */
export async function session(opts: Partial<Schemas['UserRequest']> = {}, ip = '198.51.100.10') {
  const user = await helpers.user(opts);
  const login = await call('POST', '/user/login', { json: { apiKey: user.apiKey }, ip });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  return { ...user, ip, token: (login.body as { content: { jwt: string } }).content.jwt };
}

async function login(apiKey: string | undefined, ip: string): Promise<string | undefined> {
  if (!apiKey) return undefined;
  const answer = await call('POST', '/user/login', { json: { apiKey }, ip });
  return (answer.body as { content?: { jwt?: string } })?.content?.jwt;
}

/**
 * Tokens for a user and an admin: fresh accounts where the target has test helpers, the login
 * example's JWT on a mock (it accepts any JWT it can read), else logins with --api-key /
 * --admin-api-key (when given).
 * A JWT is bound to the login IP: call with the same `ip`.
 */
export async function callerTokens(t: Target, ip: string): Promise<{ user?: string; admin?: string }> {
  if (t.helpers && !t.readOnly)
    return {
      user: (await session({ balance: 1_000_000 }, ip)).token,
      admin: (await session({ admin: true, balance: 1_000_000 }, ip)).token,
    };
  if (t.prism) {
    const token = await login(settings.apiKey ?? 'any key: a mock answers its example', ip);
    return { user: token, admin: token };
  }
  return { user: await login(settings.apiKey, ip), admin: await login(settings.adminApiKey, ip) };
}

/**
 * Why a test cannot call an operation without credentials, true for the run at hand: a read-only
 * run creates no accounts even where the target has test helpers; otherwise the target has none.
 */
export const noCredentials = (admin: boolean) => {
  const key = admin ? '--admin-api-key' : '--api-key';
  const route = admin ? 'an admin' : 'a Connected';
  return settings.readOnly
    ? `--read-only: no credentials for ${route} route (give ${key}; a read-only run creates no accounts)`
    : `no credentials for ${route} route: the target has no test helpers to create an account (give ${key})`;
};
