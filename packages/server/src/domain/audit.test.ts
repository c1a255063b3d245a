import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditMoney } from './audit.ts';
import { move } from './ledger.ts';
import { cashoutFee } from './money.ts';
import type { CashoutStatus } from './records.ts';
import { orderCommand, runCommand, tradeCommand, USERS, world } from './test-commands.fixture.ts';
import { Tx } from './tx.ts';

describe('the money invariant', () => {
  it('holds after every step of thousands of random buy-order commands by several users', () => {
    fc.assert(
      fc.property(fc.array(orderCommand, { minLength: 1, maxLength: 60 }), (commands) => {
        const state = world();
        for (const c of commands) {
          const tx = new Tx(state);
          if (runCommand(tx, c, 2000).ok) tx.commit();
          expect(auditMoney(state).problems).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });

  // Issue 5: selling moves money between three places (the buyer's reservation or balance, the
  // seller's balance, the collected fee); none of it may appear or vanish, whoever sells to whom.
  it('holds after every step of random buy-order, pricing (selling into orders) and buying commands', () => {
    let intoOrders = 0;
    let fromBalance = 0;
    fc.assert(
      fc.property(fc.array(tradeCommand, { minLength: 20, maxLength: 80 }), (commands) => {
        const state = world();
        for (const [step, c] of commands.entries()) {
          const tx = new Tx(state);
          const outcome = runCommand(tx, c, 2000 + step);
          intoOrders += outcome.intoOrders;
          fromBalance += outcome.fromBalance;
          if (outcome.ok) tx.commit();
          const audit = auditMoney(state);
          expect(audit.problems).toEqual([]);
          expect(audit.fees).toBe(Object.values(state.sales).reduce((sum, x) => sum + x.fee, 0));
        }
      }),
      { numRuns: 300 },
    );
    // The commands did sell, both ways (not a vacuous pass).
    expect(intoOrders).toBeGreaterThan(50);
    expect(fromBalance).toBeGreaterThan(50);
  });

  it('notices money created from nothing, a balance off its ledger, and a reservation off its orders', () => {
    const state = world();
    state.users[USERS[0]!]!.balance += 1;
    state.users[USERS[1]!]!.reserved += 7;
    const problems = auditMoney(state).problems;
    expect(problems.some((p) => p.includes('but ledger'))).toBe(true);
    expect(problems.some((p) => p.includes('but orders hold'))).toBe(true);
    expect(problems.some((p) => p.startsWith('on the service'))).toBe(true);
  });
});

describe('the money invariant with cashouts', () => {
  /** A cashout of 5000 cents by the third user (15000 held) as records.ts describes it, then its outcome. */
  function cashout(state: ReturnType<typeof world>, outcome: CashoutStatus, refund: boolean) {
    const user = USERS[2]!;
    const amount = 5_000;
    const fee = cashoutFee(amount, 'provider_a');
    let tx = new Tx(state);
    const id = tx.nextId('cashouts');
    if (!move(tx, { user, amount: -(amount + fee), type: 'cashout', description: 'Cashout', relatedId: id, now: 3000 }))
      throw new Error('the cashout was refused');
    tx.collectFee(fee);
    const record = {
      id,
      user,
      amount,
      fee,
      method: 'provider_a' as const,
      email: '',
      status: 'pending' as CashoutStatus,
      transactionId: 'PA-1',
      requestedAt: 3000,
      estimatedCompletionAt: 3000,
      completedAt: null,
    };
    tx.put('cashouts', id, record);
    tx.commit();
    tx = new Tx(state);
    tx.put('cashouts', id, { ...record, status: outcome });
    if (refund) {
      move(tx, { user, amount: amount + fee, type: 'refund', description: 'Refund', relatedId: id, now: 3001 });
      tx.collectFee(-fee);
    }
    tx.commit();
  }

  it.each<[CashoutStatus, boolean]>([
    ['pending', false],
    ['processing', false],
    ['completed', false],
    ['failed', true],
    ['cancelled', true],
  ])('holds for a cashout that is %s', (status, refund) => {
    const state = world();
    cashout(state, status, refund);
    const audit = auditMoney(state);
    expect(audit.problems).toEqual([]);
    expect(audit.wentOut).toBe(refund ? 0 : 5_000);
  });

  it('notices a failed cashout that was never refunded', () => {
    const state = world();
    cashout(state, 'failed', false);
    expect(auditMoney(state).problems).toEqual([expect.stringMatching(/^on the service/)]);
  });
});
