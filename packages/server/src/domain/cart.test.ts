import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditMoney } from './audit.ts';
import { addBulk, addToCart, cartOf, checkIntegrity, checkout, isPlain, removeRow, updateCart } from './cart.ts';
import type { NewAsset } from './catalog.ts';
import { sellerProceeds } from './money.ts';
import { sell } from './sale.ts';
import type { State } from './state.ts';
import { testState } from './test-state.fixture.ts';
import { type Result, Tx } from './tx.ts';

/** One command as the server runs it: its writes are kept only when it succeeds. */
function run<T>(state: State, command: (tx: Tx) => Result<T>): Result<T> {
  const tx = new Tx(state);
  const result = command(tx);
  if (result.ok) tx.commit();
  return result;
}

function market(balance = 10_000) {
  const s = testState();
  const seller = s.user({ balance: 0 });
  const me = s.user({ balance });
  const item = s.item({ name: 'Cart Key' });
  const listed = (price: number, extra: Partial<NewAsset> = {}) =>
    s.asset({ owner: seller.platformId, itemId: item.id, state: 1, price, ...extra });
  return { ...s, seller, me: me.platformId, item, listed };
}

const shape = (tx: Tx, user: string) => cartOf(tx, user).map((r) => `${r.price}:${r.assetId}`);
const value = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!r.ok) throw new Error(`failed: ${JSON.stringify(r.error)}`);
  return r.value;
};

describe('add, bulk and remove', () => {
  it('groups assets one row per item and price, and refuses unlisted, own, unknown and duplicate assets', () => {
    const m = market();
    const a = m.listed(100);
    const b = m.listed(100);
    const c = m.listed(200);
    const unlisted = m.asset({ owner: m.seller.platformId, itemId: m.item.id });
    const mine = m.asset({ owner: m.me, itemId: m.item.id, state: 1, price: 100 });
    for (const x of [a, b, c]) value(addToCart(m.tx, m.me, x.assetId, m.now));
    expect(shape(m.tx, m.me)).toEqual([`100:${a.assetId},${b.assetId}`, `200:${c.assetId}`]);
    expect(addToCart(m.tx, m.me, a.assetId, m.now)).toEqual({ ok: false, error: 'Item already in cart' });
    for (const id of [unlisted.assetId, mine.assetId, '123'])
      expect(addToCart(m.tx, m.me, id, m.now)).toEqual({ ok: false, error: 'Item not available for purchase' });
  });

  it('bulk takes the cheapest, then the oldest update, skips own and held assets, and filters by seller', () => {
    const m = market();
    const other = m.user({ balance: 0 });
    const newer = m.listed(300, { lastupdate: m.now - 1 });
    const older = m.listed(300, { lastupdate: m.now - 100 });
    const cheap = m.listed(200);
    const theirs = m.asset({ owner: other.platformId, itemId: m.item.id, state: 1, price: 150 });
    m.asset({ owner: m.me, itemId: m.item.id, state: 1, price: 50 });
    value(addBulk(m.tx, m.me, { itemId: m.item.id, count: 2, seller: m.seller.platformId, now: m.now }));
    expect(shape(m.tx, m.me)).toEqual([`200:${cheap.assetId}`, `300:${older.assetId}`]);
    value(addBulk(m.tx, m.me, { itemId: m.item.id, count: 5, now: m.now }));
    expect(shape(m.tx, m.me)).toEqual([
      `200:${cheap.assetId}`,
      `300:${older.assetId},${newer.assetId}`,
      `150:${theirs.assetId}`,
    ]);
    expect(addBulk(m.tx, m.me, { itemId: m.item.id, count: 1, now: m.now })).toEqual({
      ok: false,
      error: 'No items available',
    });
  });

  it("shows its item's class, slot and platform type, and an asset attribute only where the row's assets share it", () => {
    const m = testState();
    const seller = m.user();
    const me = m.user().platformId;
    const item = m.item({ name: 'Dressed Hat', class: 'hat-class', slot: 'head', type_platform: 'Cosmetic Hat' });
    const dressed = (price: number, sheen: string, paint: string | null) =>
      m.asset({ owner: seller.platformId, itemId: item.id, state: 1, price, sheen, paint });
    for (const a of [
      dressed(100, 'Team Shine', 'Pink'),
      dressed(100, 'Hot Rod', 'Pink'),
      dressed(200, 'Villainous Violet', null),
    ])
      value(addToCart(m.tx, me, a.assetId, m.now));
    const rows = cartOf(m.tx, me).map((r) => [r.price, r.class, r.slot, r.type_platform, r.sheen, r.paint]);
    expect(rows).toEqual([
      [100, 'hat-class', 'head', 'Cosmetic Hat', undefined, 'Pink'],
      [200, 'hat-class', 'head', 'Cosmetic Hat', 'Villainous Violet', null],
    ]);
  });

  it("removes a row of the caller's only", () => {
    const m = market();
    const other = m.user();
    value(addToCart(m.tx, m.me, m.listed(100).assetId, m.now));
    const [row] = cartOf(m.tx, m.me);
    expect(removeRow(m.tx, other.platformId, row!.cartId)).toEqual({ ok: false, error: 'Cart item not found' });
    expect(value(removeRow(m.tx, m.me, row!.cartId))).toEqual([]);
    expect(removeRow(m.tx, m.me, row!.cartId)).toEqual({ ok: false, error: 'Cart item not found' });
  });
});

