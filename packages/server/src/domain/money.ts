// Money is integer cents everywhere (seed: "Monetary amounts are integer cents"). These helpers
// compute fees with integer arithmetic only; a non-integer here is a bug, not bad input.
import Type, { type Static } from 'typebox';

function cents(value: number, what: string): number {
  if (!Number.isSafeInteger(value)) throw new Error(`${what} must be integer cents, got ${value}`);
  return value;
}

/** What a seller receives for a sale: floor(price x 95 / 100) (seed: 5 percent seller fee). */
export function sellerProceeds(price: number): number {
  return Math.floor((cents(price, 'price') * 95) / 100);
}

/** The 5 % seller fee: the rest of the price, so it rounds in the marketplace's favour. */
export function saleFee(price: number): number {
  return price - sellerProceeds(price);
}

/** The payout methods of cashouts. */
export const PayoutMethod = Type.Enum(['provider_a', 'provider_b']);
export type PayoutMethod = Static<typeof PayoutMethod>;
const CASHOUT_RATE_PER_MILLE: Record<PayoutMethod, number> = { provider_a: 20, provider_b: 15 };

/** The cashout fee, ceil(amount x rate), charged on top (seed: 2 percent / 1.5 percent). */
export function cashoutFee(amount: number, method: PayoutMethod): number {
  return Math.ceil((cents(amount, 'amount') * CASHOUT_RATE_PER_MILLE[method]) / 1000);
}
