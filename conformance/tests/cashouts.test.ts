// Cashouts (seed: "Cashout", "Cashout request result", "Cashout statuses", "Limits", "Events"): a
// linked method, a verified account, minimum 5000 cents, a fee of 2 percent (provider_a) or 1.5
// percent (provider_b) charged on top, one open request at a time, 24 hours between requests, and
// the lifecycle pending -> processing -> completed / failed (refunded), or cancelled while pending,
// with an e-mail at each stage. Link, unlink, methods and cancel are the document's extensions.
import { beforeAll, describe, it } from 'vitest';
import { content, getOk, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { boundOf, operationOf, pastBoundMessage } from '../src/kit/bounds.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { type Answer, assertThat, call, pinsMeaning, setUpOk } from '../src/kit/http.ts';
import { mailsTo } from '../src/kit/mail.ts';
import { amountWhereCeilMatters, assertBalance } from '../src/kit/money.ts';
import { sides } from '../src/kit/rule.ts';
import { getAs, postAs } from '../src/kit/user-calls.ts';
import { balancePage } from '../src/kit/variants.ts';

beforeAll(resetIfPossible);

type Me = Awaited<ReturnType<typeof session>>;
type Method = 'provider_a' | 'provider_b';

/** The fee the document states: ceil(amount x rate), 2 percent or 1.5 percent, in whole cents. */
const feeOf = (amount: number, method: Method) =>
  method === 'provider_a' ? Math.ceil((amount * 20) / 1000) : Math.ceil((amount * 15) / 1000);
const DAY = 24 * 60 * 60;

const cashout = (me: Me, amount: number, method: Method, email?: string) =>
  postAs(me, '/cashout/process', email === undefined ? { amount, method } : { amount, method, email });
/** The ID of an accepted cashout request: a refused one fails the test's set-up, pinned on it. */
const cashoutId = (a: Answer): number => {
  setUpOk(a, a.status === 200 && Number.isInteger(content(a)?.cashoutId), 'a cashout request the test goes on with');
  return content(a).cashoutId;
};
const history = async (me: Me) => content(await getOk('/user/getCashoutHistory', {}, me.token, me.ip));

let mailbox = 0;
/** A verified user with a unique address, `methods` linked and `balance` cents. */
const cashier = async (balance: number, methods: Method[] = ['provider_a'], extra: Record<string, unknown> = {}) => {
  const email = `cashier${++mailbox}-${Date.now()}@example.com`;
  return { ...(await session({ balance, paymentMethods: methods, email, ...extra })), email };
};
const refused = (a: Answer, message: string, why: string) =>
  assertThat(a, a.status === 300 && a.message === message, `${why}: ${message}`);

describe('POST /cashout/process', () => {
  it('Given a balance of exactly amount + fee, a provider_a cashout is accepted pending with the 2 percent fee on top, and the balance is emptied [R-CASHOUT-RULES, R-LIMIT-CASHOUT, R-TRANS-CASHOUT-PENDING]', async (ctx) => {
    await needsHelpers(ctx);
    // 2 % of it has a fraction below one half: a fee rounded down or to nearest fails.
    const amount = amountWhereCeilMatters(12_345, 20);
    const fee = feeOf(amount, 'provider_a');
    const me = await cashier(amount + fee);
    const answer = await cashout(me, amount, 'provider_a');
    assertThat(answer, answer.status === 200, 'the request is accepted');
    // The fee rounded up (not to nearest), on top (netAmount is the amount, not amount - fee).
    pinsMeaning('POST /cashout/process fee', 'POST /cashout/process amount', 'POST /cashout/process netAmount');
    const result = content(answer);
    assertThat(answer, result.fee === fee, `fee ceil(${amount} x 2%) = ${fee}`);
    assertThat(answer, result.amount === amount && result.netAmount === amount, 'the amount is paid out in full');
    assertThat(answer, result.status === 'pending' && result.method === 'provider_a', 'pending, provider_a');
    assertThat(answer, result.estimatedCompletion === '1-3 business days', 'provider_a takes 1 to 3 business days');
    await assertBalance(me, 0, 'amount + fee left the balance', amount + fee);
  });

  it('Given a provider_b link, the fee is 1.5 percent rounded up and the wait is 3 to 5 business days [R-CASHOUT-RULES, R-LIMIT-CASHOUT]', async (ctx) => {
    await needsHelpers(ctx);
    const amount = amountWhereCeilMatters(5001, 15);
    const fee = feeOf(amount, 'provider_b');
    const me = await cashier(10_000, ['provider_b']);
    const answer = await cashout(me, amount, 'provider_b');
    const result = content(answer);
    assertThat(answer, answer.status === 200 && result.fee === fee, `fee ceil(${amount} x 1.5%) = ${fee}`);
    assertThat(answer, result.estimatedCompletion === '3-5 business days', 'provider_b takes 3 to 5 business days');
    // The other provider than the first test's, with its own wait: neither is a constant.
    assertThat(answer, result.method === 'provider_b' && result.status === 'pending', 'pending, provider_b');
    pinsMeaning(
      'POST /cashout/process method',
      'POST /cashout/process status',
      'POST /cashout/process estimatedCompletion',
    );
    await assertBalance(me, 10_000 - amount - fee, 'amount + fee left the balance', 10_000);
  });

  it('Given one cent less than amount + fee, the request is refused with Insufficient balance and nothing moves [R-CASHOUT-RULES, R-MSG-CASHOUT-PROCESS]', async (ctx) => {
    await needsHelpers(ctx);
    const amount = 8000;
    const me = await cashier(amount + feeOf(amount, 'provider_a') - 1);
    refused(await cashout(me, amount, 'provider_a'), 'Insufficient balance', 'the fee is charged on top');
    const before = amount + feeOf(amount, 'provider_a') - 1;
    await assertBalance(me, before, 'the balance is unchanged', before);
  });

  const processing = operationOf('POST', '/cashout/process');
  const least = boundOf(processing, 'amount', 'minimum');
  const most = boundOf(processing, 'amount', 'maximum');
  it(
    `Given amounts and accounts that break a rule, each answers its seed message; ${least} and ${most} cents are accepted, ${least - 1} and ${most + 1} refused, and one open request at a time [R-MSG-CASHOUT-PROCESS, R-LIMIT-CASHOUT, R-CASHOUT-RULES]`,
    sides(['at the limit', 'past the limit'], 'R-LIMIT-CASHOUT'),
    async (ctx) => {
      await needsHelpers(ctx);
      const me = await cashier(100_000);
      refused(
        await cashout(me, least - 1, 'provider_a'),
        pastBoundMessage(processing, 'amount', 'minimum'),
        `the minimum is ${least} cents`,
      );
      refused(await cashout(me, 6000, 'provider_b'), 'Payment method not linked', 'only provider_a is linked');
      const unverified = await cashier(100_000, ['provider_a'], { verified: false });
      refused(
        await cashout(unverified, 6000, 'provider_a'),
        'Account verification required',
        'the account is not verified',
      );
      const first = await cashout(me, least, 'provider_a');
      assertThat(first, first.status === 200, `a first request of ${least} cents, the minimum, is accepted`);
      refused(await cashout(me, least, 'provider_a'), 'Pending cashout exists', 'one open request at a time');
      // The document's maximum, by a user who can pay it and its fee.
      const rich = await cashier(most + 1 + feeOf(most + 1, 'provider_a'));
      refused(
        await cashout(rich, most + 1, 'provider_a'),
        pastBoundMessage(processing, 'amount', 'maximum'),
        `above ${most} cents`,
      );
      const largest = await cashout(rich, most, 'provider_a');
      assertThat(largest, largest.status === 200, `${most} cents, the maximum, is accepted`);
    },
  );

  it('Given a cancelled request, 24 hours must pass before the next one (Cooldown period) [R-LIMIT-CASHOUT, R-MSG-CASHOUT-PROCESS]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await cashier(100_000);
    const first = content(await cashout(me, 5000, 'provider_a'));
    const cancel = await postAs(me, '/cashout/cancel', { cashoutId: first.cashoutId });
    assertThat(cancel, cancel.status === 200, 'the pending request is cancelled');
    refused(await cashout(me, 5000, 'provider_a'), 'Cooldown period', 'the previous request is not 24 hours old');
    await helpers.advance(DAY - 60);
    refused(await cashout(me, 5000, 'provider_a'), 'Cooldown period', 'one minute short of 24 hours');
    await helpers.advance(60);
    const again = await cashout(me, 5000, 'provider_a');
    assertThat(again, again.status === 200, '24 hours after the previous request a new one is accepted');
  });

  it('Given a cashout request, GET /user/getBalanceHistory with type cashout lists its debit: the amount, with the fee unless the fee is an entry of its own [R-CASHOUT-RULES, R-BALANCE-HISTORY]', async (ctx) => {
    await needsHelpers(ctx);
    const amount = 6000;
    const fee = feeOf(amount, 'provider_b');
    const me = await cashier(20_000, ['provider_b']);
    cashoutId(await cashout(me, amount, 'provider_b'));
    // The seed's `cashout` type is the debit of a cashout; the fee may ride on it or be a `fee`
    // entry (a type the filter does not take: read from the whole history).
    const filtered = await getAs(me, '/user/getBalanceHistory', { type: 'cashout', count: 50 });
    const entries = balancePage(content(filtered)).values;
    const debits = entries.map((e) => e.amount as number);
    const all = balancePage(content(await getAs(me, '/user/getBalanceHistory', { count: 50 }))).values;
    const fees = all.filter((e) => e.type === 'fee').map((e) => e.amount as number);
    const sum = (xs: number[]) => xs.reduce((n, a) => n + a, 0);
    assertThat(
      filtered,
      debits.length >= 1 &&
        // "Human-readable description of the change": any words, but not none.
        entries.every((e) => typeof e.description === 'string' && e.description.trim() !== '') &&
        ((sum(debits) === -(amount + fee) && sum(fees) === 0) || (sum(debits) === -amount && sum(fees) === -fee)),
      `the cashout entries debit ${amount + fee} (or ${amount}, with a fee entry of ${fee}), each described; got cashout ${JSON.stringify(entries)}, fee ${JSON.stringify(fees)}`,
    );
  });

  it('Given three requests, GET /user/getCashoutHistory pages them by count, perpage or limit (the one sent) [R-CASHOUT-HISTORY]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await cashier(100_000);
    for (let i = 0; i < 3; i++) {
      const made = content(await cashout(me, 5000 + i, 'provider_a'));
      setUpOk(await postAs(me, '/cashout/cancel', { cashoutId: made.cashoutId }));
      await helpers.advance(DAY);
    }
    for (const [name, size] of [
      ['limit', 1],
      ['perpage', 2],
      ['count', 3],
    ] as const) {
      const answer = await getAs(me, '/user/getCashoutHistory', { [name]: size });
      const rows = content(answer).cashouts as { amount: number }[];
      assertThat(answer, rows.length === size, `${name}=${size} gives ${size} row(s)`);
    }
    const second = await getAs(me, '/user/getCashoutHistory', { limit: 1, page: 1 });
    const page = content(second);
    assertThat(
      second,
      page.cashouts.map((r: { amount: number }) => r.amount).join() === '5001' &&
        page.page === 1 &&
        page.perpage === 1 &&
        page.total === 3,
      'page 1 of size 1 holds the middle request (5001); page 1, perpage 1, total 3',
    );
    // Page 1 of size 2 starts at the third row: a page counted in rows (or page / size) would not.
    const last = await getAs(me, '/user/getCashoutHistory', { perpage: 2, page: 1 });
    const lastRows = (content(last).cashouts as { amount: number }[]).map((r) => r.amount);
    assertThat(
      last,
      lastRows.join() === '5000',
      `page 1 of size 2 holds only the oldest request (5000); got ${lastRows.join()}`,
    );
    pinsMeaning(
      'GET /user/getCashoutHistory cashouts',
      'GET /user/getCashoutHistory page',
      'GET /user/getCashoutHistory perpage',
    );
  });
});