describe('update', () => {
  it('names each reason in the seed order, swaps plain assets for a plain equivalent at the stored price and removes the rest', () => {
    const m = market();
    const sold = m.listed(100);
    const spelled = m.listed(100, { spell: 'Exorcism' });
    const repriced = m.listed(100);
    const gone = m.listed(100);
    for (const x of [sold, spelled, repriced, gone]) value(addToCart(m.tx, m.me, x.assetId, m.now));
    const spare = m.listed(100);
    m.listed(100, { wear: 0.2 }); // an equivalent that is not plain
    m.tx.put('assets', sold.id, { ...sold, state: 0, price: null });
    m.tx.put('assets', spelled.id, { ...spelled, state: 2 });
    m.tx.put('assets', repriced.id, { ...repriced, price: 130 });
    m.tx.delete('assets', gone.id);

    const result = value(updateCart(m.tx, m.me));
    expect(result.integrity).toEqual({
      valid: false,
      invalidItems: [
        { cartId: 1, assetId: sold.assetId, reason: 'unavailable' },
        { cartId: 1, assetId: spelled.assetId, reason: 'unavailable' },
        { cartId: 1, assetId: repriced.assetId, reason: 'price_changed', currentPrice: 130, expectedPrice: 100 },
        { cartId: 1, assetId: gone.assetId, reason: 'not_found' },
      ],
    });
    expect(result.replaced).toEqual([
      { cartId: 1, oldAssetId: sold.assetId, newAssetId: spare.assetId, reason: 'unavailable' },
    ]);
    // The re-priced asset is plain but its only plain equivalent at 100 went to the sold one.
    expect(result.removed.map((r) => `${r.assetId}:${r.reason}`)).toEqual([
      `${spelled.assetId}:unavailable`,
      `${repriced.assetId}:price_changed`,
      `${gone.assetId}:not_found`,
    ]);
    expect(shape(m.tx, m.me)).toEqual([`100:${spare.assetId}`]);
    expect(value(updateCart(m.tx, m.me)).integrity.valid).toBe(true);
  });

  it('reports own_item for an asset the caller owns again at the same price, and deletes the emptied row', () => {
    const m = market();
    const a = m.listed(100);
    value(addToCart(m.tx, m.me, a.assetId, m.now));
    m.tx.put('assets', a.id, { ...a, user: m.me });
    const result = value(updateCart(m.tx, m.me));
    expect(result.removed).toEqual([{ cartId: 1, assetId: a.assetId, reason: 'own_item' }]);
    expect(result.cart).toEqual([]);
    expect(m.tx.all('cartRows')).toEqual([]);
  });

  it('treats as plain exactly an asset without spell, sheen, wear, killstreaker and parts', () => {
    const m = market();
    expect(isPlain(m.listed(1))).toBe(true);
    for (const extra of [{ spell: 'x' }, { sheen: 'x' }, { wear: 0 }, { killstreaker: 'x' }, { parts: 'x' }])
      expect(isPlain(m.listed(1, extra))).toBe(false);
  });
});

