// The cart (seed: "Cart", "Cart row", "States and transitions") and the document's checkout
// extension (POST /cart/checkout). A row holds assets of one item at one price, the price stored
// when they were added. Assets are named by their platform asset ID (`Asset.assetId`), so a row
// can still name an asset that has left the service (`not_found`). Checkout sells through the sale
// primitive (sale.ts), so its money rules are the ones of every other sale.
import type { Schema } from '@marketplace/types';
import { joinedCraftable } from './catalog.ts';
import { activeListings } from './listings.ts';
import { isListed } from './market.ts';
import { CART, SALE } from './messages.ts';
import type { CartRow } from './records.ts';
import { sell } from './sale.ts';
import type { Asset } from './state.ts';
import { fail, ok, type Tx } from './tx.ts';

export type CartRowView = Schema<'CartRow'>;
type InvalidItem = Schema<'CartInvalidItem'>;
type Replacement = Schema<'CartReplacement'>;
type Removal = Schema<'CartRemoval'>;
export type Reason = 'not_found' | 'unavailable' | 'price_changed' | 'own_item';

const rowsOf = (tx: Tx, user: string): Readonly<CartRow>[] =>
  tx.find('cartByUser', user).sort((a, b) => a.cartId - b.cartId);

/**
 * The asset on the service with this platform asset ID: its listed record when there is one (an ID
 * can come back after a withdrawal and a new deposit, so several records may share it), else the oldest.
 */
function assetById(tx: Tx, assetId: string): Readonly<Asset> | undefined {
  const records = tx.find('assetsByAssetId', assetId).sort((a, b) => a.id - b.id);
  return records.findLast((a) => a.state === 1) ?? records[0];
}

/** The asset attributes a cart row may carry (seed: Cart row, "May also carry"). */
const ROW_ATTRIBUTES = ['sheen', 'killstreaker', 'spell', 'parts', 'paint'] as const;

/**
 * The attributes every asset of the row shares: a row groups assets of one item at one price, and
 * the seed does not say which asset's attribute a row of differing assets shows, so it shows none.
 */
function sharedAttributes(tx: Tx, row: Readonly<CartRow>): Partial<CartRowView> {
  const assets = row.assetIds.map((id) => assetById(tx, id));
  const shared: Partial<Record<(typeof ROW_ATTRIBUTES)[number], string | null>> = {};
  for (const key of ROW_ATTRIBUTES) {
    const values = new Set(assets.map((a) => a?.[key]));
    const [value] = values;
    if (values.size === 1 && value !== undefined) shared[key] = value;
  }
  return shared as Partial<CartRowView>;
}

/** A row as the API shows it (seed: Cart row), with the item's data and its assets' shared attributes. */
function rowView(tx: Tx, row: Readonly<CartRow>): CartRowView {
  const item = tx.get('items', row.item_id);
  const game = (item?.game ?? 440) as CartRowView['game'];
  return {
    ...sharedAttributes(tx, row),
    cartId: row.cartId,
    assetId: row.assetIds.join(','),
    count: row.assetIds.length,
    item_id: row.item_id,
    price: row.price,
    name: item?.name ?? `item ${row.item_id}`,
    image: item?.image ?? '',
    effect: item?.effect ?? '',
    rarity: item?.rarity ?? '',
    quality: item?.quality ?? '',
    game,
    color: item?.color ?? '',
    url: item?.url ?? '',
    craftable: joinedCraftable(game, item),
    type_platform: item?.type_platform ?? null,
    class: item?.class ?? null,
    slot: item?.slot ?? '',
  };
}

/** GET /cart/get: the caller's rows, oldest first. */
export const cartOf = (tx: Tx, user: string): CartRowView[] => rowsOf(tx, user).map((r) => rowView(tx, r));

/** Puts assets of one item at one price into the caller's row of that item and price, or a new row. */
function place(tx: Tx, user: string, itemId: number, price: number, assetIds: string[], now: number): void {
  const row = rowsOf(tx, user).find((r) => r.item_id === itemId && r.price === price);
  if (row) {
    tx.put('cartRows', row.cartId, { ...row, assetIds: [...row.assetIds, ...assetIds] });
    return;
  }
  const cartId = tx.nextId('cartRows');
  tx.put('cartRows', cartId, { cartId, user, item_id: itemId, price, assetIds, timestamp: now });
}

