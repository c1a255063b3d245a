// Rules over several states (seed: "Backpack / listing state", "Transitions shown", "Cashout
// statuses", "Trade statuses"), each tested with every state it names: a rule that names "pending
// or processing", "0 or 1" or "in active trades or pending withdrawal" is checked in each of them,
// so an implementation checking only the first state fails.
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, call, setUpOk } from '../src/kit/http.ts';
import { getAs as get, postAs as post } from '../src/kit/user-calls.ts';

beforeAll(resetIfPossible);

type Me = Awaited<ReturnType<typeof session>>;
const DAY = 24 * 60 * 60;
/** The states the seed names as neither priceable nor withdrawable: 2, 3 and a negative one. */
const HELD = [2, 3, -1];

const refused = (a: Answer, message: string, what: string) =>
  assertThat(a, a.status === 300 && a.message === message, `${what}: ${message}`);

/** A user holding one asset of a fresh item in each of `states`. */
async function holder(name: string, states: number[], extra: Record<string, unknown> = {}) {
  const me = await session({ balance: 100_000, ...extra });
  const item = await helpers.item({ name, game: 440 });
  const assets: Record<number, string> = {};
  for (const state of states)
    assets[state] = (
      await helpers.asset({ owner: me.platformId, itemId: item.id, state, price: state === 1 ? 500 : undefined })
    ).assetId;
  return { me, item, assets };
}

describe('open cashouts: pending or processing', () => {
  const cashout = (me: Me) => post(me, '/cashout/process', { amount: 5000, method: 'provider_a' });

  it('Given my request pending, then processing, a new one and unlinking are refused in both states, past the 24 hours [R-LIMIT-CASHOUT, R-MSG-CASHOUT-PROCESS, R-STATE-CASHOUT, R-TRANS-CASHOUT-PROCESSING]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session({ balance: 100_000, paymentMethods: ['provider_a'] });
    const made = await cashout(me);
    assertThat(made, made.status === 200 && content(made).status === 'pending', 'the request is pending');
    const id = content(made).cashoutId as number;
    // A day later the cooldown is over: only the open request can refuse.
    await helpers.advance(DAY);
    refused(await cashout(me), 'Pending cashout exists', 'a pending request is open');
    refused(await post(me, '/cashout/unlink', { method: 'provider_a' }), 'Pending cashout exists', 'pending: unlink');
    await helpers.payment(id, 'processing');
    refused(await cashout(me), 'Pending cashout exists', 'a processing request is still open');
    refused(
      await post(me, '/cashout/unlink', { method: 'provider_a' }),
      'Pending cashout exists',
      'processing: unlink',
    );
    await helpers.payment(id, 'completed');
    const next = await cashout(me);
    assertThat(next, next.status === 200, 'a completed request is no longer open');
  });

  it('Given requests completed, failed or cancelled, none of them is open [R-STATE-CASHOUT, R-TRANS-CASHOUT-COMPLETED, R-TRANS-CASHOUT-FAILED]', async (ctx) => {
    await needsHelpers(ctx);
    for (const end of ['completed', 'failed', 'cancelled'] as const) {
      const me = await session({ balance: 100_000, paymentMethods: ['provider_a'] });
      const id = content(await cashout(me)).cashoutId as number;
      if (end === 'cancelled') await post(me, '/cashout/cancel', { cashoutId: id });
      else await helpers.payment(id, end);
      await helpers.advance(DAY);
      const next = await cashout(me);
      assertThat(next, next.status === 200, `a ${end} request leaves room for a new one`);
    }
  });

  it('Given a request completed or failed, cancelling it is refused like a processing one [R-TRANS-CASHOUT-PROCESSING, R-STATE-CASHOUT]', async (ctx) => {
    await needsHelpers(ctx);
    for (const end of ['processing', 'completed', 'failed'] as const) {
      const me = await session({ balance: 100_000, paymentMethods: ['provider_a'] });
      const id = content(await cashout(me)).cashoutId as number;
      await helpers.payment(id, end);
      const before = content(await get(me, '/user/balance')).balance as number;
      const cancel = await post(me, '/cashout/cancel', { cashoutId: id });
      assertThat(cancel, cancel.status === 300, `a ${end} request cannot be cancelled`);
      const after = content(await get(me, '/user/balance')).balance as number;
      assertThat(cancel, after === before, `cancelling a ${end} request moves no money`);
    }
  });
});

