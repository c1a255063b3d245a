// Money as the suite computes it, in whole cents: the seller's proceeds of a sale and the cashout
// fees; test prices where the rounding under test differs from the other roundings (a fee rounded
// the wrong way fails); and balance checks whose failure states the balances compared, pinned on
// the `GET /user/balance` that read them.
import { content } from './behavior.ts';
import { type Answer, assertValue, call, setUpOk } from './http.ts';

/** What the seller receives for a sale at `price`: floor(price x 95 / 100), the 5 % fee rounded in the marketplace's favour. */
export const sellerProceeds = (price: number): number => Math.floor((price * 95) / 100);

/**
 * The first price from `from` on whose proceeds floor(price x 95 / 100) differ from both round()
 * and ceil(): 95 % of it has a fraction above one half, so a fee rounded to nearest or up fails.
 */
export function priceWhereFloorMatters(from: number): number {
  let price = from;
  while ((price * 95) % 100 <= 50) price += 1;
  return price;
}

/**
 * The first amount from `from` whose fee ceil(amount x permille / 1000) differs from both round()
 * and floor(): the fraction is below one half, so a fee rounded to nearest or down fails.
 */
export function amountWhereCeilMatters(from: number, permille: number): number {
  let amount = from;
  while ((amount * permille) % 1000 === 0 || (amount * permille) % 1000 >= 500) amount += 1;
  return amount;
}

type Me = { token: string; ip: string };

/** The balance of `me` in cents, read through `GET /user/balance` (which must answer), and that answer. */
export async function readBalance(me: Me): Promise<{ cents: number; answer: Answer }> {
  const answer = await call('GET', '/user/balance', { token: me.token, ip: me.ip, purpose: 'read a balance' });
  const cents = content(answer)?.balance;
  setUpOk(answer, answer.status === 200 && Number.isInteger(cents), 'the balance the test compares');
  return { cents, answer };
}

/**
 * Fails unless the balance of `me` is `expected` cents, stating the expected and the received
 * balance (and, given `before`, the balance before and the change), pinned on the balance read.
 */
export async function assertBalance(me: Me, expected: number, what: string, before?: number): Promise<void> {
  const { cents, answer } = await readBalance(me);
  const change = (n: number) => `${n >= 0 ? '+' : ''}${n}`;
  const detail =
    before === undefined
      ? ''
      : ` (before ${before}: expected ${change(expected - before)}, received ${change(cents - before)})`;
  assertValue(answer, cents, expected, `${what}${detail}`);
}