describe('checkout', () => {
  it('pays the total, credits each seller floor(95 %), moves the assets, empties the cart and keeps the money invariant', () => {
    const m = market(2_000);
    const other = m.user({ balance: 0 });
    const a = m.listed(999);
    const b = m.asset({ owner: other.platformId, itemId: m.item.id, state: 1, price: 501 });
    value(addToCart(m.tx, m.me, a.assetId, m.now));
    value(addToCart(m.tx, m.me, b.assetId, m.now));
    const result = value(checkout(m.tx, m.me, m.now));
    expect(result).toMatchObject({ message: 'Checkout complete', total: 1_500, balance: 500, cart: [] });
    expect(result.purchased.map((p) => p.assetId)).toEqual([a.assetId, b.assetId]);
    expect(m.tx.get('users', m.seller.platformId)!.balance).toBe(sellerProceeds(999));
    expect(m.tx.get('users', other.platformId)!.balance).toBe(sellerProceeds(501));
    expect([a, b].map((x) => m.tx.get('assets', x.id))).toMatchObject([
      { user: m.me, state: 0 },
      { user: m.me, state: 0 },
    ]);
    expect(m.tx.all('sales')).toHaveLength(2);
    expect(cartOf(m.tx, m.me)).toEqual([]);
    m.tx.commit();
    expect(auditMoney(m.tx.state).problems).toEqual([]);
  });

  it('refuses an empty cart, a cart that fails the integrity check, and a total above the balance', () => {
    const m = market(199);
    expect(checkout(m.tx, m.me, m.now)).toEqual({ ok: false, error: 'Cart is empty' });
    const a = m.listed(100);
    const b = m.listed(100);
    value(addToCart(m.tx, m.me, a.assetId, m.now));
    value(addToCart(m.tx, m.me, b.assetId, m.now));
    expect(checkout(m.tx, m.me, m.now)).toEqual({ ok: false, error: 'Not enough balance' });
    m.tx.put('assets', b.id, { ...b, price: 90 });
    expect(checkIntegrity(m.tx, m.me)).toHaveLength(1);
    expect(checkout(m.tx, m.me, m.now)).toEqual({ ok: false, error: 'Cart integrity check failed' });
  });

  it('a second buyer of the same asset finds it sold: the asset is sold once', () => {
    const m = market();
    const rival = m.user({ balance: 10_000 });
    const a = m.listed(400);
    value(addToCart(m.tx, m.me, a.assetId, m.now));
    value(addToCart(m.tx, rival.platformId, a.assetId, m.now));
    value(checkout(m.tx, m.me, m.now));
    expect(checkout(m.tx, rival.platformId, m.now)).toEqual({ ok: false, error: 'Cart integrity check failed' });
    expect(m.tx.get('users', rival.platformId)!.balance).toBe(10_000);
    expect(m.tx.all('sales')).toHaveLength(1);
  });

  it('property: after any mix of carts, sales elsewhere and checkouts, the money invariant holds and no asset is sold twice', () => {
    let sold = 0;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 2_000 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(3), fc.nat(5), fc.boolean()), { minLength: 1, maxLength: 20 }),
        fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 4, maxLength: 4 }),
        (prices, steps, balances) => {
          const s = testState();
          const seller = s.user({ balance: 0 });
          const buyers = balances.map((balance) => s.user({ balance }).platformId);
          const item = s.item();
          const assets = prices.map((price) => s.asset({ owner: seller.platformId, itemId: item.id, state: 1, price }));
          s.tx.commit();
          const state = s.tx.state;
          for (const [who, which, pay] of steps) {
            const buyer = buyers[who]!;
            const asset = assets[which % assets.length]!;
            if (pay) run(state, (tx) => checkout(tx, buyer, s.now));
            else run(state, (tx) => addToCart(tx, buyer, asset.assetId, s.now));
          }
          // A sale outside the cart must not break a later checkout of the others.
          const left = Object.values(state.assets).find((x) => x.state === 1);
          const payer = left && buyers.find((b) => state.users[b]!.balance >= left.price!);
          if (left && payer)
            run(state, (tx) => sell(tx, { asset: left, buyer: payer, price: left.price!, now: s.now }));
          for (const b of buyers) run(state, (tx) => checkout(tx, b, s.now));
          expect(auditMoney(state).problems).toEqual([]);
          const soldIds = Object.values(state.sales).map((x) => x.assetId);
          expect(new Set(soldIds).size).toBe(soldIds.length);
          sold += soldIds.length;
        },
      ),
      { numRuns: 150 },
    );
    expect(sold).toBeGreaterThan(100); // the runs do sell
  });
});
