// Accounts and their API keys. Keys are stored only as SHA-256 hashes (issue: "API keys stored
// only as hashes"); the clear key is shown once, when it is created. Also what anyone may read
// about accounts (seed: "Endpoints > Items"): a store's card by its short URL and the staff list.
import { createHash } from 'node:crypto';
import type { components } from '@marketplace/types';
import { move } from './ledger.ts';
import { ITEMS } from './messages.ts';
import type { PayoutMethod } from './money.ts';
import { accountDefaults, type User } from './state.ts';
import { fail, ok, type Tx } from './tx.ts';

// The settings' names live with the User record they shape; callers know them as account terms.
export { NOTIFICATION_KINDS, type NotificationKind, PRIVACY_SETTINGS, type PrivacySetting } from './state.ts';

/** SHA-256 hex of an API key: how keys are stored and looked up. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The options of POST /test_helpers/users (shared/test-helpers.md), all optional. */
export interface NewUser {
  platformId?: string;
  balance?: number;
  admin?: boolean;
  country?: string;
  email?: string;
  name?: string;
  tradeUrl?: string;
  twoFactor?: boolean;
  verified?: boolean;
  paymentMethods?: PayoutMethod[];
}

/** A fresh 17-digit platform ID in the platform's 64-bit range (7656119...), from injected randomness. */
export function newPlatformId(randomDigits: (n: number) => string): string {
  return `7656119${randomDigits(10)}`;
}

/** Creates a user with an API key; `apiKey` is the clear key to hand out once. */
export function createUser(tx: Tx, input: NewUser, apiKey: string, platformId: string, now: number): User {
  const user: User = {
    ...accountDefaults(),
    platformId,
    name: input.name ?? `User ${platformId.slice(-4)}`,
    image: `https://avatars.example.com/${platformId}.jpg`,
    email: input.email ?? '',
    balance: 0,
    reserved: 0,
    admin: input.admin ?? false,
    country: input.country ?? 'US',
    verified: input.verified ?? true,
    twoFactorEnabled: input.twoFactor ?? false,
    paymentMethods: [...new Set(input.paymentMethods ?? [])],
    tradeurl: input.tradeUrl ?? '',
    walletmail: '',
    shorturl: '',
    since: now,
    lastactivity: now,
    banUntil: null,
  };
  tx.put('users', platformId, user);
  const hash = hashApiKey(apiKey);
  tx.put('apiKeys', hash, { hash, user: platformId });
  // An opening balance enters through the ledger like any other money, so every cent is traced.
  const opening = input.balance ?? 0;
  if (opening > 0)
    move(tx, { user: platformId, amount: opening, type: 'bonus', description: 'Opening balance', relatedId: 0, now });
  return tx.get('users', platformId) as User;
}

/** Whether a user is banned at `now` (seed: POST /admin/ban; a banned user can neither log in nor act). */
export const isBanned = (user: Pick<User, 'banUntil'>, now: number): boolean =>
  user.banUntil !== null && user.banUntil > now;

type StoreInfo = components['schemas']['StoreInfo'];
type StaffEntry = components['schemas']['StaffEntry'];

/**
 * The store whose short URL is `identifier`, compared without case: a short URL is typed into an
 * address bar, where `Alice-Store` and `alice-store` are the same store.
 */
export function storeInfo(tx: Tx, identifier: string) {
  const wanted = identifier.toLowerCase();
  const user = wanted === '' ? undefined : tx.findOne('usersByShortUrl', wanted);
  if (!user) return fail(ITEMS.storeNotFound);
  return ok<StoreInfo>({ platformId: user.platformId, image: user.image, name: user.name });
}

/** The role every administrator has in the staff list (the seed lists no role values). */
export const ADMIN_ROLE = 'admin';

/** The administrators, by name then platform ID. */
export function staffList(tx: Tx): StaffEntry[] {
  return tx
    .find('admins', 'admin')
    .sort((a, b) => a.name.localeCompare(b.name) || a.platformId.localeCompare(b.platformId))
    .map((u) => ({ name: u.name, platformId: u.platformId, role: ADMIN_ROLE }));
}
