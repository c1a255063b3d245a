import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditMoney } from './audit.ts';
import { placeOrder, removeOrder, updateOrder } from './buy-orders.ts';
import { putAsset, putItem } from './catalog.ts';
import { priceAssets } from './inventory.ts';
import { move } from './ledger.ts';
import { cashoutFee } from './money.ts';
import type { CashoutStatus } from './records.ts';
import { sell } from './sale.ts';
import { emptyState } from './state.ts';
import { Tx } from './tx.ts';
import { createUser } from './users.ts';

const USERS = ['76561198000000001', '76561198000000002', '76561198000000003'];

/** A state with three users and three items, committed. */
function world() {
  const state = emptyState();
  const tx = new Tx(state);
  for (const [i, id] of USERS.entries()) createUser(tx, { balance: 5_000 * (i + 1) }, `key-${i}`, id, 1000);
  for (const name of ['A', 'B', 'C']) putItem(tx, { name, game: 440 });
  tx.commit();
  return state;
}

const command = fc.record({
  kind: fc.constantFrom('place', 'update', 'remove'),
  user: fc.integer({ min: 0, max: USERS.length - 1 }),
  item: fc.integer({ min: 1, max: 3 }),
  price: fc.integer({ min: 1, max: 4_000 }),
  amount: fc.integer({ min: 1, max: 5 }),
});

describe('the money invariant', () => {
  it('holds after every step of thousands of random buy-order commands by several users', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 60 }), (commands) => {
        const state = world();
        for (const c of commands) {
          const tx = new Tx(state);
          const terms = { owner: USERS[c.user]!, itemId: c.item, price: c.price, amount: c.amount, now: 2000 };
          const result =
            c.kind === 'place'
              ? placeOrder(tx, terms)
              : c.kind === 'update'
                ? updateOrder(tx, terms)
                : removeOrder(tx, terms.owner, c.item, 2000);
          if (result.ok) tx.commit();
          expect(auditMoney(state).problems).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });

  // Issue 5: selling moves money between three places (the buyer's reservation or balance, the
  // seller's balance, the collected fee); none of it may appear or vanish, whoever sells to whom.
  const trade = fc.record({
    kind: fc.constantFrom('place', 'update', 'remove', 'asset', 'price', 'buy'),
    user: fc.integer({ min: 0, max: USERS.length - 1 }),
    item: fc.integer({ min: 1, max: 3 }),
    price: fc.integer({ min: 1, max: 4_000 }),
    amount: fc.integer({ min: 1, max: 5 }),
    pick: fc.nat(),
  });

  it('holds after every step of random buy-order, pricing (selling into orders) and buying commands', () => {
    let intoOrders = 0;
    let fromBalance = 0;
    fc.assert(
      fc.property(fc.array(trade, { minLength: 20, maxLength: 80 }), (commands) => {
        const state = world();
        for (const [step, c] of commands.entries()) {
          const tx = new Tx(state);
          const owner = USERS[c.user]!;
          const now = 2000 + step;
          const terms = { owner, itemId: c.item, price: c.price, amount: c.amount, now };
          const pick = <T>(xs: T[]): T | undefined => xs[c.pick % Math.max(1, xs.length)];
          let ok = false;
          if (c.kind === 'place') ok = placeOrder(tx, terms).ok;
          else if (c.kind === 'update') ok = updateOrder(tx, terms).ok;
          else if (c.kind === 'remove') ok = removeOrder(tx, owner, c.item, now).ok;
          else if (c.kind === 'asset') ok = !!putAsset(tx, { owner, itemId: c.item }, now);
          else if (c.kind === 'price') {
            const asset = pick(tx.all('assets').filter((a) => a.user === owner));
            const priced = asset && priceAssets(tx, { owner, ids: asset.assetId, price: c.price, now });
            ok = !!priced?.ok;
            if (priced?.ok) intoOrders += priced.value.sold;
          } else {
            // A purchase out of the balance (what a cart checkout does) at the listed price.
            const asset = pick(tx.all('assets').filter((a) => a.state === 1 && a.user !== owner));
            ok = !!asset && sell(tx, { asset, buyer: owner, price: asset.price!, now }).ok;
            if (ok) fromBalance += 1;
          }
          if (ok) tx.commit();
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
