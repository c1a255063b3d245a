// Details of one backpack entry (seed: "Resources and their fields > Listing / backpack entry",
// GET /item/details/fromid/{backpackid} and /item/cs/details/fromid/{backpackid}): the listing
// fields joined with the item's `name, effect, quality, type, craftable, image, rarity, url, color`
// and `lastupdate`. `craftable` is kept for game 440 only and is '' elsewhere, and trailing spaces
// and semicolons are removed from every string field, as the seed says.
import type { components } from '@marketplace/types';
import { joinedCraftable } from './catalog.ts';
import { toListing } from './listings.ts';
import { ITEMS } from './messages.ts';
import type { Asset } from './state.ts';
import { fail, ok, type Tx } from './tx.ts';

// The generated type of `craftable` is `never` (the document pairs `type: [integer, string]` with
// a `oneOf`, which openapi-typescript intersects), so it is restated here.
export type BackpackDetails = Omit<components['schemas']['BackpackDetails'], 'craftable'> & { craftable: 0 | 1 | '' };

/** A string without its trailing spaces and semicolons (`'Strange; '` becomes `'Strange'`). */
export const stripTrailing = (s: string): string => s.replace(/[ ;]+$/, '');

/** A copy of `record` whose top-level string fields are stripped with `stripTrailing`. */
export function stripStrings<T extends object>(record: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record))
    out[key] = typeof value === 'string' ? stripTrailing(value) : value;
  return out as T;
}

/**
 * The details of the entry whose asset ID is `assetId`, of any game: both routes answer every
 * game, since the seed's `craftable` rule ("empty for every other game than 440") applies to both.
 */
export function backpackDetails(tx: Tx, assetId: string, admin: boolean) {
  // The oldest record of the ID, as before indexes (an ID can come back after a new deposit).
  const asset = tx
    .find('assetsByAssetId', assetId)
    .reduce<Asset | undefined>((first, a) => (!first || a.id < first.id ? a : first), undefined);
  const item = asset && tx.get('items', asset.item_id);
  if (!asset || !item) return fail(ITEMS.itemNotFound);
  return ok(
    stripStrings<BackpackDetails>({
      ...toListing(asset, admin),
      name: item.name,
      effect: item.effect,
      quality: item.quality,
      type: item.type,
      craftable: joinedCraftable(item.game, item),
      image: item.image,
      rarity: item.rarity,
      url: item.url,
      color: item.color,
      lastupdate: asset.lastupdate,
    }),
  );
}
