import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditMoney } from './audit.ts';
import {
  applyPayment,
  CASHOUT_COOLDOWN_SECONDS,
  cancelCashout,
  cashoutHistory,
  linkedMethods,
  linkMethod,
  type PaymentReport,
  requestCashout,
  unlinkMethod,
} from './cashouts.ts';
import { CASHOUT } from './messages.ts';
import { cashoutFee, type PayoutMethod } from './money.ts';
import { emptyState } from './state.ts';
import { testState } from './test-state.fixture.ts';
import { Tx } from './tx.ts';
import { createUser } from './users.ts';

const NOW = 1_700_000_000;
const both: PayoutMethod[] = ['provider_a', 'provider_b'];
const errorOf = (r: { ok: boolean; error?: unknown }) => (r.ok ? undefined : r.error);

describe('requestCashout', () => {
  it('debits amount + fee in one cashout entry, collects the fee, and emits the payout and the pending e-mail', () => {
    const s = testState(NOW);
    const u = s.user({ balance: 10_000, paymentMethods: ['provider_b'], email: 'me@example.com' });
    const r = requestCashout(s.tx, { user: u.platformId, amount: 5001, method: 'provider_b', now: NOW });
    expect(r.ok && r.value).toMatchObject({ amount: 5001, fee: 76, netAmount: 5001, status: 'pending' });
    expect(s.tx.get('users', u.platformId)!.balance).toBe(10_000 - 5001 - 76);
    const entries = s.tx.all('ledger').filter((e) => e.type === 'cashout');
    expect(entries.map((e) => e.amount)).toEqual([-5077]);
    expect(s.tx.effects.map((e) => e.kind)).toEqual(['payout', 'mail']);
    expect(s.tx.effects[1]).toMatchObject({ mail: { kind: 'cashoutPending', to: 'me@example.com' } });
  });

  it.each([
    ['below the minimum', { amount: 4999 }, {}, CASHOUT.belowMinimum],
    ['a method not linked', { method: 'provider_b' as const }, {}, CASHOUT.methodNotLinked],
    ['an unverified account', {}, { verified: false }, CASHOUT.verificationRequired],
    [
      'one cent short of amount + fee',
      {},
      { balance: 5000 + cashoutFee(5000, 'provider_a') - 1 },
      CASHOUT.insufficientBalance,
    ],
  ])('refuses %s', (_what, request, account, message) => {
    const s = testState(NOW);
    const u = s.user({ balance: 100_000, paymentMethods: ['provider_a'], ...account });
    const r = requestCashout(s.tx, { user: u.platformId, amount: 5000, method: 'provider_a', now: NOW, ...request });
    expect(errorOf(r)).toBe(message);
  });

  it('allows one open request at a time and 24 hours between requests', () => {
    const s = testState(NOW);
    const u = s.user({ balance: 100_000, paymentMethods: ['provider_a'] });
    const ask = (now: number) => requestCashout(s.tx, { user: u.platformId, amount: 5000, method: 'provider_a', now });
    const first = ask(NOW);
    expect(errorOf(ask(NOW + CASHOUT_COOLDOWN_SECONDS))).toBe(CASHOUT.pendingExists);
    expect(applyPayment(s.tx, first.ok ? first.value.cashoutId : 0, 'completed', 'PA-1', NOW + 10).ok).toBe(true);
    expect(errorOf(ask(NOW + CASHOUT_COOLDOWN_SECONDS - 1))).toBe(CASHOUT.cooldown);
    expect(ask(NOW + CASHOUT_COOLDOWN_SECONDS).ok).toBe(true);
  });
});

