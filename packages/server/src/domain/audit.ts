// The money invariant (issue 5: "money is never created or lost"): every balance equals the sum of
// its ledger entries, every reservation equals what its buy orders hold, and all money on the
// service (balances, reservations, collected fees) equals what came in (deposits, bonuses) minus
// what went out (cashouts not failed or cancelled: a failed one is refunded, seed "Cashout
// statuses"). Outflow is read from the cashout records, not from `cashout` ledger entries, because
// an entry also carries the fee (records.ts, Cashout), which stays on the service as a fee.
import type { State } from './state.ts';

export interface Audit {
  balances: number;
  reserved: number;
  fees: number;
  cameIn: number;
  wentOut: number;
  problems: string[];
}

/** Checks the money invariant over a whole state; `problems` is empty when it holds. */
export function auditMoney(state: State): Audit {
  const problems: string[] = [];
  const ledgerSum = new Map<string, number>();
  let cameIn = 0;
  let wentOut = 0;
  for (const e of Object.values(state.ledger)) {
    ledgerSum.set(e.user, (ledgerSum.get(e.user) ?? 0) + e.amount);
    if (e.type === 'deposit' || e.type === 'bonus') cameIn += e.amount;
  }
  for (const c of Object.values(state.cashouts))
    if (c.status !== 'failed' && c.status !== 'cancelled') wentOut += c.amount;
  const held = new Map<string, number>();
  for (const o of Object.values(state.buyOrders))
    held.set(o.platformid, (held.get(o.platformid) ?? 0) + o.price * o.amount);
  let balances = 0;
  let reserved = 0;
  for (const u of Object.values(state.users)) {
    balances += u.balance;
    reserved += u.reserved;
    if (!Number.isSafeInteger(u.balance) || u.balance < 0) problems.push(`${u.platformId}: balance ${u.balance}`);
    if ((ledgerSum.get(u.platformId) ?? 0) !== u.balance)
      problems.push(`${u.platformId}: balance ${u.balance} but ledger ${ledgerSum.get(u.platformId) ?? 0}`);
    if ((held.get(u.platformId) ?? 0) !== u.reserved)
      problems.push(`${u.platformId}: reserved ${u.reserved} but orders hold ${held.get(u.platformId) ?? 0}`);
  }
  const fees = state.feesCollected;
  if (balances + reserved + fees !== cameIn - wentOut)
    problems.push(`on the service ${balances + reserved + fees}, in minus out ${cameIn - wentOut}`);
  return { balances, reserved, fees, cameIn, wentOut, problems };
}