const inCart = (tx: Tx, user: string): Set<string> => new Set(rowsOf(tx, user).flatMap((r) => r.assetIds));

/** POST /cart/add: a listed asset of another user, at its listing price. */
export function addToCart(tx: Tx, user: string, assetId: string, now: number) {
  const asset = assetById(tx, assetId);
  if (!asset || !isListed(asset) || asset.user === user) return fail(CART.notAvailable);
  if (inCart(tx, user).has(assetId)) return fail(CART.alreadyInCart);
  place(tx, user, asset.item_id, asset.price!, [assetId], now);
  return ok(cartOf(tx, user));
}

export interface BulkQuery {
  itemId: number;
  count: number;
  /** Only this seller's listings. */
  seller?: string;
  now: number;
}

/** Listings by price ascending, then last update, then ID (the order of POST /cart/bulk). */
const cheapestFirst = (a: Readonly<Asset>, b: Readonly<Asset>) =>
  a.price! - b.price! || a.lastupdate - b.lastupdate || a.id - b.id;

/**
 * POST /cart/bulk: the `count` cheapest listings of the item (then by last update) that are not the
 * caller's and not already in the cart, grouped one row per price. The item's listings are indexed
 * by price then ID, so this walks them up to the `count`-th candidate and the others at its price
 * (which may be older), then orders those few by last update.
 */
export function addBulk(tx: Tx, user: string, q: BulkQuery) {
  const held = inCart(tx, user);
  const listings =
    q.seller === undefined ? tx.ordered('listingsByItem', String(q.itemId)) : activeListings(tx, q.itemId, q.seller);
  const candidates: Readonly<Asset>[] = [];
  for (const a of listings) {
    if (candidates.length >= q.count && a.price! > candidates[q.count - 1]!.price!) break;
    if (a.user !== user && !held.has(a.assetId)) candidates.push(a);
  }
  const chosen = candidates.sort(cheapestFirst).slice(0, q.count);
  if (chosen.length === 0) return fail(CART.noItemsAvailable);
  const byPrice = new Map<number, string[]>();
  for (const a of chosen) byPrice.set(a.price!, [...(byPrice.get(a.price!) ?? []), a.assetId]);
  for (const [price, ids] of byPrice) place(tx, user, q.itemId, price, ids, q.now);
  return ok(cartOf(tx, user));
}

/** POST /cart/remove: one row of the caller's, with all its assets. */
export function removeRow(tx: Tx, user: string, cartId: number) {
  const row = tx.get('cartRows', cartId);
  if (!row || row.user !== user) return fail(CART.cartItemNotFound);
  tx.delete('cartRows', cartId);
  return ok(cartOf(tx, user));
}

/**
 * Why an asset of a row cannot be bought as stored, in the seed's order of checks (it exists, is
 * listed, has the stored price, is not the caller's); null when it can.
 */
export function invalidity(asset: Readonly<Asset> | undefined, row: Readonly<CartRow>, user: string): Reason | null {
  if (!asset) return 'not_found';
  if (!isListed(asset)) return 'unavailable';
  if (asset.price !== row.price) return 'price_changed';
  if (asset.user === user) return 'own_item';
  return null;
}

/** Step 1 of POST /cart/update (and the check before checkout): every invalid asset of the cart. */
export function checkIntegrity(tx: Tx, user: string): InvalidItem[] {
  const invalid: InvalidItem[] = [];
  for (const row of rowsOf(tx, user))
    for (const assetId of row.assetIds) {
      const asset = assetById(tx, assetId);
      const reason = invalidity(asset, row, user);
      if (reason === 'price_changed')
        invalid.push({ cartId: row.cartId, assetId, reason, currentPrice: asset!.price!, expectedPrice: row.price });
      else if (reason) invalid.push({ cartId: row.cartId, assetId, reason });
    }
  return invalid;
}

/** Seed, POST /cart/update: a plain asset has no spell, sheen, wear, killstreaker or parts. */
export const isPlain = (a: Readonly<Asset>): boolean =>
  !a.spell && !a.sheen && (a.wear === null || a.wear === undefined) && !a.killstreaker && !a.parts;

