// Buy orders (seed: "Buy orders", "States and transitions"): one per user and item; value x amount
// is reserved from the balance while the order stands.
import type { components } from '@marketplace/types';
import { itemView } from './catalog.ts';
import { reserve } from './ledger.ts';
import { isActiveOrder } from './market.ts';
import { BUY_ORDERS, ITEMS } from './messages.ts';
import type { BuyOrder } from './state.ts';
import { fail, ok, type Tx } from './tx.ts';

export interface OrderTerms {
  owner: string;
  itemId: number;
  price: number;
  amount: number;
  now: number;
}

/** The user's order on an item, if any. */
export const orderOf = (tx: Tx, owner: string, itemId: number): BuyOrder | undefined =>
  ordersOf(tx, owner).find((o) => o.itemid === itemId);

/** Every buy order of a user, in no particular order. */
export const ordersOf = (tx: Tx, owner: string): Readonly<BuyOrder>[] => tx.find('ordersByOwner', owner);

/** Places a buy order and reserves price x amount (seed: POST /item/buyorder). */
export function placeOrder(tx: Tx, terms: OrderTerms) {
  if (!tx.get('items', terms.itemId)) return fail(ITEMS.itemNotFound);
  if (orderOf(tx, terms.owner, terms.itemId)) return fail(BUY_ORDERS.alreadyExists);
  const id = tx.nextId('buyOrders');
  const cost = terms.price * terms.amount;
  if (!reserve(tx, terms.owner, cost, `Buy order #${id} reserved`, id, terms.now))
    return fail(BUY_ORDERS.notEnoughBalance);
  const order: BuyOrder = {
    id,
    platformid: terms.owner,
    itemid: terms.itemId,
    price: terms.price,
    amount: terms.amount,
    timestamp: String(terms.now),
  };
  tx.put('buyOrders', id, order);
  return ok(order);
}

export type BuyOrderTiers = components['schemas']['BuyOrderTiers'];
/** Seed, Buy order tiers: "up to five price tiers, highest first". */
export const TIER_COUNT = 5;

/**
 * Groups active buy orders into price tiers (seed: "Buy order tiers"): keys `0`..`4` are the five
 * highest prices with their summed amounts; `more` sums the rest and carries their lowest price.
 * Keys exist only for existing tiers, and `more` only when there are more than five.
 */
export function groupTiers(orders: readonly Pick<BuyOrder, 'price' | 'amount'>[]): BuyOrderTiers {
  const byPrice = new Map<number, number>();
  for (const o of orders) if (isActiveOrder(o)) byPrice.set(o.price, (byPrice.get(o.price) ?? 0) + o.amount);
  const tiers = [...byPrice].sort(([a], [b]) => b - a);
  const out: Record<string, { count: number; price: number }> = {};
  tiers.slice(0, TIER_COUNT).forEach(([price, count], i) => {
    out[String(i)] = { count, price };
  });
  const rest = tiers.slice(TIER_COUNT);
  if (rest.length > 0) out.more = { count: rest.reduce((n, [, c]) => n + c, 0), price: rest.at(-1)![0] };
  return out as BuyOrderTiers;
}

/**
 * The buy order tiers of an item (seed: GET /item/buyorderList/{item}); `{}` when nobody bids.
 * Reads the head of the item's order book up to the sixth price, then the book's summed amount and
 * its last (lowest) order for `more`, so the cost does not grow with the number of orders.
 */
export function buyOrderTiers(tx: Tx, itemId: number): BuyOrderTiers {
  const group = String(itemId);
  const head: Readonly<BuyOrder>[] = [];
  let prices = 0;
  for (const o of tx.ordered('orderBook', group)) {
    if (head.length === 0 || o.price !== head.at(-1)!.price) prices += 1;
    if (prices > TIER_COUNT) {
      // The rest of the book, as one pseudo-order per price is not needed: `more` is a sum and a minimum.
      const inHead = head.reduce((n, h) => n + h.amount, 0);
      const lowest = tx.last('orderBook', group)!;
      return groupTiers([
        ...head,
        { price: o.price, amount: tx.total('orderBook', group) - inHead - lowest.amount },
        lowest,
      ]);
    }
    head.push(o);
  }
  return groupTiers(head);
}

/**
 * Changes the terms of the user's order on an item (seed: POST /item/buyorder/update): the old
 * reservation is released and the new one taken, in one step.
 */
export function updateOrder(tx: Tx, terms: OrderTerms) {
  const order = orderOf(tx, terms.owner, terms.itemId);
  if (!order) return fail(BUY_ORDERS.noneToUpdate);
  const held = order.price * order.amount;
  if (!reserve(tx, terms.owner, -held, `Buy order #${order.id} released`, order.id, terms.now))
    return fail(BUY_ORDERS.notFound);
  const cost = terms.price * terms.amount;
  if (!reserve(tx, terms.owner, cost, `Buy order #${order.id} reserved`, order.id, terms.now))
    return fail(BUY_ORDERS.notEnoughBalance);
  return ok(tx.put('buyOrders', order.id, { ...order, price: terms.price, amount: terms.amount }));
}

/** Removes the user's order on an item and releases its reservation (seed: POST /item/buyorder/remove). */
export function removeOrder(tx: Tx, owner: string, itemId: number, now: number) {
  const order = orderOf(tx, owner, itemId);
  if (!order) return fail(BUY_ORDERS.notFound);
  const held = order.price * order.amount;
  if (held > 0 && !reserve(tx, owner, -held, `Buy order #${order.id} released`, order.id, now))
    return fail(BUY_ORDERS.notFound);
  tx.delete('buyOrders', order.id);
  return ok(order);
}

export type BuyOrderRow = components['schemas']['BuyOrderRow'];

export interface OrderQuery {
  page: number;
  count: number;
  search?: string;
  undercut: boolean;
  now: number;
}

/**
 * The user's buy orders with their items (seed: GET /user/getBuyorder): only orders with amount not
 * 0, newest (highest ID) first; `search` matches the item name or effect (case-insensitive);
 * `undercut` keeps orders priced below the item's lowest listing.
 */
export function listOrders(tx: Tx, owner: string, query: OrderQuery): { values: BuyOrderRow[]; count: { nb: number } } {
  const needle = query.search?.toLowerCase();
  const rows = ordersOf(tx, owner)
    .filter((o) => o.amount !== 0)
    .flatMap((o) => {
      const item = tx.get('items', o.itemid);
      if (!item) return [];
      if (needle && !item.name.toLowerCase().includes(needle) && !item.effect.toLowerCase().includes(needle)) return [];
      if (query.undercut) {
        const listing = tx.ordered('listingsByItem', String(o.itemid)).next().value?.price ?? 0;
        if (listing === 0 || o.price >= listing) return [];
      }
      return [{ ...itemView(item), ...o }];
    })
    .sort((a, b) => b.id - a.id);
  return { values: rows.slice(query.page * query.count, (query.page + 1) * query.count), count: { nb: rows.length } };
}
