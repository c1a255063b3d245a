// The one way an asset is sold (issue 5: matching, cart checkout and instant sell all sell through
// here), so the money rules hold in one place. The document (POST /inventory/price, "Matching"):
// the buyer pays the sale price, out of a buy order's reservation or out of the balance; a buy
// order's unit reserved at the order's price releases the difference; the seller receives
// floor(price x 95 / 100) and the rest is the marketplace's fee; the asset moves to the buyer's
// inventory; both histories and the ledger record it; the seller gets the `itemSold` e-mail and
// the order's owner a notification and the `buyOrderFilled` e-mail.
import { move, reserve } from './ledger.ts';
import { SALE } from './messages.ts';
import { saleFee, sellerProceeds } from './money.ts';
import { addNotification, mailEvent } from './notify.ts';
import type { Asset, BuyOrder, Sale } from './state.ts';
import { fail, ok, type Tx } from './tx.ts';

export interface SaleTerms {
  /** The asset sold, held by the seller (its `user`). */
  asset: Readonly<Asset>;
  buyer: string;
  /** The sale price in cents. */
  price: number;
  now: number;
  /**
   * The buy order filled by the sale: one unit of it pays, out of its reservation. Without an
   * order the buyer pays out of the balance.
   */
  order?: Readonly<BuyOrder>;
}

/** Sells one asset; fails (nothing written) when the buyer cannot pay. */
export function sell(tx: Tx, t: SaleTerms) {
  const seller = t.asset.user;
  if (seller === t.buyer) throw new Error(`asset ${t.asset.id}: a seller cannot buy their own asset`);
  if (!Number.isSafeInteger(t.price) || t.price < 1) throw new Error(`sale price must be cents, got ${t.price}`);
  const id = tx.nextId('sales');
  const item = tx.get('items', t.asset.item_id);
  const name = item?.name ?? `item ${t.asset.item_id}`;

  if (t.order) {
    const order = tx.get('buyOrders', t.order.id);
    if (!order || order.platformid !== t.buyer || order.amount < 1 || order.price < t.price)
      throw new Error(`buy order ${t.order.id} cannot pay ${t.price} for ${t.buyer}`);
    // The unit's whole reservation comes back to the balance, then the price is paid from it, so
    // the ledger shows both the release and the purchase.
    if (!reserve(tx, t.buyer, -order.price, `Buy order #${order.id} filled`, order.id, t.now))
      throw new Error(`buy order ${order.id}: reservation of ${t.buyer} is short`);
    tx.put('buyOrders', order.id, { ...order, amount: order.amount - 1 });
  }
  if (
    !move(tx, {
      user: t.buyer,
      amount: -t.price,
      type: 'purchase',
      description: `Bought ${name}`,
      relatedId: id,
      now: t.now,
    })
  )
    return fail(SALE.notEnoughBalance);

  const proceeds = sellerProceeds(t.price);
  const fee = saleFee(t.price);
  move(tx, { user: seller, amount: proceeds, type: 'sale', description: `Sold ${name}`, relatedId: id, now: t.now });
  tx.collectFee(fee);

  tx.put('assets', t.asset.id, { ...t.asset, user: t.buyer, ip: '', state: 0, price: null, lastupdate: t.now });
  const sale: Sale = {
    id,
    item_id: t.asset.item_id,
    assetId: t.asset.assetId,
    price: t.price,
    fee,
    seller,
    buyer: t.buyer,
    timestamp: t.now,
  };
  tx.put('sales', id, sale);

  mailEvent(tx, seller, 'itemSold', {
    subject: 'Item sold',
    body: `Your ${name} sold for ${t.price} cents; ${proceeds} cents were credited to your balance.`,
    data: { sale: id, itemId: t.asset.item_id, price: t.price, proceeds },
  });
  if (t.order) {
    const text = `Your buy order for ${name} was filled at ${t.price} cents.`;
    addNotification(
      tx,
      t.buyer,
      'alert',
      text,
      { sale: id, order: t.order.id, itemId: t.asset.item_id, price: t.price },
      t.now,
    );
    mailEvent(tx, t.buyer, 'buyOrderFilled', {
      subject: 'Buy order filled',
      body: text,
      data: { sale: id, order: t.order.id, itemId: t.asset.item_id, price: t.price },
    });
  }
  return ok(sale);
}
