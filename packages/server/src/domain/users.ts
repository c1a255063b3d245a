// Accounts and their API keys. Keys are stored only as SHA-256 hashes (issue: "API keys stored
// only as hashes"); the clear key is shown once, when it is created.
import { createHash } from 'node:crypto';
import type { User } from './state.ts';
import type { Tx } from './tx.ts';

/** SHA-256 hex of an API key: how keys are stored and looked up. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

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
}

/** A fresh 17-digit platform ID in the platform's 64-bit range (7656119...). */
export function newPlatformId(randomDigits: (n: number) => string): string {
  return `7656119${randomDigits(10)}`;
}

/** Creates a user with an API key; `apiKey` is the clear key to hand out once. */
export function createUser(tx: Tx, input: NewUser, apiKey: string, platformId: string, now: number): User {
  const user: User = {
    platformId,
    name: input.name ?? `User ${platformId.slice(-4)}`,
    image: `https://avatars.example.com/${platformId}.jpg`,
    email: input.email ?? '',
    balance: input.balance ?? 0,
    reserved: 0,
    admin: input.admin ?? false,
    country: input.country ?? 'US',
    verified: input.verified ?? true,
    twoFactor: input.twoFactor ?? false,
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
  return user;
}

/** Whether a user is banned at `now` (seed: POST /admin/ban; a banned user can neither log in nor act). */
export const isBanned = (user: Pick<User, 'banUntil'>, now: number): boolean =>
  user.banUntil !== null && user.banUntil > now;
