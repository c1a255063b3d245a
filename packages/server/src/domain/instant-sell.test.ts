import { describe, expect, it } from 'vitest';
import { auditMoney } from './audit.ts';
import { removeOrder } from './buy-orders.ts';
import { depositKey } from './deposits.ts';
import { createInstantSell, instantPrice, instantSellInfo } from './instant-sell.ts';
import { DEPOSIT } from './messages.ts';
import { settleTrade } from './settlement.ts';
import { testState } from './test-state.fixture.ts';

const SECRET = 'unit-secret';

function world() {
  const t = testState();
  const me = t.user();
  const buyer = t.user();
  const other = t.user();
  const hat = t.item({ name: 'Bid Hat', image: '/bid.png' });
  const cap = t.item({ name: 'Lonely Cap' });
  t.order(buyer.platformId, hat.id, 900, 2);
  t.order(other.platformId, hat.id, 900, 1);
  t.order(other.platformId, cap.id, 100, 1);
  t.order(me.platformId, hat.id, 5000, 1);
  const platform = [
    { assetId: '42000000001', itemId: hat.id },
    { assetId: '42000000002', itemId: cap.id },
  ];
  const keyOf = (id: string) => depositKey(SECRET, id, me.platformId);
  const sell = (prices: Record<string, number>, game = 440) =>
    createInstantSell(t.tx, {
      user: me.platformId,
      game: game as 440,
      prices,
      keys: Object.fromEntries(Object.keys(prices).map((id) => [id, keyOf(id)])),
      platform,
      secret: SECRET,
      now: t.now,
      method: 'balance',
    });
  return { t, me, buyer, hat, cap, platform, sell };
}

describe('instantPrice', () => {
  it("is the highest bid of other users and the quantity at it; the seller's own bid does not count", () => {
    const { t, me, hat, buyer } = world();
    expect(instantPrice(t.tx, hat.id, me.platformId)).toEqual({ price: 900, count: 3 });
    expect(instantPrice(t.tx, hat.id, buyer.platformId)).toEqual({ price: 5000, count: 1 });
  });
});

describe('instantSellInfo', () => {
  it('lists the assets with a bid and their keys; other games are not supported', () => {
    const { t, me, platform, hat, cap } = world();
    const info = instantSellInfo(t.tx, me.platformId, 440, platform, SECRET);
    expect(info.ok && info.value.rows.map((r) => [r.item_id, r.instantPrice, r.buyOrderCount])).toEqual([
      [hat.id, 900, 3],
      [cap.id, 100, 1],
    ]);
    expect(info.ok && info.value.depositkey['42000000001']).toBe(depositKey(SECRET, '42000000001', me.platformId));
    expect(instantSellInfo(t.tx, me.platformId, 730, platform, SECRET)).toEqual({
      ok: false,
      error: DEPOSIT.instantSellUnsupported,
    });
  });
});

describe('createInstantSell', () => {
  it('accepts prices at or below the instant price and sends an instant_sell offer', () => {
    const { t, sell } = world();
    const made = sell({ '42000000001': 900, '42000000002': 50 });
    expect(made.ok).toBe(true);
    const trade = made.ok ? t.tx.get('trades', made.value.id) : undefined;
    expect([trade?.kind, trade?.payout, trade?.prices]).toEqual([
      'instant_sell',
      'balance',
      { '42000000001': 900, '42000000002': 50 },
    ]);
    expect(t.tx.effects).toEqual([expect.objectContaining({ kind: 'offer', offer: 'instant_sell' })]);
  });

  it('refuses a price above the best bid, and other games', () => {
    const { sell } = world();
    expect(sell({ '42000000001': 901 })).toEqual({
      ok: false,
      error: DEPOSIT.noBuyOrderForDepositAsset('42000000001'),
    });
    expect(sell({ '42000000001': 900 }, 730)).toEqual({ ok: false, error: DEPOSIT.instantSellUnsupported });
  });
});

describe('settlement of an instant sell', () => {
  it('accepted: each asset sells into the best bid at its price; money is kept (audit), the trade records the prices', () => {
    const { t, me, buyer, hat, cap, sell } = world();
    const made = sell({ '42000000001': 800, '42000000002': 100 });
    if (!made.ok) throw new Error('refused');
    const before = t.tx.get('users', me.platformId)!.balance;
    const trade = t.tx.get('trades', made.value.id)!;
    expect(settleTrade(t.tx, trade.tradeId, 'accept', t.now).ok).toBe(true);
    expect(t.tx.get('users', me.platformId)!.balance).toBe(
      before + Math.floor((900 * 95) / 100) + Math.floor((100 * 95) / 100),
    );
    const hatAsset = t.tx.all('assets').find((a) => a.assetId === '42000000001')!;
    expect([hatAsset.user, hatAsset.state, hatAsset.item_id]).toEqual([buyer.platformId, 0, hat.id]);
    expect(t.tx.all('assets').find((a) => a.assetId === '42000000002')!.item_id).toBe(cap.id);
    expect(t.tx.get('trades', trade.id)).toMatchObject({
      status: 3,
      prices: { '42000000001': 900, '42000000002': 100 },
    });
    t.tx.commit();
    expect(auditMoney(t.tx.state).problems).toEqual([]);
  });

  it('accepted after the bids are gone: the asset stays in the seller inventory; declined: nothing moves', () => {
    const { t, me, sell } = world();
    const made = sell({ '42000000002': 100 });
    if (!made.ok) throw new Error('refused');
    const order = t.tx.all('buyOrders').find((o) => o.price === 100)!;
    expect(removeOrder(t.tx, order.platformid, order.itemid, t.now).ok).toBe(true);
    settleTrade(t.tx, t.tx.get('trades', made.value.id)!.tradeId, 'accept', t.now);
    expect(t.tx.all('assets').map((a) => [a.user, a.state])).toEqual([[me.platformId, 0]]);
    const other = sell({ '42000000001': 900 });
    if (!other.ok) throw new Error('refused');
    settleTrade(t.tx, t.tx.get('trades', other.value.id)!.tradeId, 'decline', t.now);
    expect(t.tx.get('trades', other.value.id)!.status).toBe(-1);
    expect(t.tx.all('assets')).toHaveLength(1);
  });
});