describe('withdrawable: states 0 and 1 only', () => {
  it('Given an asset in state 2, 3 or negative alone, withdrawing it is refused, and 0 and 1 each alone are withdrawn [R-TRANS-ITEM-WITHDRAW, R-STATE-BACKPACK, R-MSG-INVENTORY-WITHDRAW]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, assets } = await holder('States Withdraw Hat', [0, 1, ...HELD]);
    for (const state of HELD)
      refused(
        await post(me, '/inventory/withdraw', { ids: assets[state]! }),
        'Items not available for withdrawal',
        `state ${state}`,
      );
    for (const state of [0, 1]) {
      const done = await post(me, '/inventory/withdraw', { ids: assets[state]! });
      assertThat(done, done.status === 200 && content(done).updated === 1, `state ${state} is withdrawn`);
    }
  });
});

describe('priceable: states 0 and 1 only', () => {
  it('Given an asset in state 2, 3 or negative, pricing it is refused and it stays as it was; 0 and 1 are priced [R-TRANS-ITEM-LIST, R-STATE-BACKPACK]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, assets } = await holder('States Price Hat', [0, 1, ...HELD]);
    for (const state of HELD) {
      const answer = await post(me, '/inventory/price', { ids: assets[state]!, price: 300 });
      assertThat(answer, answer.status === 300, `state ${state} cannot be priced`);
      const details = await call('GET', `/item/details/fromid/${assets[state]}`);
      assertConforms(details);
      assertThat(
        details,
        content(details).informations.state === state && content(details).informations.price !== 300,
        `the asset in state ${state} is untouched`,
      );
    }
    for (const state of [0, 1]) {
      const answer = await post(me, '/inventory/price', { ids: assets[state]!, price: 300 });
      assertThat(answer, answer.status === 200, `state ${state} is priced`);
    }
  });
});

describe('on sale: state 1 only', () => {
  it('Given assets of one item in every state, listings, counts, the cart and bulk take only state 1, and my inventory shows only state 0 [R-STATE-BACKPACK, R-TRANS-CART-ADD, R-MSG-CART-ADD]', async (ctx) => {
    await needsHelpers(ctx);
    const { me: seller, item, assets } = await holder('States Listing Hat', [0, 1, ...HELD]);
    const listings = await call('GET', `/item/listing/${item.id}`);
    assertConforms(listings);
    assertThat(
      listings,
      (content(listings) as { assetId: string }[]).map((l) => l.assetId).join() === assets[1],
      'only the state 1 asset is listed',
    );
    const count = await call('GET', `/item/listing/count/${item.id}`);
    assertThat(count, content(count).count === 1, 'one listing counted');
    const inventory = await get(seller, '/inventory/onInventory');
    assertThat(
      inventory,
      (content(inventory).items as { ids: string }[]).flatMap((r) => r.ids.split(',')).join() === assets[0],
      'my inventory holds only the state 0 asset',
    );
    const onSale = await get(seller, '/inventory/onSale');
    assertThat(
      onSale,
      (content(onSale).items as { ids: string }[]).flatMap((r) => r.ids.split(',')).join() === assets[1],
      'on sale holds only the state 1 asset',
    );
    const buyer = await session({ balance: 100_000 });
    for (const state of [0, ...HELD])
      refused(
        await post(buyer, '/cart/add', { assetId: assets[state]! }),
        'Item not available for purchase',
        `state ${state} is not for sale`,
      );
    const bulk = await post(buyer, '/cart/bulk', { itemId: item.id, count: 10 });
    assertThat(
      bulk,
      bulk.status === 200 &&
        (content(bulk).cart as { assetId: string }[]).flatMap((r) => r.assetId.split(',')).join() === assets[1],
      'bulk takes only the state 1 asset',
    );
  });
});