describe('cancelCashout and applyPayment', () => {
  it('refund amount + fee and give the fee back when failed or cancelled; completed keeps the money out', () => {
    for (const end of ['failed', 'cancelled', 'completed'] as const) {
      const s = testState(NOW);
      const u = s.user({ balance: 20_000, paymentMethods: ['provider_a'] });
      const r = requestCashout(s.tx, { user: u.platformId, amount: 10_000, method: 'provider_a', now: NOW });
      const id = r.ok ? r.value.cashoutId : 0;
      const done =
        end === 'cancelled'
          ? cancelCashout(s.tx, u.platformId, id, NOW + 5)
          : applyPayment(s.tx, id, end, 'PA-00000001', NOW + 5);
      expect(done.ok && done.value.status).toBe(end);
      expect(s.tx.get('users', u.platformId)!.balance).toBe(end === 'completed' ? 20_000 - 10_200 : 20_000);
      const state = s.tx.state;
      s.tx.commit();
      expect(state.feesCollected).toBe(end === 'completed' ? 200 : 0);
      expect(auditMoney(state).problems).toEqual([]);
    }
  });

  it('refuse a stranger, a second cancel, a cancel once processing, and moves out of a final status', () => {
    const s = testState(NOW);
    const u = s.user({ balance: 50_000, paymentMethods: ['provider_a'] });
    const other = s.user({ balance: 50_000, paymentMethods: ['provider_a'] });
    const r = requestCashout(s.tx, { user: u.platformId, amount: 5000, method: 'provider_a', now: NOW });
    const id = r.ok ? r.value.cashoutId : 0;
    expect(errorOf(cancelCashout(s.tx, other.platformId, id, NOW))).toBe(CASHOUT.notFound);
    expect(errorOf(cancelCashout(s.tx, u.platformId, 999, NOW))).toBe(CASHOUT.notFound);
    expect(applyPayment(s.tx, id, 'processing', undefined, NOW).ok).toBe(true);
    expect(errorOf(cancelCashout(s.tx, u.platformId, id, NOW))).toBe(CASHOUT.cannotCancel);
    expect(errorOf(applyPayment(s.tx, id, 'processing', undefined, NOW))).toBe('Invalid transition');
    expect(applyPayment(s.tx, id, 'failed', undefined, NOW).ok).toBe(true);
    expect(errorOf(applyPayment(s.tx, id, 'completed', undefined, NOW))).toBe('Invalid transition');
    expect(errorOf(applyPayment(s.tx, 999, 'completed', undefined, NOW))).toBe('Unknown cashout');
  });

  it('history: newest first, completedAt only when completed, estimatedCompletionAt only when pending, totalCashedOut', () => {
    const s = testState(NOW);
    const u = s.user({ balance: 100_000, paymentMethods: ['provider_b'] });
    const first = requestCashout(s.tx, { user: u.platformId, amount: 6000, method: 'provider_b', now: NOW });
    applyPayment(s.tx, first.ok ? first.value.cashoutId : 0, 'completed', 'PB-00000001', NOW + 100);
    requestCashout(s.tx, {
      user: u.platformId,
      amount: 7000,
      method: 'provider_b',
      now: NOW + CASHOUT_COOLDOWN_SECONDS,
    });
    const page = cashoutHistory(s.tx, u.platformId, 0, 10);
    expect(page).toMatchObject({ total: 2, totalCashedOut: 6000, page: 0, perpage: 10 });
    expect(page.cashouts).toEqual([
      {
        id: 2,
        amount: 7000,
        method: 'provider_b',
        status: 'pending',
        requestedAt: String(NOW + CASHOUT_COOLDOWN_SECONDS),
        estimatedCompletionAt: String(NOW + CASHOUT_COOLDOWN_SECONDS + 5 * 86_400),
      },
      {
        id: 1,
        amount: 6000,
        method: 'provider_b',
        status: 'completed',
        requestedAt: String(NOW),
        completedAt: String(NOW + 100),
        transactionId: 'PB-00000001',
      },
    ]);
    expect(cashoutHistory(s.tx, u.platformId, 1, 1).cashouts.map((c) => c.id)).toEqual([1]);
  });
});

describe('linkMethod and unlinkMethod', () => {
  it('link once per provider with its e-mail, which the payout then uses; unlink waits for the open request', () => {
    const s = testState(NOW);
    const u = s.user({ balance: 100_000, email: 'account@example.com' });
    expect(linkMethod(s.tx, u.platformId, 'provider_a', 'pay@example.com', NOW + 1)).toEqual({
      ok: true,
      value: { method: 'provider_a', email: 'pay@example.com', linkedAt: String(NOW + 1) },
    });
    expect(errorOf(linkMethod(s.tx, u.platformId, 'provider_a', 'x@example.com', NOW))).toBe(
      CASHOUT.methodAlreadyLinked,
    );
    const r = requestCashout(s.tx, { user: u.platformId, amount: 5000, method: 'provider_a', now: NOW });
    expect(s.tx.effects[0]).toMatchObject({ kind: 'payout', email: 'pay@example.com' });
    expect(errorOf(unlinkMethod(s.tx, u.platformId, 'provider_a'))).toBe(CASHOUT.pendingExists);
    applyPayment(s.tx, r.ok ? r.value.cashoutId : 0, 'completed', undefined, NOW);
    expect(unlinkMethod(s.tx, u.platformId, 'provider_a').ok).toBe(true);
    expect(errorOf(unlinkMethod(s.tx, u.platformId, 'provider_a'))).toBe(CASHOUT.methodNotLinked);
    expect(linkedMethods(s.tx.get('users', u.platformId)!)).toEqual([]);
  });
});

