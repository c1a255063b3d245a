import { describe, expect, it } from 'vitest';
import { auditMoney } from './audit.ts';
import { inventoryRows, parseIds, priceAssets } from './inventory.ts';
import { bestOrder } from './matching.ts';
import { testState } from './test-state.fixture.ts';

function world() {
  const s = testState();
  const me = s.user({ balance: 10_000 });
  const crate = s.item({ name: 'Priced Crate' });
  return { ...s, me, crate };
}

describe('parseIds', () => {
  it('takes comma-separated digit strings once each, and refuses anything else', () => {
    expect(parseIds('11,12,11')).toEqual(['11', '12']);
    expect(parseIds('11,,12')).toBeUndefined();
    expect(parseIds('11,abc')).toBeUndefined();
    expect(parseIds('1'.repeat(21))).toBeUndefined();
  });
});

describe('priceAssets', () => {
  it('lists assets with no matching order and groups them into one row', () => {
    const w = world();
    const a = w.asset({ owner: w.me.platformId, itemId: w.crate.id });
    const b = w.asset({ owner: w.me.platformId, itemId: w.crate.id });
    expect(
      priceAssets(w.tx, { owner: w.me.platformId, ids: `${a.assetId},${b.assetId}`, price: 700, now: w.now }),
    ).toEqual({
      ok: true,
      value: { message: 'ok', sold: 0 },
    });
    const rows = inventoryRows(w.tx, w.me.platformId, 1);
    expect(rows.count).toBe(1);
    expect(rows.items[0]).toMatchObject({ ids: `${a.assetId},${b.assetId}`, count: 2, price: 700, state: 1 });
    expect(inventoryRows(w.tx, w.me.platformId, 0)).toEqual({ items: [], count: 0 });
  });

  it('sells into the highest order, then the oldest, never into the seller own', () => {
    const w = world();
    const first = w.user();
    const second = w.user();
    w.order(w.me.platformId, w.crate.id, 900, 1);
    w.order(first.platformId, w.crate.id, 800, 1);
    w.order(second.platformId, w.crate.id, 800, 1);
    // My 900 is skipped; of the two at 800 the oldest (same second here, so the lower ID) wins.
    expect(bestOrder(w.tx, w.crate.id, w.me.platformId, 500)?.platformid).toBe(first.platformId);
    expect(bestOrder(w.tx, w.crate.id, w.me.platformId, 801)).toBeUndefined();
    const a = w.asset({ owner: w.me.platformId, itemId: w.crate.id });
    priceAssets(w.tx, { owner: w.me.platformId, ids: a.assetId, price: 500, now: w.now });
    expect(w.tx.get('assets', a.id)!.user).toBe(first.platformId);
    // 10,000 minus my own order's 900 reserved, plus floor(500 x 0.95).
    expect(w.tx.get('users', w.me.platformId)!.balance).toBe(10_000 - 900 + 475);
    w.tx.commit();
    expect(auditMoney(w.tx.state).problems).toEqual([]);
  });

  it('checks every asset before changing any', () => {
    const w = world();
    const other = w.user();
    const buyer = w.user();
    w.order(buyer.platformId, w.crate.id, 1000, 5);
    const a = w.asset({ owner: w.me.platformId, itemId: w.crate.id });
    const theirs = w.asset({ owner: other.platformId, itemId: w.crate.id });
    expect(
      priceAssets(w.tx, { owner: w.me.platformId, ids: `${a.assetId},${theirs.assetId}`, price: 100, now: w.now }),
    ).toEqual({
      ok: false,
      error: 'Item not found or not owned',
    });
    expect(w.tx.get('assets', a.id)!.user).toBe(w.me.platformId);
    expect(w.tx.all('sales')).toEqual([]);
  });

  it('refuses above the item maximum (stating it), under a 730 trade hold, and when not available', () => {
    const w = world();
    const capped = w.item({ name: 'Capped', maxPrice: 250_000 });
    const cs = w.item({ name: 'Held', game: 730 });
    const a = w.asset({ owner: w.me.platformId, itemId: capped.id });
    const held = w.asset({ owner: w.me.platformId, itemId: cs.id, tradeHoldUntil: w.now + 1 });
    const gone = w.asset({ owner: w.me.platformId, itemId: w.crate.id, state: 2 });
    const price = (ids: string, p: number) => priceAssets(w.tx, { owner: w.me.platformId, ids, price: p, now: w.now });
    expect(price(a.assetId, 250_001)).toEqual({ ok: false, error: 'Price limit exceeded (maximum 250000 cents)' });
    expect(price(a.assetId, 250_000).ok).toBe(true);
    expect(price(held.assetId, 10)).toEqual({ ok: false, error: 'This item will be locked for 7 days' });
    expect(priceAssets(w.tx, { owner: w.me.platformId, ids: held.assetId, price: 10, now: w.now + 1 }).ok).toBe(true);
    expect(price(gone.assetId, 10)).toEqual({ ok: false, error: 'Item not available' });
  });
});