describe('revert: trades with status -1 only', () => {
  it('Given withdrawals pending (0) and completed (3), an admin revert of each is refused and nothing comes back [R-TRANS-REVERT, R-STATE-TRADE, R-MSG-ADMIN-REVERT]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, assets } = await holder('States Revert Hat', [0, 1]);
    const admin = await session({ admin: true });
    setUpOk(await post(me, '/inventory/withdraw', { ids: assets[0]! }));
    setUpOk(await post(me, '/inventory/withdraw', { ids: assets[1]! }));
    const trades = content(await get(me, '/trades/active')).trades as { id: number; tradeId: string }[];
    assertThat(await get(me, '/trades/active'), trades.length === 2, 'two pending withdrawals');
    await helpers.settleOffer(trades[0]!.tradeId, 'accept');
    const all = await get(me, '/trades/all');
    const statuses = (content(all).trades as { id: number; status: number }[]).map((t) => `${t.id}:${t.status}`);
    assertThat(
      all,
      statuses.sort().join() === [`${trades[0]!.id}:3`, `${trades[1]!.id}:0`].sort().join(),
      'one trade completed (3), one pending (0)',
    );
    for (const trade of trades) {
      const answer = await post(admin, `/admin/revertTrade/${trade.id}`, {});
      refused(answer, 'No trade found with status -1 to revert', `trade ${trade.id} has not failed`);
    }
    const inventory = await get(me, '/inventory/onInventory');
    assertThat(inventory, content(inventory).count === 0, 'no asset came back to the inventory');
  });
});

describe('giveaway pool: states 0 and 1 only', () => {
  it('Given assets in state 2, 3 or negative, a giveaway of each is refused and the asset stays as it was [R-GIVEAWAY-CREATE, R-STATE-BACKPACK, R-MSG-GIVEAWAYS-CREATE]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, assets } = await holder('States Giveaway Crate', HELD);
    for (const state of HELD) {
      const answer = await post(me, '/giveaways/create', {
        name: 'States giveaway',
        maxEntries: 5,
        type: 1,
        duration: 3600,
        items: [assets[state]!],
      });
      refused(answer, 'Items not found or too many items (max 50)', `an asset in state ${state}`);
      const details = await call('GET', `/item/details/fromid/${assets[state]}`);
      assertThat(details, content(details).informations.state === state, `the asset keeps state ${state}`);
    }
  });
});

describe('resend: pending trades only', () => {
  it('Given withdrawals completed (3) and failed (-1), resending either is refused [R-RESEND, R-STATE-TRADE]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, assets } = await holder('States Resend Hat', [0, 1]);
    setUpOk(await post(me, '/inventory/withdraw', { ids: assets[0]! }));
    setUpOk(await post(me, '/inventory/withdraw', { ids: assets[1]! }));
    const trades = content(await get(me, '/trades/active')).trades as { id: number; tradeId: string }[];
    await helpers.settleOffer(trades[0]!.tradeId, 'accept');
    await helpers.settleOffer(trades[1]!.tradeId, 'fail');
    const all = await get(me, '/trades/all');
    const statuses = (content(all).trades as { id: number; status: number }[]).map((t) => t.status).sort();
    assertThat(all, statuses.join() === '-1,3', 'one trade completed (3), one failed (-1)');
    for (const trade of trades) {
      const answer = await get(me, '/trades/resend', { id: trade.id });
      assertThat(answer, answer.status === 300, `trade ${trade.id} is settled: it cannot be resent`);
    }
  });
});

describe('trade hold: game 730 only', () => {
  it('Given assets of games 730 and 440 under the same hold, the 730 one is refused and the 440 one is listed [R-LIMIT-TRADE-HOLD, R-MSG-PRICE-HOLD, R-PRICE-VALIDATION]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const now = await helpers.now();
    const held = async (game: 440 | 730) => {
      const item = await helpers.item({ name: `States Hold ${game}`, game });
      return (await helpers.asset({ owner: me.platformId, itemId: item.id, tradeHoldUntil: now + 3 * DAY })).assetId;
    };
    const cs = await held(730);
    const tf = await held(440);
    refused(
      await post(me, '/inventory/price', { ids: cs, price: 300 }),
      'This item will be locked for 7 days',
      'a game 730 asset under a hold',
    );
    const listed = await post(me, '/inventory/price', { ids: tf, price: 300 });
    assertThat(listed, listed.status === 200, 'the hold does not apply to game 440');
  });
});
