// What the test helpers do to settle a trade offer (POST /test_helpers/platform/offers/{tradeId})
// and report a payment (POST /test_helpers/payments/{cashoutId}); kept apart from the router so
// the trade and cashout areas own their settlement rules.

import type { TestHelperReply } from '@marketplace/types';
import type { PaymentOutcome } from '../adapters/payments.ts';
import type { OfferOutcome } from '../adapters/platform.ts';
import { applyPayment, cashoutView } from '../domain/cashouts.ts';
import { SETTLE, settleTrade } from '../domain/settlement.ts';
import { fail, ok } from '../domain/tx.ts';
import type { ServerDeps } from '../http/deps.ts';
import { execute } from '../http/execute.ts';

/** Settles a pending offer the service sent and applies the outcome to its trade. */
export async function settleOffer(
  deps: ServerDeps,
  tradeId: string,
  outcome: OfferOutcome,
): Promise<TestHelperReply<'postTestHelpersPlatformOffersTradeId'>> {
  const offer = deps.platform.offer(tradeId);
  if (!offer) return fail(SETTLE.unknownTrade);
  if (offer.status !== 0) return fail(SETTLE.notPending);
  // The trade changes first (durably); then the platform records the offer as settled.
  const settled = await execute(deps, (tx) => settleTrade(tx, tradeId, outcome, deps.clock.now()));
  if (!settled.ok) return settled;
  // Undefined when another instance settled the offer meanwhile.
  const settledOffer = deps.platform.settle(tradeId, outcome);
  return settledOffer ? ok(settledOffer) : fail(SETTLE.notPending);
}

/**
 * Applies what the payment provider reports to a cashout: the cashout changes first (durably,
 * refunded when it failed), then the provider's simulator records the report.
 */
export async function reportPayment(
  deps: ServerDeps,
  cashoutId: number,
  outcome: PaymentOutcome,
): Promise<TestHelperReply<'postTestHelpersPaymentsCashoutId'>> {
  const transactionId = deps.payments.submitted(cashoutId)?.transactionId;
  const applied = await execute(deps, (tx) => applyPayment(tx, cashoutId, outcome, transactionId, deps.clock.now()));
  if (!applied.ok) return applied;
  deps.payments.report(cashoutId, outcome);
  return ok(cashoutView(applied.value));
}
