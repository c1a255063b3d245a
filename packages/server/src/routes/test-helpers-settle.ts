// What the test helpers do to settle a trade offer (POST /test_helpers/platform/offers/{tradeId})
// and report a payment (POST /test_helpers/payments/{cashoutId}); kept apart from the router so
// the trade and cashout areas own their settlement rules.

import type { PaymentOutcome } from '../adapters/payments.ts';
import type { OfferOutcome } from '../adapters/platform.ts';
import { applyPayment, cashoutView } from '../domain/cashouts.ts';
import { SETTLE, settleTrade } from '../domain/settlement.ts';
import type { Result } from '../domain/tx.ts';
import type { ServerDeps } from '../http/deps.ts';
import { execute } from '../http/execute.ts';

/** Settles a pending offer the service sent and applies the outcome to its trade. */
export async function settleOffer(deps: ServerDeps, tradeId: string, outcome: OfferOutcome): Promise<Result<unknown>> {
  const offer = deps.platform.offer(tradeId);
  if (!offer) return { ok: false, error: SETTLE.unknownTrade };
  if (offer.status !== 0) return { ok: false, error: SETTLE.notPending };
  // The trade changes first (durably); then the platform records the offer as settled.
  const settled = await execute(deps, (tx) => settleTrade(tx, tradeId, outcome, deps.clock.now()));
  if (!settled.ok) return settled;
  return { ok: true, value: deps.platform.settle(tradeId, outcome) };
}

/**
 * Applies what the payment provider reports to a cashout: the cashout changes first (durably,
 * refunded when it failed), then the provider's simulator records the report.
 */
export async function reportPayment(
  deps: ServerDeps,
  cashoutId: number,
  outcome: PaymentOutcome,
): Promise<Result<unknown>> {
  const transactionId = deps.payments.submitted(cashoutId)?.transactionId;
  const applied = await execute(deps, (tx) => applyPayment(tx, cashoutId, outcome, transactionId, deps.clock.now()));
  if (!applied.ok) return applied;
  deps.payments.report(cashoutId, outcome);
  return { ok: true, value: cashoutView(applied.value) };
}
