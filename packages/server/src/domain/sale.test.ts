import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditMoney } from './audit.ts';
import { saleFee, sellerProceeds } from './money.ts';
import { sell } from './sale.ts';
import { testState } from './test-state.fixture.ts';

const mailsOf = (effects: readonly { kind: string }[]) =>
  effects.filter((e) => e.kind === 'mail').map((e) => (e as unknown as { mail: { kind: string; to: string } }).mail);

function market(buyerBalance = 10_000) {
  const s = testState();
  const seller = s.user({ balance: 0, email: 'seller@example.com' });
  const buyer = s.user({ balance: buyerBalance, email: 'buyer@example.com' });
  const item = s.item({ name: 'Sale Key' });
  const asset = s.asset({ owner: seller.platformId, itemId: item.id, state: 1, price: 999 });
  return { ...s, seller, buyer, item, asset };
}

describe('sell, paid out of the balance', () => {
  it('debits the price, credits floor(95 %), keeps the rest as the fee and moves the asset', () => {
    const m = market();
    const sale = sell(m.tx, { asset: m.asset, buyer: m.buyer.platformId, price: 999, now: m.now });
    expect(sale.ok).toBe(true);
    // 999 x 0.95 = 949.05: the seller gets 949, the fee is 50 (rounded in the marketplace's favour).
    expect(m.tx.get('users', m.buyer.platformId)!.balance).toBe(10_000 - 999);
    expect(m.tx.get('users', m.seller.platformId)!.balance).toBe(949);
    expect(m.tx.get('assets', m.asset.id)).toMatchObject({ user: m.buyer.platformId, state: 0, price: null });
    const ledger = m.tx.all('ledger').filter((e) => e.type === 'purchase' || e.type === 'sale');
    expect(ledger.map((e) => [e.user, e.type, e.amount])).toEqual([
      [m.buyer.platformId, 'purchase', -999],
      [m.seller.platformId, 'sale', 949],
    ]);
    expect(sale.ok && sale.value).toMatchObject({
      price: 999,
      fee: 50,
      seller: m.seller.platformId,
      buyer: m.buyer.platformId,
    });
    expect(mailsOf(m.tx.effects).map((x) => [x.kind, x.to])).toEqual([['itemSold', 'seller@example.com']]);
    m.tx.commit();
    expect(auditMoney(m.tx.state).problems).toEqual([]);
  });

  it('refuses a buyer who cannot pay, leaving everything for the caller to drop', () => {
    const m = market(998);
    const sale = sell(m.tx, { asset: m.asset, buyer: m.buyer.platformId, price: 999, now: m.now });
    expect(sale).toEqual({ ok: false, error: 'Not enough balance' });
  });

  it('never lets a seller buy their own asset', () => {
    const m = market();
    expect(() => sell(m.tx, { asset: m.asset, buyer: m.seller.platformId, price: 999, now: m.now })).toThrow();
  });
});

describe('sell into a buy order', () => {
  it('releases the unit reserved at the order price, pays the sale price, and notifies the owner', () => {
    const m = market(5_000);
    const order = m.order(m.buyer.platformId, m.item.id, 1_200, 3);
    const sale = sell(m.tx, { asset: m.asset, buyer: m.buyer.platformId, price: 999, now: m.now, order });
    expect(sale.ok).toBe(true);
    const buyer = m.tx.get('users', m.buyer.platformId)!;
    // 3 x 1200 reserved; one unit (1200) released, 999 paid: 201 back to the balance.
    expect([buyer.balance, buyer.reserved]).toEqual([5_000 - 3_600 + 201, 2_400]);
    expect(m.tx.get('buyOrders', order.id)!.amount).toBe(2);
    expect(m.tx.all('notifications').map((n) => [n.user, n.kind])).toEqual([[m.buyer.platformId, 'alert']]);
    expect(
      mailsOf(m.tx.effects)
        .map((x) => x.kind)
        .sort(),
    ).toEqual(['buyOrderFilled', 'itemSold']);
    m.tx.commit();
    expect(auditMoney(m.tx.state).problems).toEqual([]);
  });

  it('honours the e-mail switches of seller and buyer', () => {
    const m = market(5_000);
    m.tx.put('users', m.buyer.platformId, { ...m.tx.get('users', m.buyer.platformId)!, emailNotifications: false });
    const seller = m.tx.get('users', m.seller.platformId)!;
    m.tx.put('users', m.seller.platformId, { ...seller, notifications: { ...seller.notifications, itemSold: false } });
    const order = m.order(m.buyer.platformId, m.item.id, 999, 1);
    sell(m.tx, { asset: m.asset, buyer: m.buyer.platformId, price: 999, now: m.now, order });
    expect(mailsOf(m.tx.effects)).toEqual([]);
    expect(m.tx.all('notifications')).toHaveLength(1);
  });

  it('keeps the money invariant for any price and order price at or above it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000_000 }), fc.integer({ min: 0, max: 1000 }), (price, above) => {
        const m = market(5_000_000 + 1000);
        const order = m.order(m.buyer.platformId, m.item.id, price + above, 1);
        const sale = sell(m.tx, { asset: m.asset, buyer: m.buyer.platformId, price, now: m.now, order });
        m.tx.commit();
        return (
          sale.ok &&
          sale.value.fee === saleFee(price) &&
          m.tx.state.users[m.seller.platformId]!.balance === sellerProceeds(price) &&
          auditMoney(m.tx.state).problems.length === 0
        );
      }),
      { numRuns: 300 },
    );
  });
});