describe('The cashout lifecycle (payment provider reports through the test helpers)', () => {
  it('Given a pending request, processing then completed: it cannot be cancelled once processing, the history shows completedAt and the total (an open request beside it not counted), and an e-mail goes out at each stage [R-TRANS-CASHOUT-PROCESSING, R-TRANS-CASHOUT-COMPLETED, R-STATE-CASHOUT, R-EVENT-CASHOUT-MAIL]', async (ctx) => {
    await needsHelpers(ctx);
    const amount = 7000;
    const fee = feeOf(amount, 'provider_a');
    const me = await cashier(20_000);
    const requestedAt = await helpers.pinClock();
    const id = cashoutId(await cashout(me, amount, 'provider_a'));
    const mails = [await mailsTo(me.email)];
    const pending = (await history(me)).cashouts[0];
    assertThat(
      await getAs(me, '/user/getCashoutHistory'),
      pending.id === id &&
        pending.status === 'pending' &&
        pending.estimatedCompletionAt !== undefined &&
        // Seed: processing takes 1 to 3 business days, so the estimate (whole Unix seconds, the
        // document's pattern) lies at least a day after the request.
        /^[0-9]+$/.test(pending.estimatedCompletionAt) &&
        Number(pending.estimatedCompletionAt) >= requestedAt + DAY &&
        pending.method === 'provider_a' &&
        pending.requestedAt === String(requestedAt),
      `a pending request: the cashoutId of its request, its method, requested at the clock, with its estimated completion, whole seconds at least a day after ${requestedAt} (got ${JSON.stringify(pending)})`,
    );
    await helpers.advance(3600);
    const processing = await helpers.payment(id, 'processing');
    mails.push(await mailsTo(me.email));
    assertThat(
      await getAs(me, '/user/balance'),
      processing.status === 'processing',
      'the provider is sending the payment',
    );
    refused(await postAs(me, '/cashout/cancel', { cashoutId: id }), 'Cashout cannot be cancelled', 'processing');
    await helpers.advance(3600);
    const completedAt = await helpers.pinClock();
    const completed = await helpers.payment(id, 'completed');
    mails.push(await mailsTo(me.email));
    const page = await history(me);
    const answer = await getAs(me, '/user/getCashoutHistory');
    assertThat(answer, completed.status === 'completed', 'the payment completed');
    assertThat(
      answer,
      page.cashouts[0].status === 'completed' &&
        page.cashouts[0].completedAt === String(completedAt) &&
        page.cashouts[0].requestedAt === String(requestedAt),
      `completed two hours after the request: completedAt ${completedAt}, requestedAt kept ${requestedAt}`,
    );
    pinsMeaning(
      'POST /cashout/process cashoutId',
      'GET /user/getCashoutHistory cashouts[].id',
      'GET /user/getCashoutHistory cashouts[].method',
      'GET /user/getCashoutHistory cashouts[].requestedAt',
    );
    assertThat(answer, page.totalCashedOut === amount && page.total === 1, 'totalCashedOut sums completed amounts');
    await assertBalance(me, 20_000 - amount - fee, 'the money stays paid out', 20_000);
    assertThat(
      answer,
      mails[0]! >= 1 && mails[1]! > mails[0]! && mails[2]! > mails[1]!,
      `an e-mail to ${me.email} at each stage: pending, processing, completed (e-mails sent so far after each: ${mails.join(', ')})`,
    );
    pinsMeaning('event email: cashout stages');
    // An open request beside the completed one: the total counts completed amounts only (a total
    // of every request, or of every one not failed, reads 12000), `total` counts both requests.
    await helpers.advance(DAY + 1);
    const open = cashoutId(await cashout(me, 5000, 'provider_a'));
    pinsMeaning('GET /user/getCashoutHistory totalCashedOut', 'GET /user/getCashoutHistory total');
    for (const stage of ['pending', 'processing'] as const) {
      if (stage === 'processing') await helpers.payment(open, 'processing');
      const read = await getAs(me, '/user/getCashoutHistory');
      const now = content(read);
      assertThat(
        read,
        now.totalCashedOut === amount && now.total === 2 && now.cashouts[0].status === stage,
        `with a ${stage} request of 5000 beside the completed ${amount}: totalCashedOut ${amount}, total 2 (got ${now.totalCashedOut}, ${now.total})`,
      );
      // Each row its own amount and status; completedAt on the completed one only, an estimate on
      // the pending one only.
      const [newer, older] = now.cashouts;
      assertThat(
        read,
        newer.amount === 5000 &&
          newer.completedAt === undefined &&
          (stage === 'processing' || newer.estimatedCompletionAt !== undefined) &&
          older.amount === amount &&
          older.status === 'completed' &&
          older.completedAt !== undefined &&
          older.estimatedCompletionAt === undefined,
        `rows ${JSON.stringify(now.cashouts)}`,
      );
    }
    // The unified history's details of each request: its own status, the balance effect amount + fee.
    for (const [cashout, status, debit] of [
      [id, 'completed', amount + fee],
      [open, 'processing', 5000 + feeOf(5000, 'provider_a')],
    ] as const) {
      const details = await getAs(me, '/user/getTransactionDetails', { transactionId: `cashout-${cashout}` });
      const t = content(details)?.transaction;
      assertThat(
        details,
        t?.status === status && t?.amount === -debit,
        `cashout-${cashout}: ${status}, -${debit} (got ${JSON.stringify(t)})`,
      );
    }
    pinsMeaning('GET /user/getTransactionDetails transaction.status');
    pinsMeaning(
      'GET /user/getCashoutHistory cashouts[].amount',
      'GET /user/getCashoutHistory cashouts[].status',
      'GET /user/getCashoutHistory cashouts[].completedAt',
      'GET /user/getCashoutHistory cashouts[].estimatedCompletionAt',
    );
  });

  it('Given a processing request whose payment fails, amount + fee are refunded and a failure e-mail goes out [R-TRANS-CASHOUT-FAILED, R-EVENT-CASHOUT-MAIL]', async (ctx) => {
    await needsHelpers(ctx);
    const amount = 9000;
    const me = await cashier(amount + feeOf(amount, 'provider_a'));
    const id = cashoutId(await cashout(me, amount, 'provider_a'));
    await helpers.payment(id, 'processing');
    const before = await mailsTo(me.email);
    const failed = await helpers.payment(id, 'failed');
    const answer = await getAs(me, '/user/getCashoutHistory');
    assertThat(answer, failed.status === 'failed', 'the payment failed');
    await assertBalance(me, amount + feeOf(amount, 'provider_a'), 'amount + fee refunded', 0);
    const page = await history(me);
    assertThat(answer, page.cashouts[0].status === 'failed' && page.totalCashedOut === 0, 'failed counts for nothing');
    const after = await mailsTo(me.email);
    assertThat(
      answer,
      after > before,
      `an e-mail to ${me.email} when the payment fails (${before} before, ${after} after)`,
    );
  });

  it('Given a pending request, its owner cancels it and is refunded; a stranger cannot, nor can it be cancelled twice [R-STATE-CASHOUT]', async (ctx) => {
    await needsHelpers(ctx);
    const amount = 5500;
    const me = await cashier(50_000, ['provider_b']);
    const stranger = await cashier(50_000);
    const requestedAt = await helpers.pinClock();
    const id = cashoutId(await cashout(me, amount, 'provider_b'));
    await helpers.advance(30);
    const requested = await mailsTo(me.email);
    refused(await postAs(stranger, '/cashout/cancel', { cashoutId: id }), 'Cashout not found', 'not the caller’s');
    const cancel = await postAs(me, '/cashout/cancel', { cashoutId: id });
    const cancelled = await mailsTo(me.email);
    const record = content(cancel).cashout;
    assertThat(cancel, cancel.status === 200 && record.status === 'cancelled', 'cancelled');
    assertThat(
      cancel,
      record.id === id &&
        record.amount === amount &&
        record.method === 'provider_b' &&
        record.requestedAt === String(requestedAt) &&
        record.completedAt === undefined &&
        record.estimatedCompletionAt === undefined,
      `the request cancelled: its ID, amount (not amount + fee), provider_b, requested 30 s before the cancellation, neither completed nor pending (got ${JSON.stringify(record)})`,
    );
    pinsMeaning(
      'POST /cashout/cancel cashout',
      'POST /cashout/cancel cashout.id',
      'POST /cashout/cancel cashout.amount',
      'POST /cashout/cancel cashout.method',
      'POST /cashout/cancel cashout.status',
      'POST /cashout/cancel cashout.requestedAt',
      'POST /cashout/cancel cashout.completedAt',
      'POST /cashout/cancel cashout.estimatedCompletionAt',
    );
    await assertBalance(me, 50_000, 'amount + fee refunded', 50_000 - amount - feeOf(amount, 'provider_b'));
    // The seed's `refund` type is the credit of a refund (the fee back with it, or as a `fee` entry
    // of its own); "Human-readable description of the change": any words, but not none.
    const fee = feeOf(amount, 'provider_b');
    const refunds = balancePage(
      content(await getAs(me, '/user/getBalanceHistory', { type: 'refund', count: 50 })),
    ).values;
    const all = balancePage(content(await getAs(me, '/user/getBalanceHistory', { count: 50 }))).values;
    const feesBack = all.filter((e) => e.type === 'fee' && (e.amount as number) > 0).map((e) => e.amount as number);
    const sum = (xs: number[]) => xs.reduce((n, a) => n + a, 0);
    const credited = sum(refunds.map((e) => e.amount as number));
    assertThat(
      cancel,
      refunds.length >= 1 &&
        refunds.every((e) => typeof e.description === 'string' && e.description.trim() !== '') &&
        ((credited === amount + fee && sum(feesBack) === 0) || (credited === amount && sum(feesBack) === fee)),
      `the refund entries credit ${amount + fee} (or ${amount}, with a fee entry of ${fee}), each described; got ${JSON.stringify(refunds)}`,
    );
    refused(await postAs(me, '/cashout/cancel', { cashoutId: id }), 'Cashout cannot be cancelled', 'already cancelled');
    const late = await call('POST', `/test_helpers/payments/${id}`, { json: { outcome: 'completed' } });
    // The helper contract's bad request: 300, envelope A, a message (its words are the target's).
    const lateBody = late.body as { content?: unknown };
    assertThat(
      late,
      late.status === 300 && typeof lateBody.content === 'string' && lateBody.content.length > 0,
      'the provider cannot complete a cancelled request: a 300 with a message',
    );
    await assertBalance(me, 50_000, 'and the refund stands', 50_000);
    assertThat(
      cancel,
      requested >= 1 && cancelled > requested,
      `an e-mail to ${me.email} on the request and on the cancellation (${requested}, then ${cancelled})`,
    );
  });
});

