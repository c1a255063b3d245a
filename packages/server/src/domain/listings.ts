// The listings of an item (seed: "Endpoints > Items" GET /item/listing/{item} and its count,
// "Resources and their fields > Listing / backpack entry"): assets in state 1, cheapest first.
// The seller's ID and IP are shown to administrators only.
import type { components } from '@marketplace/types';
import { cheapestListing, isListed } from './indexes.ts';
import type { Asset } from './state.ts';
import type { Tx } from './tx.ts';

export type Listing = components['schemas']['Listing'];

/** An asset as a listing; `user` and `ip` only for an administrator (seed: Listing). */
export function toListing(a: Asset, admin: boolean): Listing {
  return {
    id: a.id,
    assetId: a.assetId,
    item_id: a.item_id,
    ...(admin ? { user: a.user, ip: a.ip } : {}),
    state: a.state,
    price: a.price,
    bot: a.bot,
    game: a.game as Listing['game'],
    wear: a.wear,
    sheen: a.sheen,
    killstreaker: a.killstreaker,
    spell: a.spell,
    parts: a.parts,
    paint: a.paint,
    html: a.html,
    values: a.values as Listing['values'],
    getImage: a.getImage,
  };
}

/**
 * The active listings of an item, optionally of one seller, by price ascending. Equal prices
 * keep the order the entries were created in (ID ascending), which the seed leaves open.
 */
export function activeListings(tx: Tx, itemId: number, seller?: string): Readonly<Asset>[] {
  if (seller === undefined) return [...tx.ordered('listingsByItem', String(itemId))];
  return sellerListings(tx, itemId, seller);
}

/** One seller's listings of an item, read from the seller's own assets (their cost, not the item's). */
const sellerListings = (tx: Tx, itemId: number, seller: string): Readonly<Asset>[] =>
  tx
    .find('assetsByOwner', seller)
    .filter((a) => a.item_id === itemId && isListed(a))
    .sort(cheapestListing);

export interface PageQuery {
  itemId: number;
  seller?: string;
  /** 0-indexed page; the offset is page x count (seed: GET /item/listing/{item}). */
  page: number;
  count: number;
  admin: boolean;
}

/** One page of an item's listings. */
export function listingPage(tx: Tx, q: PageQuery): Listing[] {
  const offset = q.page * q.count;
  const page: Listing[] = [];
  if (q.seller !== undefined)
    return sellerListings(tx, q.itemId, q.seller)
      .slice(offset, offset + q.count)
      .map((a) => toListing(a, q.admin));
  // Walks the item's listings in order up to the end of the page (an offset costs what it skips).
  let i = 0;
  for (const a of tx.ordered('listingsByItem', String(q.itemId))) {
    if (i >= offset + q.count) break;
    if (i >= offset) page.push(toListing(a, q.admin));
    i += 1;
  }
  return page;
}

/** How many active listings an item has, optionally of one seller (seed: GET /item/listing/count). */
export const listingCount = (tx: Tx, itemId: number, seller?: string): number =>
  seller === undefined ? tx.count('listingsByItem', String(itemId)) : sellerListings(tx, itemId, seller).length;
