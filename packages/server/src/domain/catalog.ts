// The item catalogue and the assets (listing / backpack entries) users hold on the service.
import type { Asset, Item } from './state.ts';
import type { Tx } from './tx.ts';

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