describe('the e-mail a method pays to', () => {
  it("is the link's, else the account's, else <platformId>@example.com: never an empty string", () => {
    const s = testState(NOW);
    const linked = s.user({ balance: 100_000, email: 'account@example.com', paymentMethods: ['provider_b'] });
    linkMethod(s.tx, linked.platformId, 'provider_a', 'pay@example.com', NOW + 1);
    expect(linkedMethods(s.tx.get('users', linked.platformId)!)).toEqual([
      { method: 'provider_b', email: 'account@example.com', linkedAt: String(NOW) },
      { method: 'provider_a', email: 'pay@example.com', linkedAt: String(NOW + 1) },
    ]);
    const bare = s.user({ balance: 100_000, paymentMethods: ['provider_a'] });
    const stand = `${bare.platformId}@example.com`;
    expect(linkedMethods(s.tx.get('users', bare.platformId)!)).toEqual([
      { method: 'provider_a', email: stand, linkedAt: String(NOW) },
    ]);
    requestCashout(s.tx, { user: bare.platformId, amount: 5000, method: 'provider_a', now: NOW });
    expect(s.tx.effects.find((e) => e.kind === 'payout')).toMatchObject({ email: stand });
  });
});

// Issue 5's money invariant under random cashout traffic: requests (valid or not), cancels by
// anyone, provider reports in any order and clock jumps, by several users at once.
describe('the money invariant under random cashout commands', () => {
  const USERS = ['76561198000000011', '76561198000000012', '76561198000000013'];
  const step = fc.oneof(
    fc.record({
      kind: fc.constant('process' as const),
      user: fc.nat(USERS.length - 1),
      amount: fc.integer({ min: 4_000, max: 40_000 }),
      method: fc.constantFrom(...both),
    }),
    fc.record({ kind: fc.constant('cancel' as const), user: fc.nat(USERS.length - 1), pick: fc.nat(20) }),
    fc.record({
      kind: fc.constant('payment' as const),
      pick: fc.nat(20),
      outcome: fc.constantFrom<PaymentReport>('processing', 'completed', 'failed'),
    }),
    fc.record({ kind: fc.constant('advance' as const), seconds: fc.constantFrom(60, 3_600, 86_400, 90_000) }),
  );

  it('holds after every command, with at most one open request per user and balances explained by the cashouts', () => {
    const reached = new Set<string>();
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 50 }), (steps) => {
        const state = emptyState();
        const setup = new Tx(state);
        const opening = [30_000, 60_000, 100_000];
        for (const [i, id] of USERS.entries())
          createUser(setup, { balance: opening[i], paymentMethods: i === 0 ? ['provider_a'] : both }, `k${i}`, id, NOW);
        setup.commit();
        let now = NOW;
        for (const s of steps) {
          const tx = new Tx(state);
          const ids = Object.keys(state.cashouts).map(Number);
          const picked = ids.length > 0 && s.kind !== 'process' && s.kind !== 'advance' ? ids[s.pick % ids.length]! : 1;
          const result =
            s.kind === 'process'
              ? requestCashout(tx, { user: USERS[s.user]!, amount: s.amount, method: s.method, now })
              : s.kind === 'cancel'
                ? cancelCashout(tx, USERS[s.user]!, picked, now)
                : s.kind === 'payment'
                  ? applyPayment(tx, picked, s.outcome, undefined, now)
                  : undefined;
          if (s.kind === 'advance') now += s.seconds;
          if (result?.ok) {
            tx.commit();
            if (s.kind !== 'advance') reached.add(result.value.status);
          }
          expect(auditMoney(state).problems).toEqual([]);
          for (const [i, user] of USERS.entries()) {
            const mine = Object.values(state.cashouts).filter((c) => c.user === user);
            expect(mine.filter((c) => c.status === 'pending' || c.status === 'processing').length).toBeLessThanOrEqual(
              1,
            );
            const out = mine
              .filter((c) => c.status !== 'failed' && c.status !== 'cancelled')
              .reduce((sum, c) => sum + c.amount + c.fee, 0);
            expect(state.users[user]!.balance).toBe(opening[i]! - out);
          }
          const kept = Object.values(state.cashouts).filter((c) => c.status !== 'failed' && c.status !== 'cancelled');
          expect(state.feesCollected).toBe(kept.reduce((sum, c) => sum + c.fee, 0));
        }
      }),
      { numRuns: 300 },
    );
    // The commands reached every status, so the invariant was checked across the whole lifecycle.
    expect([...reached].sort()).toEqual(['cancelled', 'completed', 'failed', 'pending', 'processing']);
  });
});
