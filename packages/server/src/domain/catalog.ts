// The item catalogue and the assets (listing / backpack entries) users hold on the service.
import type { components } from '@marketplace/types';
import { ITEMS } from './messages.ts';
import type { Asset, Item } from './state.ts';
import { fail, ok, type Tx } from './tx.ts';

/** A URL slug from a display name (seed: Item `url`). */
export const slugify = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'item';

/** Stores an item; missing fields take empty defaults. */
export function putItem(tx: Tx, fields: Partial<Item> & Pick<Item, 'name' | 'game'>): Item {
  const id = fields.id ?? tx.nextId('items');
  tx.claimId('items', id);
  const item: Item = {
    id,
    effect: '',
    SKU: `${id};6`,
    quality: 'Unique',
    type: '',
    type_platform: null,
    class: null,
    image: `/images/items/${id}.png`,
    imagePertinence: 0,
    craftable: 1,
    rarity: '',
    featured: 0,
    deal: 0,
    t: null,
    color: '7D6D00',
    slot: '',
    hero: null,
    weapon: '',
    exterior: '',
    url: slugify(fields.name),
    description: null,
    shopdata: null,
    maxPrice: null,
    ...fields,
  };
  tx.put('items', id, item);
  return item;
}

export type NewAsset = Partial<Omit<Asset, 'id' | 'user' | 'item_id'>> & { owner: string; itemId: number };

/** Stores an asset owned by `owner`; the game defaults to the item's. */
export function putAsset(tx: Tx, input: NewAsset, now: number): Asset {
  const item = tx.get('items', input.itemId);
  if (!item) throw new Error(`unknown item ${input.itemId}`);
  const id = tx.nextId('assets');
  const { owner, itemId, ...attributes } = input;
  const asset: Asset = {
    id,
    assetId: String(10_000_000_000 + id),
    item_id: itemId,
    user: owner,
    ip: '127.0.0.1',
    state: 0,
    price: null,
    bot: String((id % 8) + 1),
    game: item.game,
    wear: null,
    sheen: '',
    killstreaker: '',
    spell: '',
    parts: null,
    paint: null,
    html: '',
    values: null,
    getImage: null,
    lastupdate: now,
    tradeHoldUntil: null,
    ...attributes,
  };
  tx.put('assets', id, asset);
  return asset;
}

/**
 * `craftable` where item fields are joined to an asset (seed: "Details by backpack ID"): 0 or 1
 * for game 440, an empty string for every other game.
 */
export const joinedCraftable = (game: number, item: Pick<Item, 'craftable'> | undefined): 0 | 1 | '' =>
  game === 440 ? (item?.craftable === 0 ? 0 : 1) : '';

/** An item as the API shows it (seed: Item); the internal price maximum stays inside. */
export function itemView(item: Item): components['schemas']['Item'] {
  const { maxPrice: _internal, ...shown } = item;
  return {
    ...shown,
    craftable: item.craftable === 0 ? 0 : 1,
    featured: item.featured === 1 ? 1 : 0,
    game: item.game as components['schemas']['Item']['game'],
  };
}

/**
 * The item whose numeric ID or URL slug is `ref` (seed: Conventions, "GET /item/details/{item} also
 * accepts the URL slug"). A numeric `ref` is tried as an ID first, then as a slug, so an item whose
 * slug happens to be digits stays reachable.
 */
export function findItem(tx: Tx, ref: string) {
  const byId = /^[0-9]{1,15}$/.test(ref) ? tx.get('items', Number(ref)) : undefined;
  const item = byId ?? tx.findOne('itemsByUrl', ref);
  return item ? ok(item) : fail(ITEMS.itemNotFound);
}
