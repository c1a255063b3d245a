// Buy orders (seed: "Buy orders", "States and transitions"): one per user and item; value x amount
// is reserved from the balance while the order stands.
import { reserve } from './ledger.ts';
import { BUY_ORDERS, ITEMS } from './messages.ts';
import type { BuyOrder } from './state.ts';
import { fail, ok, type Result, type Tx } from './tx.ts';

export interface OrderTerms {
  owner: string;
  itemId: number;
  price: number;
  amount: number;
  now: number;
}

/** The user's order on an item, if any. */
export const orderOf = (tx: Tx, owner: string, itemId: number): BuyOrder | undefined =>
  tx.all('buyOrders').find((o) => o.platformid === owner && o.itemid === itemId);

/** Places a buy order and reserves price x amount (seed: POST /item/buyorder). */
export function placeOrder(tx: Tx, terms: OrderTerms): Result<BuyOrder> {
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
