// The price lists of the catalogue (seed: "Endpoints > Items", "Limits"): the per-game list of
// GET /item/prices, the public list of GET /public/price (JSON or CSV) and the compact list of
// GET /infos/prices/buyorderAndLowestSales. The public and compact lists are refreshed every 3
// minutes; `force` is the `update=1` refresh, whose per-IP limit the caller applies.
import type { components } from '@marketplace/types';
import { type Cache, type Cached, cached } from './cache.ts';
import { bookSummary, itemsInMarket, marketSummary } from './market.ts';
import type { Item } from './state.ts';
import type { Tx } from './tx.ts';

type ItemPriceListRow = components['schemas']['ItemPriceListRow'];
export type PublicPriceRow = components['schemas']['PublicPriceRow'];
type CompactRow = components['schemas']['BuyorderAndLowestSalesRow'];

/** Seed, Limits: "Price list cache: refreshed every 3 minutes". */
export const PRICE_LIST_TTL = 3 * 60;
/** The games of the public lists (753 is accepted by GET /item/prices only; seed: Games). */
export const MARKET_GAMES: readonly number[] = [440, 730, 570, 252490];

const byId = (a: Pick<Item, 'id'>, b: Pick<Item, 'id'>) => a.id - b.id;

/**
 * The price list of one game (seed: "Item price list row"), by item ID: `price` is the lowest
 * active listing and `assetcount` the listed assets. Out-of-stock items (no listing) appear only
 * with `outOfStock`, priced 0.
 */
export function itemPriceList(tx: Tx, game: number, outOfStock: boolean): ItemPriceListRow[] {
  return tx
    .find('itemsByGame', String(game))
    .sort(byId)
    .map((item) => ({ item, m: bookSummary(tx, item.id) }))
    .filter(({ m }) => outOfStock || m.listingCount > 0)
    .map(({ item, m }) => ({
      name: item.name,
      craftable: item.craftable === 0 ? 0 : 1,
      effect: item.effect,
      url: item.url,
      assetcount: m.listingCount,
      price: m.lowestListing,
    }));
}

/** The public price list of every item of the four market games, by item ID; 0 means none. */
export function publicPriceRows(tx: Tx, now: number): PublicPriceRow[] {
  return MARKET_GAMES.flatMap((game) => tx.find('itemsByGame', String(game)))
    .sort(byId)
    .map((item) => {
      const m = marketSummary(tx, item.id, now);
      return {
        itemId: item.id,
        name: item.name,
        game: item.game as PublicPriceRow['game'],
        buyPrice: m.highestBuyOrder,
        sellPrice: m.lowestListing,
        platformPrice: item.deal,
        listingCount: m.listingCount,
        buyOrderCount: m.buyOrderCount,
        last24hSales: m.last24hSales,
        last24hVolume: m.last24hVolume,
      };
    });
}

/** The public price list, reused for 3 minutes unless `force` (seed: GET /public/price). */
export const publicPriceList = (tx: Tx, cache: Cache, o: { now: number; force: boolean }): Cached<PublicPriceRow[]> =>
  cached(cache, 'public-price', { now: o.now, ttl: PRICE_LIST_TTL, force: o.force }, () => publicPriceRows(tx, o.now));

/** The columns of the CSV list, in order (seed: GET /public/price, the exact header line). */
export const CSV_COLUMNS = [
  'itemId',
  'name',
  'game',
  'buyPrice',
  'sellPrice',
  'platformPrice',
  'listingCount',
  'buyOrderCount',
] as const;

/** A CSV field, quoted (RFC 4180) when it holds a comma, a quote or a line break. */
export const csvField = (value: string | number): string => {
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** The CSV document of the public price list: the header line, then one line per item. */
export function priceListCsv(rows: readonly PublicPriceRow[]): string {
  const lines = rows.map((r) => CSV_COLUMNS.map((c) => csvField(r[c])).join(','));
  return `${[CSV_COLUMNS.join(','), ...lines].join('\n')}\n`;
}

/** The cache key of the compact list: its entry's `at` is the list's refresh time. */
export const COMPACT_PRICES_CACHE = 'compact-prices';

/**
 * The compact list (GET /infos/prices/buyorderAndLowestSales, envelope B variant): items with a
 * listing or a buy order, by item ID, 0 meaning none; reused for 3 minutes unless `force`.
 */
export const compactPriceList = (tx: Tx, cache: Cache, o: { now: number; force: boolean }): Cached<CompactRow[]> =>
  cached(cache, COMPACT_PRICES_CACHE, { now: o.now, ttl: PRICE_LIST_TTL, force: o.force }, () =>
    itemsInMarket(tx)
      .filter((id) => tx.get('items', id) !== undefined)
      .sort((a, b) => a - b)
      .map((id) => bookSummary(tx, id))
      .map((m) => ({ item_id: m.itemId, buyorder_price: m.highestBuyOrder, lowest_sale_price: m.lowestListing })),
  );
