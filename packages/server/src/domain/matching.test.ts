import { describe, expect, it } from 'vitest';
import { auditMoney } from './audit.ts';
import { placeOrder, updateOrder } from './buy-orders.ts';
import { bestOrder, fillOrder, listOrSell } from './matching.ts';
import type { BuyOrder } from './state.ts';
import { testState } from './test-state.fixture.ts';

const order = (id: number, price: number, timestamp: number): BuyOrder => ({
  id,
  platformid: `user-${id}`,
  itemid: 1,
  price,
  amount: 1,
  timestamp: String(timestamp),
});

function market() {
  const s = testState();
  const seller = s.user({ balance: 0 });
  const buyer = s.user({ balance: 10_000 });
  const key = s.item({ name: 'Matching Key' });
  return { ...s, seller, buyer, key };
}

describe('fillOrder', () => {
  it('puts the highest price first, then the oldest, then the lower ID', () => {
    const orders = [order(1, 500, 30), order(2, 700, 40), order(3, 500, 10), order(4, 500, 10), order(5, 700, 50)];
    expect(orders.sort(fillOrder).map((o) => o.id)).toEqual([2, 5, 3, 4, 1]);
  });
});

describe('bestOrder', () => {
  it('matches an order at exactly the price, not one cent below, and ignores filled orders', () => {
    const m = market();
    const o = m.order(m.buyer.platformId, m.key.id, 800, 1);
    expect(bestOrder(m.tx, m.key.id, m.seller.platformId, 800)?.id).toBe(o.id);
    expect(bestOrder(m.tx, m.key.id, m.seller.platformId, 801)).toBeUndefined();
    m.tx.put('buyOrders', o.id, { ...o, amount: 0 });
    expect(bestOrder(m.tx, m.key.id, m.seller.platformId, 800)).toBeUndefined();
  });

  it('prefers the older of two orders at the same price by creation time', () => {
    const m = market();
    const late = m.user({ balance: 10_000 });
    placeOrder(m.tx, { owner: late.platformId, itemId: m.key.id, price: 600, amount: 1, now: m.now + 10 });
    const early = placeOrder(m.tx, { owner: m.buyer.platformId, itemId: m.key.id, price: 600, amount: 1, now: m.now });
    expect(early.ok && bestOrder(m.tx, m.key.id, m.seller.platformId, 600)?.id).toBe(early.ok && early.value.id);
  });

  it("never picks the seller's own order, even the highest", () => {
    const m = market();
    const rich = m.user({ balance: 10_000 });
    const highest = m.order(rich.platformId, m.key.id, 900, 1);
    const other = m.order(m.buyer.platformId, m.key.id, 700, 1);
    expect(bestOrder(m.tx, m.key.id, rich.platformId, 500)?.id).toBe(other.id);
    expect(bestOrder(m.tx, m.key.id, rich.platformId, 701)).toBeUndefined();
    expect(bestOrder(m.tx, m.key.id, m.buyer.platformId, 500)?.id).toBe(highest.id);
  });

  it('only looks at orders of the asset item', () => {
    const m = market();
    const other = m.item({ name: 'Other Key' });
    m.order(m.buyer.platformId, other.id, 900, 1);
    expect(bestOrder(m.tx, m.key.id, m.seller.platformId, 100)).toBeUndefined();
  });
});

describe('listOrSell', () => {
  it("sells at the asset's price (not the order's), releasing the rest of the unit to the buyer", () => {
    const m = market();
    const o = m.order(m.buyer.platformId, m.key.id, 1_000, 2);
    const asset = m.asset({ owner: m.seller.platformId, itemId: m.key.id });
    const sale = listOrSell(m.tx, asset, 777, m.now);
    expect(sale).toMatchObject({ price: 777, fee: 777 - Math.floor((777 * 95) / 100), buyer: m.buyer.platformId });
    const buyer = m.tx.get('users', m.buyer.platformId)!;
    expect([buyer.balance, buyer.reserved]).toEqual([10_000 - 2_000 + (1_000 - 777), 1_000]);
    expect(m.tx.get('users', m.seller.platformId)!.balance).toBe(Math.floor((777 * 95) / 100));
    expect(m.tx.get('buyOrders', o.id)!.amount).toBe(1);
    expect(m.tx.get('assets', asset.id)).toMatchObject({ user: m.buyer.platformId, state: 0, price: null });
    m.tx.commit();
    expect(auditMoney(m.tx.state).problems).toEqual([]);
  });

  it('lists the asset at the price when no order pays that much', () => {
    const m = market();
    m.order(m.buyer.platformId, m.key.id, 500, 1);
    const asset = m.asset({ owner: m.seller.platformId, itemId: m.key.id });
    expect(listOrSell(m.tx, asset, 501, m.now + 5)).toBeUndefined();
    expect(m.tx.get('assets', asset.id)).toMatchObject({
      user: m.seller.platformId,
      state: 1,
      price: 501,
      lastupdate: m.now + 5,
    });
    expect(m.tx.all('sales')).toEqual([]);
  });
});

describe('placing or raising a buy order', () => {
  // The seed's transition fires when "a matching item is listed at or below its price": matching
  // happens on pricing. An order placed above an existing listing rests; the listing is bought
  // through the cart.
  it('does not buy an existing listing at or below the order price', () => {
    const m = market();
    const asset = m.asset({ owner: m.seller.platformId, itemId: m.key.id });
    listOrSell(m.tx, asset, 300, m.now);
    m.order(m.buyer.platformId, m.key.id, 400, 1);
    updateOrder(m.tx, { owner: m.buyer.platformId, itemId: m.key.id, price: 500, amount: 2, now: m.now });
    expect(m.tx.all('sales')).toEqual([]);
    expect(m.tx.get('assets', asset.id)).toMatchObject({ user: m.seller.platformId, state: 1, price: 300 });
  });
});