/**
 * The listing that can stand in for an invalid plain asset of a row: another plain listing of the
 * same item at the row's price, not the caller's and not in the cart, cheapest first (by last
 * update). Reads only the item's listings at that price.
 */
function spareListing(tx: Tx, row: Readonly<CartRow>, user: string, held: Set<string>): Readonly<Asset> | undefined {
  let best: Readonly<Asset> | undefined;
  for (const a of tx.ordered('listingsByItem', String(row.item_id), { price: row.price, id: 0 })) {
    if (a.price !== row.price) break;
    if (a.user !== user && isPlain(a) && !held.has(a.assetId) && (!best || cheapestFirst(a, best) < 0)) best = a;
  }
  return best;
}

export interface UpdateResult {
  integrity: { valid: boolean; invalidItems: InvalidItem[] };
  replaced: Replacement[];
  removed: Removal[];
  cart: CartRowView[];
}

/**
 * POST /cart/update: (1) checks every asset; (2) swaps an invalid plain asset for another plain
 * listing of the same item at the stored price (not the caller's, not already in the cart), else
 * removes it; an invalid asset that is not plain, or no longer exists, is removed; (3) deletes the
 * rows left without assets.
 */
export function updateCart(tx: Tx, user: string) {
  const invalidItems = checkIntegrity(tx, user);
  const held = inCart(tx, user);
  const replaced: Replacement[] = [];
  const removed: Removal[] = [];
  const rows = new Map(rowsOf(tx, user).map((r) => [r.cartId, { ...r, assetIds: [...r.assetIds] }]));
  for (const bad of invalidItems) {
    const row = rows.get(bad.cartId)!;
    const old = assetById(tx, bad.assetId);
    const spare = old && isPlain(old) ? spareListing(tx, row, user, held) : undefined;
    const at = row.assetIds.indexOf(bad.assetId);
    if (spare) {
      row.assetIds[at] = spare.assetId;
      held.add(spare.assetId);
      replaced.push({ cartId: row.cartId, oldAssetId: bad.assetId, newAssetId: spare.assetId, reason: bad.reason });
    } else {
      row.assetIds.splice(at, 1);
      removed.push({ cartId: row.cartId, assetId: bad.assetId, reason: bad.reason });
    }
  }
  for (const row of rows.values()) {
    if (row.assetIds.length === 0) tx.delete('cartRows', row.cartId);
    else tx.put('cartRows', row.cartId, row);
  }
  return ok({
    integrity: { valid: invalidItems.length === 0, invalidItems },
    replaced,
    removed,
    cart: cartOf(tx, user),
  });
}

export type CheckoutResult = Schema<'CheckoutResult'>;

/**
 * POST /cart/checkout (extension): buys every asset of the cart at its stored price out of the
 * balance, all or nothing. The cart must not be empty, must pass the integrity check, and its total
 * must be within the balance; each asset is sold through `sell` (the seller credited
 * floor(95 %), the fee collected, the asset moved to the caller) and the cart is emptied.
 */
export function checkout(tx: Tx, user: string, now: number) {
  const rows = rowsOf(tx, user);
  if (rows.length === 0) return fail(CART.cartEmpty);
  if (checkIntegrity(tx, user).length > 0) return fail(CART.integrityFailed);
  const total = rows.reduce((sum, r) => sum + r.price * r.assetIds.length, 0);
  if (tx.get('users', user)!.balance < total) return fail(SALE.notEnoughBalance);
  const purchased: CheckoutResult['purchased'] = [];
  for (const row of rows) {
    const name = tx.get('items', row.item_id)?.name ?? `item ${row.item_id}`;
    for (const assetId of row.assetIds) {
      const sale = sell(tx, { asset: assetById(tx, assetId)!, buyer: user, price: row.price, now });
      if (!sale.ok) return sale;
      purchased.push({ assetId, item_id: row.item_id, name, price: row.price });
    }
    tx.delete('cartRows', row.cartId);
  }
  const balance = tx.get('users', user)!.balance;
  return ok({ message: CART.checkoutComplete, purchased, total, balance, cart: [] });
}
