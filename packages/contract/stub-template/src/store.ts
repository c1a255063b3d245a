// What the API keeps, as an interface: start with the in-memory store (memory-store.ts) and put a
// database behind the same interface when you need one. Money is in whole cents.
import type { Schema } from '@marketplace/types';

export interface User {
  platformId: string;
  apiKey: string;
  /** Whole cents. */
  balance: number;
  admin: boolean;
  country: string;
  email?: string;
  name?: string;
  tradeUrl?: string;
  twoFactor: boolean;
  paymentMethods: ('provider_a' | 'provider_b')[];
  verified: boolean;
}

export type Item = Schema<'Item'>;

/** An asset held by the service (a listing when `state` is 1). */
export interface Asset {
  id: number;
  assetId: string;
  owner: string;
  itemId: number;
  /** 0 in inventory, 1 on sale, 2 pending withdrawal, 3 in active trade, negative reserved. */
  state: number;
  price: number | null;
  game: number;
  attributes: Record<string, unknown>;
}

export interface Session {
  token: string;
  platformId: string;
  ip: string;
  /** Unix seconds. */
  expires: number;
}

export interface Store {
  /** Forgets everything (test helpers: reset). */
  clear(): void;
  addUser(user: User): User;
  userByPlatformId(platformId: string): User | undefined;
  userByApiKey(apiKey: string): User | undefined;
  addItem(item: Item): Item;
  item(id: number): Item | undefined;
  /** The next free item id. */
  nextItemId(): number;
  addAsset(asset: Omit<Asset, 'id'>): Asset;
  assets(filter?: (asset: Asset) => boolean): Asset[];
  addSession(session: Session): void;
  session(token: string): Session | undefined;
}