describe('POST /cashout/link, /cashout/unlink and GET /cashout/methods (extensions)', () => {
  it('Given no linked method, linking provider_b lets a provider_b cashout through, and unlinking waits for the open request [R-CASHOUT-RULES, R-MSG-CASHOUT-PROCESS]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await cashier(50_000, []);
    const none = await getOk('/cashout/methods', {}, me.token, me.ip);
    assertThat(none, content(none).methods.length === 0, 'nothing linked yet');
    refused(await cashout(me, 5000, 'provider_b'), 'Payment method not linked', 'before linking');
    const linkedAt = await helpers.pinClock();
    const link = await postAs(me, '/cashout/link', { method: 'provider_b', email: 'payouts@example.com' });
    assertThat(
      link,
      link.status === 200 &&
        content(link).method.email === 'payouts@example.com' &&
        content(link).method.method === 'provider_b' &&
        content(link).method.linkedAt === String(linkedAt),
      'linked: provider_b, its payment address, at the clock',
    );
    await helpers.advance(60);
    refused(
      await postAs(me, '/cashout/link', { method: 'provider_b', email: 'other@example.com' }),
      'Payment method already linked',
      'one link per provider',
    );
    const list = await getOk('/cashout/methods', {}, me.token, me.ip);
    assertThat(
      list,
      content(list)
        .methods.map((m: { method: string }) => m.method)
        .join() === 'provider_b' && content(list).methods[0].linkedAt === String(linkedAt),
      'listed, linked a minute ago (not now)',
    );
    pinsMeaning(
      'POST /cashout/link method',
      'POST /cashout/link method.method',
      'POST /cashout/link method.email',
      'POST /cashout/link method.linkedAt',
      'GET /cashout/methods methods',
      'GET /cashout/methods methods[].linkedAt',
    );
    const id = cashoutId(await cashout(me, 5000, 'provider_b'));
    refused(await postAs(me, '/cashout/unlink', { method: 'provider_b' }), 'Pending cashout exists', 'open request');
    await helpers.payment(id, 'completed');
    const unlink = await postAs(me, '/cashout/unlink', { method: 'provider_b' });
    assertThat(unlink, unlink.status === 200, 'unlinked once the request is settled');
    refused(await postAs(me, '/cashout/unlink', { method: 'provider_b' }), 'Payment method not linked', 'gone');
  });

  it('Given provider_a linked when the user was set up, linking provider_b answers with provider_b and GET /cashout/methods lists both [R-CASHOUT-RULES]', async (ctx) => {
    await needsHelpers(ctx);
    // A method of the set-up has no link of its own yet: the second link must not lose it.
    const me = await cashier(0, ['provider_a']);
    const link = await postAs(me, '/cashout/link', { method: 'provider_b', email: 'second-link@example.com' });
    assertThat(
      link,
      link.status === 200 && content(link).method?.method === 'provider_b',
      `provider_b linked beside provider_a (got ${link.status} ${JSON.stringify(content(link))})`,
    );
    const listed = await getOk('/cashout/methods', {}, me.token, me.ip);
    const methods = (content(listed).methods as { method: string }[]).map((m) => m.method).sort();
    assertThat(listed, methods.join() === 'provider_a,provider_b', `both methods listed (got ${methods.join()})`);
  });

  it('Given methods linked, unlinked and linked again a minute apart, each to an address of its own, GET /user/infos walletmail follows the one linked last, empty with none [R-CASHOUT-RULES]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await cashier(0, []);
    const infos = async () => getOk('/user/infos', {}, me.token, me.ip);
    const expectWallet = async (want: string, why: string) => {
      const answer = await infos();
      const got = content(answer).informations.walletmail;
      assertThat(answer, got === want, `${why}: ${want || 'empty'} (got ${got})`);
    };
    const link = async (method: string, email: string) => {
      await helpers.advance(60);
      setUpOk(await postAs(me, '/cashout/link', { method, email }));
    };
    const unlink = async (method: string) => setUpOk(await postAs(me, '/cashout/unlink', { method }));
    await expectWallet('', 'no method linked');
    // Never the account's address; the last link is provider_a once and provider_b once, so
    // neither the first link nor either method's place in the list reads the same every time.
    await link('provider_b', 'wallet-b@example.com');
    await link('provider_a', 'wallet-a@example.com');
    await expectWallet('wallet-a@example.com', 'provider_b, then provider_a: the one linked last');
    await unlink('provider_b');
    await link('provider_b', 'wallet-b2@example.com');
    await expectWallet('wallet-b2@example.com', 'provider_b linked again, last');
    await unlink('provider_b');
    await expectWallet('wallet-a@example.com', 'provider_b unlinked: provider_a, the one left');
    await unlink('provider_a');
    await expectWallet('', 'none linked');
    // Linked within one second of the clock (pinned to a second's start): the later request is
    // still the one linked last, whatever the seconds say or the providers' order.
    await helpers.pinClock();
    setUpOk(await postAs(me, '/cashout/link', { method: 'provider_b', email: 'wallet-b3@example.com' }));
    const second = await postAs(me, '/cashout/link', { method: 'provider_a', email: 'wallet-a3@example.com' });
    assertThat(
      second,
      second.status === 200 &&
        content(second).method?.method === 'provider_a' &&
        content(second).method?.email === 'wallet-a3@example.com',
      `the link answer names the method just linked, not the one linked before (got ${JSON.stringify(content(second)?.method)})`,
    );
    await expectWallet(
      'wallet-a3@example.com',
      'provider_b, then provider_a in the same second: provider_a, linked last',
    );
    pinsMeaning('GET /user/infos informations.walletmail');
  });
});
