// The test helpers of shared/test-helpers.md, typed by the test-helpers document: state set-up,
// the clock, the outbox, the platform's inventory and offers, payments and GeoIP. Only used when the target exposes them.
import type { TestHelperComponents } from '@marketplace/types';
import type { TestContext } from 'vitest';
import { isConnected, type Operation } from '../oracle/document.ts';
import { checkHelperAnswer, HELPER_ANSWER } from './helper-answers.ts';
import { type Answer, assertThat, call, setUpOk } from './http.ts';
import { inScope, NotImplemented, outOfScopeReason, SetUpFailed } from './not-implemented.ts';
import { settings } from './settings.ts';
import { skip, surface } from './skip.ts';
import type { Target } from './target.ts';

type Schemas = TestHelperComponents['schemas'];

/**
 * Calls a test helper: a 404 skips the test (the target lacks it), another refusal or an answer
 * off the test-helpers document fails its set-up, saying what differed.
 */
async function helper<T>(method: 'GET' | 'POST', path: string, json?: unknown): Promise<T> {
  return (await helperExchange<T>(method, path, json)).content;
}

/** A test helper's exchange and its content, checked as `helper` does: for a check of what it answered. */
async function helperExchange<T>(method: 'GET' | 'POST', path: string, json?: unknown) {
  const a = await call(method, `/test_helpers${path}`, json === undefined ? {} : { json });
  const content = (a.body as { content?: T } | null)?.content;
  setUpOk(a, a.status === 200 && content !== undefined);
  const off = checkHelperAnswer(a, settings.target);
  setUpOk(a, off.length === 0, off.join('; '), HELPER_ANSWER);
  return { answer: a, content: content as T };
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
  /** An unread alert or payment review for a user (our extension: no public route makes one on demand). */
  notification: (body: Schemas['NotificationRequest']) =>
    helper<{ id: number; platformId: string; kind: string }>('POST', '/notifications', body),
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

/**
 * A rate window ending at `end` (Unix seconds) from every side on the test clock: one second before
 * it `send` is still limited (429), at it and one second after it is served (200). A limited
 * attempt opens no window, and one served attempt leaves the new window far from full.
 */
export async function assertWindowEnds(end: number, send: () => Promise<Answer>, what: string): Promise<void> {
  for (const [side, delta, want] of [
    ['one second before', -1, 429],
    ['at', 0, 200],
    ['one second after', 1, 200],
  ] as const) {
    await helpers.setClock(end + delta);
    const answer = await send();
    assertThat(answer, answer.status === want, `${side} ${what} (${end}) expected ${want}`);
  }
}

/**
 * The trade offer the bots sent `platformId` after `trade`, the exchange that asked for it: a
 * refused trade or no offer fails the test's set-up, pinned on that exchange (not a crash on a
 * missing offer).
 */
export async function sentOffer(trade: Answer, platformId: string): Promise<Schemas['PlatformOffer']> {
  setUpOk(trade);
  const offer = (await helpers.offers(platformId)).at(-1);
  setUpOk(trade, offer !== undefined, 'the trade sends the user a trade offer');
  return offer as Schemas['PlatformOffer'];
}

/**
 * An item with an image of its own (from its name unless given), returned with it: an image field
 * that an answer reads from another record (the seller's, a default, another item) differs.
 */
export async function imagedItem(body: Schemas['ItemRequest']) {
  const image = body.image ?? `https://images.example.com/${body.name.replace(/[^A-Za-z0-9]+/g, '-')}.png`;
  return { ...(await helpers.item({ ...body, image })), image };
}

/**
 * An item stored with every field given, as the item the helper answers: shared/test-helpers.md
 * promises that the items helper takes "any Item fields" and answers "the stored Item". A helper
 * that drops or changes a field fails the set-up here, naming the fields, where a later answer
 * would fail for a value the target was never given.
 */
export async function itemAsGiven<T extends Schemas['ItemRequest']>(body: T) {
  const { answer, content: stored } = await helperExchange<Record<string, unknown>>('POST', '/items', body);
  const changed = Object.entries(body).filter(([k, v]) => JSON.stringify(stored[k]) !== JSON.stringify(v));
  setUpOk(
    answer,
    changed.length === 0,
    `the items helper stores every Item field it is given (shared/test-helpers.md: "any Item fields", answering "the stored Item"); dropped or changed: ${changed.map(([k]) => `${k} (answered ${JSON.stringify(stored[k])})`).join(', ')}`,
  );
  return { ...body, ...(stored as { id: number; url: string }) };
}

/** A fresh user logged in from `ip`: its platform ID, API key and JWT. */
export async function session(opts: Partial<Schemas['UserRequest']> = {}, ip = '198.51.100.10') {
  const user = await helpers.user(opts);
  return { ...user, ip, token: await login(user.apiKey, ip) };
}

/** The JWT of a login with `apiKey` from `ip`; a refused login fails the set-up, pinned on it. */
export async function login(apiKey: string, ip: string): Promise<string> {
  const answer = await call('POST', '/user/login', { json: { apiKey }, ip, purpose: 'log in' });
  const jwt = (answer.body as { content?: { jwt?: unknown } } | null)?.content?.jwt;
  setUpOk(answer, answer.status === 200 && typeof jwt === 'string', 'a login with the API key the test set up');
  return jwt as string;
}

/**
 * Tokens for a user and an admin: fresh accounts where the target has test helpers, the login
 * example's JWT on a mock (it accepts any JWT it can read), else logins with --api-key /
 * --admin-api-key (when given).
 * A JWT is bound to the login IP: call with the same `ip`.
 */
export async function callerTokens(t: Target, ip: string): Promise<CallerTokens> {
  const tokens: CallerTokens = {};
  const keep = async (role: 'user' | 'admin', get: () => Promise<string>) => {
    try {
      tokens[role] = await get();
    } catch (e) {
      if (!(e instanceof NotImplemented || e instanceof SetUpFailed)) throw e;
      tokens.problem ??= e;
    }
  };
  if (t.helpers && !t.readOnly) {
    await keep('user', async () => (await session({ balance: 1_000_000 }, ip)).token);
    await keep('admin', async () => (await session({ admin: true, balance: 1_000_000 }, ip)).token);
  } else if (t.prism) {
    await keep('user', () => login(settings.apiKey ?? 'any key: a mock answers its example', ip));
    if (tokens.user) tokens.admin = tokens.user;
  } else {
    const { apiKey, adminApiKey } = settings;
    if (apiKey) await keep('user', () => login(apiKey, ip));
    if (adminApiKey) await keep('admin', () => login(adminApiKey, ip));
  }
  return tokens;
}

export interface CallerTokens {
  user?: string;
  admin?: string;
  /** Why a token is missing: the set-up met a missing operation or a refusal (surfaced by `tokenFor`). */
  problem?: NotImplemented | SetUpFailed;
}

/**
 * The token a test calls `o` with: none for a route without session, else the user's or admin's;
 * when that token could not be had, the test ends as its set-up problem says, or skips for want of
 * credentials (fails under --require-all: noCredentialsFailure).
 */
export function tokenFor(ctx: TestContext, tokens: CallerTokens, o: Operation): string | undefined {
  const admin = o.permission === 'admin';
  const token = admin ? tokens.admin : tokens.user;
  if (token || !isConnected(o)) return token;
  // A test of an operation --operations leaves out is out of scope as a whole (ADR 0033): it skips
  // as such before its missing credentials or set-up could fail it under --require-all.
  if (!inScope(settings.operations, o.name))
    surface(ctx, new NotImplemented(o.name, outOfScopeReason(o.name, 'test this operation'), undefined, true));
  if (tokens.problem) surface(ctx, tokens.problem);
  const failure = noCredentialsFailure(admin, settings.requireAll);
  if (failure) throw new Error(failure);
  return skip(ctx, noCredentials(admin));
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

/**
 * The failure of a test left without credentials for its logged-in route, or undefined where it
 * skips. With --require-all (a release gate) it fails: the route would otherwise go untested and
 * the gate pass, whether the target lacks working test helpers or the run creates no accounts
 * (--read-only) and no API key was given.
 */
export const noCredentialsFailure = (admin: boolean, requireAll: boolean): string | undefined =>
  requireAll ? `${noCredentials(admin)}: --require-all makes a test without credentials a failure` : undefined;
