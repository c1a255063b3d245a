import { describe, expect, it } from 'vitest';
import { ADMIN, INVENTORY, TRADES } from './messages.ts';
import { settleTrade } from './settlement.ts';
import { testState } from './test-state.fixture.ts';
import { listTrades, resendTrade, revertTrade, withdraw } from './trades.ts';

function world(states: number[]) {
  const t = testState();
  const me = t.user();
  const item = t.item({ name: 'Trade Hat' });
  const assets = states.map((state) =>
    t.asset({ owner: me.platformId, itemId: item.id, state, price: state === 1 ? 100 : null }),
  );
  return { t, me, assets, ids: assets.map((a) => a.assetId) };
}

describe('withdraw', () => {
  it('moves states 0 and 1 to 2, counts the others as locked, and sends one offer of the withdrawn assets', () => {
    const { t, me, ids, assets } = world([0, 1, 3, -1]);
    expect(withdraw(t.tx, me.platformId, `${ids.join(',')},junk,`, t.now)).toMatchObject({
      ok: true,
      value: { message: TRADES.withdrawalInitiated, updated: 2, locked: 2 },
    });
    expect(assets.map((a) => t.tx.get('assets', a.id)!.state)).toEqual([2, 2, 3, -1]);
    expect(t.tx.effects).toEqual([
      expect.objectContaining({
        kind: 'offer',
        offer: 'withdraw',
        platformId: me.platformId,
        assetIds: ids.slice(0, 2),
      }),
    ]);
  });

  it.each([
    ['', INVENTORY.noValidIds],
    ['a,b', INVENTORY.noValidIds],
    ['12345', INVENTORY.itemsNotFound],
  ])('refuses %j with %s', (ids, message) => {
    const { t, me } = world([0]);
    expect(withdraw(t.tx, me.platformId, ids, t.now)).toEqual({ ok: false, error: message });
  });

  it('refuses when nothing can be withdrawn, and refuses another user', () => {
    const { t, me, ids } = world([2, 3]);
    expect(withdraw(t.tx, me.platformId, ids.join(), t.now)).toEqual({ ok: false, error: INVENTORY.notWithdrawable });
    expect(withdraw(t.tx, 'other', ids.join(), t.now)).toEqual({ ok: false, error: INVENTORY.itemsNotFound });
  });
});

describe('settlement, revert, lists and resend', () => {
  const started = () => {
    const w = world([0, 1]);
    const made = withdraw(w.t.tx, w.me.platformId, w.ids.join(), w.t.now);
    if (!made.ok) throw new Error('refused');
    return { ...w, trade: w.t.tx.get('trades', made.value.trade)! };
  };

  it('an accepted withdrawal removes the assets', () => {
    const { t, trade } = started();
    expect(settleTrade(t.tx, trade.tradeId, 'accept', t.now)).toMatchObject({ ok: true, value: { status: 3 } });
    expect(t.tx.all('assets')).toEqual([]);
  });

  it('a failed withdrawal holds the assets until the revert restores them (state 0, not listed, -12)', () => {
    const { t, trade, assets } = started();
    expect(revertTrade(t.tx, trade.id, t.now)).toEqual({ ok: false, error: ADMIN.noFailedTrade });
    settleTrade(t.tx, trade.tradeId, 'fail', t.now);
    expect(assets.map((a) => t.tx.get('assets', a.id)!.state)).toEqual([2, 2]);
    expect(revertTrade(t.tx, trade.id, t.now + 1)).toEqual({
      ok: true,
      value: { message: TRADES.reverted, trade: trade.id, restored: 2 },
    });
    expect(assets.map((a) => [t.tx.get('assets', a.id)!.state, t.tx.get('assets', a.id)!.price])).toEqual([
      [0, null],
      [0, null],
    ]);
    expect(t.tx.get('trades', trade.id)!.status).toBe(-12);
    expect(revertTrade(t.tx, 999, t.now)).toEqual({ ok: false, error: ADMIN.tradeNotFound });
  });

  it('lists active and all trades newest first, hidden ones never', () => {
    const { t, me, trade } = started();
    const other = t.asset({ owner: me.platformId, itemId: 1, state: 0 });
    withdraw(t.tx, me.platformId, other.assetId, t.now);
    settleTrade(t.tx, trade.tradeId, 'accept', t.now);
    expect(listTrades(t.tx, me.platformId, 'all', 0, 10).trades.map((x) => x.status)).toEqual([0, 3]);
    expect(listTrades(t.tx, me.platformId, 'active', 0, 10).count).toBe(1);
    t.tx.put('trades', trade.id, { ...t.tx.get('trades', trade.id)!, status: -11 });
    expect(listTrades(t.tx, me.platformId, 'all', 0, 10).count).toBe(1);
  });

  it('resends a pending trade under the next offer ID; the old offer no longer settles it', () => {
    const { t, me, trade } = started();
    const resent = resendTrade(t.tx, me.platformId, trade.id, t.now + 9);
    expect(resent).toMatchObject({
      ok: true,
      value: {
        message: TRADES.resent,
        trade: { tradeId: String(Number(trade.tradeId) + 1), updated: String(t.now + 9) },
      },
    });
    expect(settleTrade(t.tx, trade.tradeId, 'accept', t.now).ok).toBe(false);
    expect(resendTrade(t.tx, 'other', trade.id, t.now)).toEqual({ ok: false, error: TRADES.tradeNotFound });
    settleTrade(t.tx, String(Number(trade.tradeId) + 1), 'accept', t.now);
    expect(resendTrade(t.tx, me.platformId, trade.id, t.now)).toEqual({ ok: false, error: TRADES.cannotResend });
  });
});
