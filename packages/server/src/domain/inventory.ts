// The caller's assets held by the service (seed: "Inventory", "Inventory row"): the grouped rows of
// GET /inventory/onSale and /onInventory, and POST /inventory/price, which validates every asset
// before changing any and then lists or sells each one (matching.ts).
import type { components } from '@marketplace/types';
import { joinedCraftable } from './catalog.ts';
import { listOrSell } from './matching.ts';
import { INVENTORY } from './messages.ts';
import type { Asset } from './state.ts';
import { fail, ok, type Tx } from './tx.ts';

export type InventoryRow = components['schemas']['InventoryRow'];

/** Seed Limits: a game 730 item under a trade hold (7 days) cannot be listed. */
export const TRADE_HOLD_GAME = 730;

/** The asset IDs of an `ids` parameter (the document's pattern: 1 to 20 digits, comma-separated), once each. */
export function parseIds(ids: string): string[] | undefined {
  const parts = ids.split(',').map((s) => s.trim());
  if (parts.length === 0 || parts.some((p) => !/^[0-9]{1,20}$/.test(p))) return undefined;
  return [...new Set(parts)];
}

/** The user's assets, in one state when `state` is given, in no particular order. */
export const assetsOf = (tx: Tx, owner: string, state?: number): Readonly<Asset>[] => {
  const mine = tx.find('assetsByOwner', owner);
  return state === undefined ? mine : mine.filter((a) => a.state === state);
};

/**
 * The user's asset with this platform asset ID. An ID can name several records (an asset
 * withdrawn and deposited again); the latest (highest ID) of the user's wins.
 */
export const ownAsset = (
  tx: Tx,
  owner: string,
  assetId: string,
  where: (a: Readonly<Asset>) => boolean = () => true,
): Readonly<Asset> | undefined =>
  tx
    .find('assetsByAssetId', assetId)
    .filter((a) => a.user === owner && where(a))
    .reduce<Readonly<Asset> | undefined>((best, a) => (!best || a.id > best.id ? a : best), undefined);

/** Assets that are the same thing to a buyer: same item, price and attributes (one row). */
const rowKey = (a: Readonly<Asset>): string =>
  JSON.stringify([a.item_id, a.state, a.price, a.wear, a.sheen, a.killstreaker, a.spell, a.parts, a.paint]);

/** The caller's assets in `state` (0 inventory, 1 on sale), grouped into rows, oldest first. */
export function inventoryRows(tx: Tx, owner: string, state: 0 | 1): { items: InventoryRow[]; count: number } {
  const groups = new Map<string, Readonly<Asset>[]>();
  const mine = assetsOf(tx, owner, state)
    .filter((a) => state === 0 || a.price !== null)
    .sort((a, b) => a.id - b.id);
  for (const a of mine) {
    const key = rowKey(a);
    const group = groups.get(key);
    if (group) group.push(a);
    else groups.set(key, [a]);
  }
  const items: InventoryRow[] = [];
  for (const group of groups.values()) {
    const first = group[0]!;
    const item = tx.get('items', first.item_id);
    items.push({
      ids: group.map((a) => a.assetId).join(','),
      count: group.length,
      item_id: first.item_id,
      assetId: first.assetId,
      bot: first.bot,
      game: first.game as InventoryRow['game'],
      state,
      price: state === 1 ? first.price : null,
      name: item?.name ?? '',
      effect: item?.effect ?? '',
      url: item?.url ?? '',
      quality: item?.quality ?? '',
      image: item?.image ?? '',
      type: item?.type ?? '',
      craftable: joinedCraftable(first.game, item) as never,
    });
  }
  return { items, count: items.length };
}

export interface PriceCommand {
  owner: string;
  ids: string;
  price: number;
  now: number;
}

/**
 * Prices the caller's assets (seed: POST /inventory/price): every asset is checked first —
 * exists and owned, within its item's maximum, no trade hold, available — so a refusal changes
 * nothing; then each is sold into a matching buy order or listed.
 */
export function priceAssets(tx: Tx, c: PriceCommand) {
  const ids = parseIds(c.ids);
  if (!ids) return fail(INVENTORY.invalidIds);
  const assets: Readonly<Asset>[] = [];
  for (const id of ids) {
    const asset = ownAsset(tx, c.owner, id);
    if (!asset) return fail(INVENTORY.notOwned);
    const max = tx.get('items', asset.item_id)?.maxPrice;
    if (max !== undefined && max !== null && c.price > max) return fail(INVENTORY.priceLimit(max));
    if (asset.game === TRADE_HOLD_GAME && asset.tradeHoldUntil !== null && asset.tradeHoldUntil > c.now)
      return fail(INVENTORY.tradeHold);
    if (asset.state !== 0 && asset.state !== 1) return fail(INVENTORY.notAvailable);
    assets.push(asset);
  }
  let sold = 0;
  for (const asset of assets) if (listOrSell(tx, asset, c.price, c.now)) sold += 1;
  return ok({ message: 'ok' as const, sold });
}
