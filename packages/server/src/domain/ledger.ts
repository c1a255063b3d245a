// The only way a balance changes: every movement writes a balance transaction of the seed's types
// (deposit, sale, purchase, payment, cashout, bonus, refund, fee), with the balance after it.
import type { LedgerEntry, User } from './state.ts';
import type { Tx } from './tx.ts';

export interface Movement {
  user: string;
  /** Signed cents: positive credits, negative debits. */
  amount: number;
  type: LedgerEntry['type'];
  description: string;
  relatedId: number;
  now: number;
}

/** Moves money in or out of a balance; false (nothing written) when it would go negative. */
export function move(tx: Tx, m: Movement): boolean {
  if (!Number.isSafeInteger(m.amount)) throw new Error(`ledger amounts are integer cents, got ${m.amount}`);
  const user = tx.get('users', m.user);
  if (!user) throw new Error(`unknown user ${m.user}`);
  const balance = user.balance + m.amount;
  if (balance < 0) return false;
  tx.put('users', user.platformId, { ...user, balance } as User);
  const id = tx.nextId('ledger');
  tx.put('ledger', id, {
    id,
    user: m.user,
    type: m.type,
    amount: m.amount,
    balance,
    description: m.description,
    timestamp: String(m.now),
    relatedId: m.relatedId,
  });
  return true;
}

/**
 * Moves cents between a user's balance and their buy-order reservation (positive reserves,
 * negative releases). A reservation is recorded as a `payment` entry and a release as a `refund`,
 * so the balance history explains every change of `balance`.
 */
export function reserve(
  tx: Tx,
  user: string,
  cents: number,
  description: string,
  relatedId: number,
  now: number,
): boolean {
  const before = tx.get('users', user);
  if (!before || before.reserved + cents < 0) return false; // cannot release more than is held
  if (!move(tx, { user, amount: -cents, type: cents >= 0 ? 'payment' : 'refund', description, relatedId, now }))
    return false;
  const after = tx.get('users', user)!;
  tx.put('users', user, { ...after, reserved: after.reserved + cents } as User);
  return true;
}
