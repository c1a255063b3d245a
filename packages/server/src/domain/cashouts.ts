// Cashouts (seed: "Cashout", "Cashout statuses", "Limits", "Events"; the document's
// openapi/paths/cashout_*.yaml). A request debits `amount + fee` from the balance (one `cashout`
// ledger entry) and collects the fee; a failed or cancelled one refunds both (a `refund` entry)
// and gives the fee back, which is what auditMoney expects (records.ts, Cashout). The payment
// provider is an outside effect (`payout`); what it reports comes back through `applyPayment`.
// Every stage sends a service e-mail (kind `cashout<Status>`).
import type { Schema } from '@marketplace/types';
import { move } from './ledger.ts';
import { CASHOUT } from './messages.ts';
import { cashoutFee, type PayoutMethod } from './money.ts';
import { mailService } from './notify.ts';
import type { Cashout, CashoutStatus } from './records.ts';
import type { User } from './state.ts';
import { fail, ok, type Tx } from './tx.ts';

/** Seed Limits: minimum 5000 cents for both providers. */
export const CASHOUT_MINIMUM = 5000;
/** Seed Limits: 24 hours between requests. */
export const CASHOUT_COOLDOWN_SECONDS = 24 * 60 * 60;
const DAY = 24 * 60 * 60;

/** Seed: processing time 1 to 3 business days (provider_a), 3 to 5 (provider_b). */
const PROCESSING: Record<PayoutMethod, { text: CashoutResult['estimatedCompletion']; days: number }> = {
  provider_a: { text: '1-3 business days', days: 3 },
  provider_b: { text: '3-5 business days', days: 5 },
};

/** Seed "States and transitions": what the provider may report from each status. */
const NEXT: Record<CashoutStatus, CashoutStatus[]> = {
  pending: ['processing', 'completed', 'failed'],
  processing: ['completed', 'failed'],
  completed: [],
  failed: [],
  cancelled: [],
};
export type PaymentReport = 'processing' | 'completed' | 'failed';

const isOpen = (c: Pick<Cashout, 'status'>) => c.status === 'pending' || c.status === 'processing';
const cashoutsOf = (tx: Tx, user: string) => tx.find('cashoutsByUser', user);

export interface CashoutRequest {
  user: string;
  amount: number;
  method: PayoutMethod;
  /** Optional payment e-mail (seed: when different from the account e-mail). */
  email?: string;
  now: number;
}

/** The seed's "Cashout request result". */
export type CashoutResult = Schema<'CashoutResult'>;

/**
 * Accepts a cashout request (seed: POST /cashout/process). Checks in the document's order: minimum,
 * method linked, account verified, no open request, cooldown, balance.
 */
export function requestCashout(tx: Tx, req: CashoutRequest) {
  const user = tx.get('users', req.user);
  if (!user) return fail(CASHOUT.methodNotLinked);
  if (req.amount < CASHOUT_MINIMUM) return fail(CASHOUT.belowMinimum);
  if (!user.paymentMethods.includes(req.method)) return fail(CASHOUT.methodNotLinked);
  if (!user.verified) return fail(CASHOUT.verificationRequired);
  const mine = cashoutsOf(tx, req.user);
  if (mine.some(isOpen)) return fail(CASHOUT.pendingExists);
  const last = Math.max(-Infinity, ...mine.map((c) => c.requestedAt));
  if (req.now - last < CASHOUT_COOLDOWN_SECONDS) return fail(CASHOUT.cooldown);
  const fee = cashoutFee(req.amount, req.method);
  const id = tx.nextId('cashouts');
  const paid = move(tx, {
    user: req.user,
    amount: -(req.amount + fee),
    type: 'cashout',
    description: `Cashout #${id} (${req.method}, fee ${fee})`,
    relatedId: id,
    now: req.now,
  });
  if (!paid) return fail(CASHOUT.insufficientBalance);
  tx.collectFee(fee);
  const cashout: Cashout = {
    id,
    user: req.user,
    amount: req.amount,
    fee,
    method: req.method,
    email: req.email ?? payoutEmail(user, req.method),
    status: 'pending',
    transactionId: '',
    requestedAt: req.now,
    estimatedCompletionAt: req.now + PROCESSING[req.method].days * DAY,
    completedAt: null,
  };
  tx.put('cashouts', id, cashout);
  tx.emit({ kind: 'payout', cashoutId: id, provider: req.method, amount: req.amount, email: cashout.email });
  mailStage(tx, cashout);
  return ok({
    cashoutId: id,
    amount: req.amount,
    method: req.method,
    fee,
    netAmount: req.amount,
    status: 'pending',
    estimatedCompletion: PROCESSING[req.method].text,
    message: 'Cashout request created',
  } satisfies CashoutResult);
}

/**
 * The e-mail a method pays to: its link's, else the account's. A method linked without either (a
 * test helper's user given `paymentMethods` but no `email`) pays to `<platformId>@example.com`, the
 * reference's own stand-in (the test-helpers document names none), because PaymentMethod's `email`
 * is required with format email: an answer never carries an empty one.
 */
const payoutEmail = (user: Pick<User, 'platformId' | 'email' | 'paymentLinks'>, method: PayoutMethod) =>
  user.paymentLinks?.[method]?.email ?? (user.email || `${user.platformId}@example.com`);

/** Cancels the caller's pending cashout and refunds it (document: POST /cashout/cancel). */
export function cancelCashout(tx: Tx, user: string, cashoutId: number, now: number) {
  const cashout = tx.get('cashouts', cashoutId);
  if (!cashout || cashout.user !== user) return fail(CASHOUT.notFound);
  if (cashout.status !== 'pending') return fail(CASHOUT.cannotCancel);
  return ok(settle(tx, cashout, 'cancelled', now));
}

