// The public sales feed (seed: GET /public/sales, "Limits" - `limit` default 100, max 1000): the
// latest recorded sales, newest first, with seller and buyer anonymized as the document designs
// it (the first 8 hex characters of SHA-256 of the platform ID: stable per user, not reversible).
import { createHash } from 'node:crypto';
import type { components } from '@marketplace/types';
import { MARKET_GAMES } from './price-lists.ts';
import type { Item, Sale } from './state.ts';
import type { Tx } from './tx.ts';

type PublicSale = components['schemas']['PublicSale'];

/** The anonymous token of a platform ID in the public feed. */
export const anonymize = (platformId: string): string =>
  createHash('sha256').update(platformId).digest('hex').slice(0, 8);

export interface SalesQuery {
  game?: number;
  limit: number;
  /** Unix time; only sales strictly after it. */
  since?: number;
  now: number;
}

/** The feed `{sales, count, lastUpdate}`; `lastUpdate` is when it was produced (`now`). */
export function publicSales(tx: Tx, q: SalesQuery): { sales: PublicSale[]; count: number; lastUpdate: number } {
  // Every sale latest first, from `now` back to `since`, until the page is full.
  const chosen: { s: Readonly<Sale>; item: Readonly<Item> | undefined }[] = [];
  for (const s of tx.ordered('salesByTime', '', { timestamp: q.now, id: Number.MAX_SAFE_INTEGER })) {
    if (chosen.length >= q.limit || (q.since !== undefined && s.timestamp <= q.since)) break;
    const item = tx.get('items', s.item_id);
    if (item && MARKET_GAMES.includes(item.game) && (q.game === undefined || item.game === q.game))
      chosen.push({ s, item });
  }
  const sales: PublicSale[] = chosen.map(({ s, item }) => ({
    itemId: s.item_id,
    itemName: item!.name,
    game: item!.game as PublicSale['game'],
    price: s.price,
    timestamp: s.timestamp,
    seller: anonymize(s.seller),
    buyer: anonymize(s.buyer),
  }));
  return { sales, count: sales.length, lastUpdate: q.now };
}
