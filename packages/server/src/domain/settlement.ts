// What happens when the platform settles a trade offer (test helpers, "The outside world"): the
// trade of the offer completes (3) or fails (-1), and its assets move as its kind says.
import type { OfferOutcome } from '../adapters/platform.ts';
import { settleDeposit } from './deposits.ts';
import { settleInstantSell } from './instant-sell.ts';
import { addNotification } from './notify.ts';
import { TRADE_STATUS, type Trade } from './records.ts';
import { closeTrade, settleWithdrawal, tradeByOffer } from './trades.ts';
import { fail, ok, type Tx } from './tx.ts';

/** Messages of the settle helper (the test-helpers document). */
export const SETTLE = { unknownTrade: 'Unknown trade', notPending: 'Trade is not pending' } as const;

/** Settles the pending trade whose current offer is `tradeId`, and tells its user (a `trade` notification). */
export function settleTrade(tx: Tx, tradeId: string, outcome: OfferOutcome, now: number) {
  const trade = tradeByOffer(tx, tradeId);
  if (!trade) return fail(SETTLE.unknownTrade);
  if (trade.status !== TRADE_STATUS.pending) return fail(SETTLE.notPending);
  const settled = settle(tx, trade, outcome, now);
  const done = settled.status === TRADE_STATUS.completed ? 'completed' : 'failed';
  // Seed Events: unread trades are readable through GET /user/notifications.
  addNotification(
    tx,
    settled.user,
    'trade',
    `Trade #${settled.id} (${settled.kind}) ${done}.`,
    {
      trade: settled.id,
      tradeId: settled.tradeId,
      kind: settled.kind,
      status: settled.status,
    },
    now,
  );
  return ok(settled);
}

function settle(tx: Tx, trade: Trade, outcome: OfferOutcome, now: number): Trade {
  switch (trade.kind) {
    case 'withdraw':
      return settleWithdrawal(tx, trade, outcome, now);
    case 'deposit':
      settleDeposit(tx, trade, outcome === 'accept', now);
      return tx.get('trades', trade.id) as Trade;
    case 'instant_sell':
      return outcome === 'accept' ? settleInstantSell(tx, trade, now) : closeTrade(tx, trade, TRADE_STATUS.failed, now);
  }
}