/**
 * Applies what the payment provider reports (test helper POST /test_helpers/payments/{cashoutId}):
 * `Unknown cashout`, or `Invalid transition` out of a final status or back to `processing`.
 */
export function applyPayment(
  tx: Tx,
  cashoutId: number,
  outcome: PaymentReport,
  transactionId: string | undefined,
  now: number,
) {
  const cashout = tx.get('cashouts', cashoutId);
  if (!cashout) return fail('Unknown cashout');
  if (!NEXT[cashout.status].includes(outcome)) return fail('Invalid transition');
  const known = transactionId ? { ...cashout, transactionId } : cashout;
  return ok(settle(tx, known, outcome, now));
}

/** Moves a cashout to `status`, refunding amount + fee when it failed or was cancelled. */
function settle(tx: Tx, cashout: Cashout, status: CashoutStatus, now: number): Cashout {
  if (status === 'failed' || status === 'cancelled') {
    move(tx, {
      user: cashout.user,
      amount: cashout.amount + cashout.fee,
      type: 'refund',
      description: `Cashout #${cashout.id} ${status}: refunded`,
      relatedId: cashout.id,
      now,
    });
    tx.collectFee(-cashout.fee);
  }
  const next: Cashout = { ...cashout, status, completedAt: status === 'completed' ? now : cashout.completedAt };
  tx.put('cashouts', cashout.id, next);
  mailStage(tx, next);
  return next;
}

const STAGE_TEXT: Record<CashoutStatus, string> = {
  pending: 'We received your cashout request',
  processing: 'Your cashout is being sent',
  completed: 'Your cashout is complete',
  failed: 'Your cashout failed and was refunded',
  cancelled: 'Your cashout was cancelled and refunded',
};

/** The e-mail of a stage, to the account's address (seed Events: an e-mail at each stage). */
function mailStage(tx: Tx, cashout: Cashout): void {
  const kind = `cashout${cashout.status[0]!.toUpperCase()}${cashout.status.slice(1)}`;
  mailService(tx, cashout.user, kind, {
    subject: STAGE_TEXT[cashout.status],
    body: `${STAGE_TEXT[cashout.status]}: cashout #${cashout.id}, ${cashout.amount} cents by ${cashout.method} (fee ${cashout.fee} cents).`,
    data: { cashoutId: cashout.id, status: cashout.status, amount: cashout.amount, fee: cashout.fee },
  });
}

/** The document's CashoutRecord: completedAt only when completed, estimatedCompletionAt only when pending. */
export function cashoutView(c: Cashout): Schema<'CashoutRecord'> {
  return {
    id: c.id,
    amount: c.amount,
    method: c.method,
    status: c.status,
    requestedAt: String(c.requestedAt),
    ...(c.status === 'completed' && c.completedAt !== null ? { completedAt: String(c.completedAt) } : {}),
    ...(c.transactionId ? { transactionId: c.transactionId } : {}),
    ...(c.status === 'pending' ? { estimatedCompletionAt: String(c.estimatedCompletionAt) } : {}),
  };
}

/** One page of the caller's cashouts, newest first (seed: GET /user/getCashoutHistory). */
export function cashoutHistory(tx: Tx, user: string, page: number, perpage: number) {
  const mine = cashoutsOf(tx, user).sort((a, b) => b.requestedAt - a.requestedAt || b.id - a.id);
  return {
    cashouts: mine.slice(page * perpage, (page + 1) * perpage).map(cashoutView),
    total: mine.length,
    page,
    perpage,
    totalCashedOut: mine.filter((c) => c.status === 'completed').reduce((sum, c) => sum + c.amount, 0),
  };
}

/** The document's PaymentMethod rows of a user. */
export function linkedMethods(user: Pick<User, 'platformId' | 'paymentMethods' | 'paymentLinks' | 'email' | 'since'>) {
  return user.paymentMethods.map((method) => {
    const link = user.paymentLinks?.[method];
    return { method, email: payoutEmail(user, method), linkedAt: String(link?.linkedAt ?? user.since) };
  });
}

/** Links a provider with its payment e-mail (document: POST /cashout/link). */
export function linkMethod(tx: Tx, platformId: string, method: PayoutMethod, email: string, now: number) {
  const user = tx.get('users', platformId)!;
  if (user.paymentMethods.includes(method)) return fail(CASHOUT.methodAlreadyLinked);
  tx.put('users', platformId, {
    ...user,
    paymentMethods: [...user.paymentMethods, method],
    paymentLinks: { ...user.paymentLinks, [method]: { email, linkedAt: now } },
  });
  return ok(linkedMethods(tx.get('users', platformId)!).find((m) => m.method === method)!);
}

/** Unlinks a provider, refused while a request is open (document: POST /cashout/unlink). */
export function unlinkMethod(tx: Tx, platformId: string, method: PayoutMethod) {
  const user = tx.get('users', platformId)!;
  if (!user.paymentMethods.includes(method)) return fail(CASHOUT.methodNotLinked);
  if (cashoutsOf(tx, platformId).some(isOpen)) return fail(CASHOUT.pendingExists);
  const { [method]: _gone, ...links } = user.paymentLinks ?? {};
  tx.put('users', platformId, {
    ...user,
    paymentMethods: user.paymentMethods.filter((m) => m !== method),
    paymentLinks: links,
  });
  return ok(true);
}
