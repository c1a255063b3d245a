// Withdrawals and trades (seed: POST /inventory/withdraw, "Transitions shown", "Trading", "Other
// state sets", POST /admin/revertTrade; the test helpers' "The outside world"): assets held in
// state 2 while the offer is out, removed when it is accepted, held when it fails until an admin
// reverts the trade; the trade lists, resend, and every message.
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, imagedItem, session } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, call, pinsMeaning, setUpOk } from '../src/kit/http.ts';
import { getAs as get, postAs as post } from '../src/kit/user-calls.ts';

beforeAll(resetIfPossible);

/** Asserts the states of backpack entries (undefined: the service no longer has the entry). */
async function expectStates(want: Record<string, number | undefined>, what: string): Promise<void> {
  for (const [assetId, state] of Object.entries(want)) {
    const answer = await call('GET', `/item/details/fromid/${assetId}`);
    assertConforms(answer);
    const seen = answer.status === 200 ? content(answer).informations.state : undefined;
    assertThat(answer, seen === state, `${what} (asset ${assetId}: state ${state})`);
  }
}

interface TradeRow {
  id: number;
  tradeId: string;
  kind: string;
  status: number;
  statusText: string;
  assets: { assetId: string; item_id: number; name: string; image: string }[];
  created: string;
  updated: string;
}
const tradesOf = (a: Answer) => content(a).trades as TradeRow[];

/** A user with `states.length` assets of a fresh item, in those states. */
async function owner(name: string, states: number[]) {
  const item = await imagedItem({ name, game: 440 });
  const me = await session();
  const assets = [];
  for (const state of states)
    assets.push(
      await helpers.asset({ owner: me.platformId, itemId: item.id, state, price: state === 1 ? 500 : undefined }),
    );
  return { me, item, ids: assets.map((a) => a.assetId) };
}

describe('POST /inventory/withdraw', () => {
  it('Given assets in states 0, 1 and 3, moves 0 and 1 to state 2 (updated 2), counts the traded one as locked, and sends one offer [R-TRANS-ITEM-WITHDRAW, R-STATE-BACKPACK]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, ids } = await owner('Withdraw Mixed Hat', [0, 1, 3]);
    const answer = await post(me, '/inventory/withdraw', { ids: ids.join(',') });
    const c = content(answer);
    assertThat(answer, answer.status === 200 && c.updated === 2 && c.locked === 1, 'updated 2, locked 1');
    // Three assets named: the two moved and the one in a trade are counted apart.
    pinsMeaning('POST /inventory/withdraw updated', 'POST /inventory/withdraw locked');
    await expectStates(
      { [ids[0]!]: 2, [ids[1]!]: 2, [ids[2]!]: 3 },
      'states 0 and 1 became 2; the traded asset stays 3',
    );
    const offers = await helpers.offers(me.platformId);
    assertThat(
      answer,
      offers.length === 1 &&
        offers[0]!.kind === 'withdraw' &&
        [...offers[0]!.assetIds].sort().join() === [ids[0], ids[1]].sort().join(),
      'one withdraw offer to the owner with the two withdrawn assets',
    );
    const again = await post(me, '/inventory/withdraw', { ids: ids.join(',') });
    assertThat(
      again,
      again.status === 300 && again.message === 'Items not available for withdrawal',
      'nothing left to withdraw: all pending withdrawal or in trades',
    );
  });

  it('answers the seed messages: missing ids, no valid ID, an asset that is not mine [R-MSG-WITHDRAW-MISSING, R-MSG-WITHDRAW-INVALID, R-MSG-WITHDRAW-NOT-FOUND]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, ids } = await owner('Withdraw Message Hat', [0]);
    const { ids: theirs } = await owner('Withdraw Their Hat', [0]);
    const cases: [unknown, string][] = [
      [{}, 'Missing required parameter: ids'],
      [{ ids: 'abc,,x-1' }, 'No valid item IDs provided'],
      // An asset ID is 1 to 20 digits (the document's pattern of every assetId): an entry that only
      // begins with my asset's ID is no asset ID, so it is ignored, not looked up nor cut short.
      [{ ids: `${ids[0]}x,${ids[0]}-1` }, 'No valid item IDs provided'],
      [{ ids: `${ids[0]},${theirs[0]}` }, 'Items not found'],
      [{ ids: theirs[0] }, 'Items not found'],
      [{ ids: '99999999999999' }, 'Items not found'],
    ];
    for (const [body, message] of cases) {
      const answer = await post(me, '/inventory/withdraw', body);
      assertThat(answer, answer.status === 300 && answer.message === message, message);
    }
    await expectStates({ [ids[0]!]: 0, [theirs[0]!]: 0 }, 'a refused withdrawal changes nothing');
  });

  it('Given an accepted withdrawal, the assets leave the service and the trade is completed (3) [R-STATE-TRADE]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, ids } = await owner('Withdraw Accept Hat', [0, 1]);
    setUpOk(await post(me, '/inventory/withdraw', { ids: ids.join(',') }));
    const [offer] = await helpers.offers(me.platformId);
    const settled = await helpers.settleOffer(offer!.tradeId, 'accept');
    await expectStates({ [ids[0]!]: undefined, [ids[1]!]: undefined }, 'both assets are gone from the service');
    const all = await get(me, '/trades/all');
    assertThat(all, settled.status === 3, 'the offer is accepted');
    const [trade] = tradesOf(all);
    assertThat(all, trade?.status === 3 && trade.statusText === 'completed' && trade.kind === 'withdraw', 'completed');
    const active = await get(me, '/trades/active');
    assertThat(active, content(active).count === 0, 'no active trade left');
  });

  it('Given a failed withdrawal, the assets stay held until an admin reverts the trade to state 0 (-12) [R-TRANS-REVERT, R-STATE-TRADE, R-MSG-ADMIN-REVERT]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, ids } = await owner('Withdraw Fail Hat', [1, 0]);
    setUpOk(await post(me, '/inventory/withdraw', { ids: ids.join(',') }));
    const [offer] = await helpers.offers(me.platformId);
    const settled = await helpers.settleOffer(offer!.tradeId, 'fail');
    const held = await post(me, '/inventory/withdraw', { ids: ids.join(',') });
    assertThat(held, settled.status === -1, 'the offer failed');
    assertThat(held, held.message === 'Items not available for withdrawal', 'held: not withdrawable');
    await expectStates({ [ids[0]!]: 2, [ids[1]!]: 2 }, 'still pending withdrawal (state 2)');
    const [trade] = tradesOf(await get(me, '/trades/all'));
    const admin = await session({ admin: true });
    const notAdmin = await post(me, `/admin/revertTrade/${trade!.id}`, {});
    assertThat(notAdmin, notAdmin.status === 403, 'only an admin reverts');
    const reverted = await post(admin, `/admin/revertTrade/${trade!.id}`, {});
    const data = content(reverted);
    assertThat(
      reverted,
      reverted.status === 200 && data.message === 'Trade reverted' && data.trade === trade!.id && data.restored === 2,
      'both assets restored',
    );
    await expectStates({ [ids[0]!]: 0, [ids[1]!]: 0 }, "the assets are back in the owner's inventory, not listed");
    // The list's id named this trade: its two assets came back, and the answer counts assets.
    pinsMeaning(
      'GET /trades/all trades[].id',
      'POST /admin/revertTrade/{trade} message',
      'POST /admin/revertTrade/{trade} trade',
      'POST /admin/revertTrade/{trade} restored',
    );
    const after = tradesOf(await get(me, '/trades/all'))[0]!;
    assertThat(reverted, after.status === -12 && after.statusText === 'reverted', 'the trade is reverted (-12)');
    const twice = await post(admin, `/admin/revertTrade/${trade!.id}`, {});
    assertThat(twice, twice.status === 300 && twice.message === 'No trade found with status -1 to revert', 'once only');
    const missing = await post(admin, `/admin/revertTrade/${trade!.id + 100_000}`, {});
    assertThat(missing, missing.status === 300 && missing.message === 'Trade not found', 'unknown trade');
    const again = await post(me, '/inventory/withdraw', { ids: ids[0]! });
    assertThat(again, again.status === 200 && content(again).updated === 1, 'a restored asset can be withdrawn again');
  });

  it('Given a pending trade, an admin revert answers No trade found with status -1 to revert [R-TRANS-REVERT, R-MSG-ADMIN-REVERT]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, ids } = await owner('Withdraw Pending Hat', [0]);
    setUpOk(await post(me, '/inventory/withdraw', { ids: ids.join(',') }));
    const [trade] = tradesOf(await get(me, '/trades/active'));
    const admin = await session({ admin: true });
    const answer = await post(admin, `/admin/revertTrade/${trade!.id}`, {});
    assertThat(answer, answer.message === 'No trade found with status -1 to revert', 'pending is not failed');
  });
});

describe('GET /trades/active, /trades/all, /trades/resend', () => {
  it('Given three withdrawals (pending, completed, failed), lists newest first with their statuses and pages them [R-STATE-TRADE]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, ids, item } = await owner('Trades List Hat', [0, 0, 0]);
    // Created 10 s apart, settled 100 and 200 s later: created and updated differ on each settled
    // trade, and no two trades share a time.
    const created: number[] = [];
    for (const id of ids) {
      created.push(await helpers.pinClock());
      setUpOk(await post(me, '/inventory/withdraw', { ids: id }));
      await helpers.advance(10);
    }
    const offers = await helpers.offers(me.platformId);
    await helpers.advance(100);
    const accepted = await helpers.pinClock();
    await helpers.settleOffer(offers[0]!.tradeId, 'accept');
    await helpers.advance(100);
    const declined = await helpers.pinClock();
    await helpers.settleOffer(offers[1]!.tradeId, 'decline');
    const all = await get(me, '/trades/all');
    const rows = tradesOf(all);
    assertThat(
      all,
      content(all).count === 3 && rows.map((t) => t.status).join() === '0,-1,3',
      'newest first: pending, failed, completed',
    );
    assertThat(
      all,
      rows.every(
        (t, i) => t.assets.length === 1 && t.assets[0]!.assetId === ids[2 - i] && t.assets[0]!.item_id === item.id,
      ),
      'each trade shows its asset, even the one that left the service',
    );
    assertThat(
      all,
      rows.every((t) => t.assets[0]!.name === 'Trades List Hat' && t.assets[0]!.image === item.image) &&
        rows.map((t) => `${t.tradeId}:${t.statusText}:${t.created}`).join() ===
          [
            `${offers[2]!.tradeId}:pending:${created[2]}`,
            `${offers[1]!.tradeId}:failed:${created[1]}`,
            `${offers[0]!.tradeId}:completed:${created[0]}`,
          ].join() &&
        rows[1]!.updated === String(declined) &&
        rows[2]!.updated === String(accepted),
      `each trade: its item's name and image, its platform offer, its status as a word, created when withdrawn, updated when settled (got ${JSON.stringify(rows)})`,
    );
    const active = await get(me, '/trades/active');
    assertThat(
      active,
      content(active).count === 1 && JSON.stringify(tradesOf(active)) === JSON.stringify([rows[0]]),
      'only the pending trade is active, as /trades/all shows it',
    );
    // The pending trade has not changed since it was made, 200 s and more before this read: its
    // `updated` is its creation, not the read's time nor another trade's settling.
    assertThat(
      active,
      tradesOf(active)[0]?.updated === String(created[2]),
      `the pending trade was last changed when it was made (${created[2]})`,
    );
    pinsMeaning(
      'GET /trades/all trades',
      'GET /trades/all trades[].tradeId',
      'GET /trades/all trades[].status',
      'GET /trades/all trades[].statusText',
      'GET /trades/all trades[].assets',
      'GET /trades/all trades[].assets[].assetId',
      'GET /trades/all trades[].assets[].item_id',
      'GET /trades/all trades[].assets[].name',
      'GET /trades/all trades[].assets[].image',
      'GET /trades/all trades[].created',
      'GET /trades/all trades[].updated',
      'GET /trades/all count',
      'GET /trades/active trades',
      'GET /trades/active trades[].tradeId',
      'GET /trades/active trades[].status',
      'GET /trades/active trades[].statusText',
      'GET /trades/active trades[].assets',
      'GET /trades/active trades[].assets[].assetId',
      'GET /trades/active trades[].assets[].item_id',
      'GET /trades/active trades[].assets[].name',
      'GET /trades/active trades[].assets[].image',
      'GET /trades/active trades[].created',
      'GET /trades/active trades[].updated',
      'GET /trades/active count',
    );
    const page = await get(me, '/trades/all', { page: 1, count: 2 });
    assertThat(
      page,
      tradesOf(page).length === 1 && content(page).count === 3,
      'page 1 of size 2 holds the third trade',
    );
    const them = await session();
    const theirs = await get(them, '/trades/all');
    assertThat(theirs, content(theirs).count === 0, "another user's trades are not listed");
  });

  it('Given a pending trade, resend sends a new offer; a settled or foreign trade is refused [R-RESEND]', async (ctx) => {
    await needsHelpers(ctx);
    const { me, ids } = await owner('Trades Resend Hat', [0, 0]);
    setUpOk(await post(me, '/inventory/withdraw', { ids: ids[0]! }));
    await helpers.advance(10);
    setUpOk(await post(me, '/inventory/withdraw', { ids: ids[1]! }));
    const [second, first] = tradesOf(await get(me, '/trades/active'));
    // Resent 50 s later: the trade keeps its creation time (a new trade would have a new one).
    await helpers.advance(50);
    const resentAt = await helpers.pinClock();
    const resent = await get(me, '/trades/resend', { id: first!.id });
    const c = content(resent);
    assertThat(
      resent,
      resent.status === 200 &&
        c.message === 'Trade offer resent' &&
        c.trade.id === first!.id &&
        c.trade.tradeId !== first!.tradeId,
      'resent under a new offer ID',
    );
    assertThat(
      resent,
      c.trade.kind === 'withdraw' &&
        c.trade.status === 0 &&
        c.trade.statusText === 'pending' &&
        c.trade.created === first!.created &&
        c.trade.created !== second!.created &&
        c.trade.updated === String(resentAt) &&
        first!.updated === first!.created &&
        JSON.stringify(c.trade.assets) === JSON.stringify(first!.assets) &&
        c.trade.assets[0]?.assetId === ids[0],
      `the trade resent is the first withdrawal, still pending, created when it was, changed by the resend at ${resentAt} (got ${JSON.stringify(c.trade)})`,
    );
    const offers = await helpers.offers(me.platformId);
    assertThat(
      resent,
      offers.length === 3 &&
        offers[2]!.tradeId === c.trade.tradeId &&
        offers[2]!.kind === 'withdraw' &&
        offers[2]!.assetIds.join() === ids[0],
      "the platform received the new offer, of the asset of the trade the list's id names",
    );
    pinsMeaning(
      'GET /trades/active trades[].id',
      'GET /trades/resend message',
      'GET /trades/resend trade',
      'GET /trades/resend trade.id',
      'GET /trades/resend trade.tradeId',
      'GET /trades/resend trade.status',
      'GET /trades/resend trade.statusText',
      'GET /trades/resend trade.assets',
      'GET /trades/resend trade.assets[].assetId',
      'GET /trades/resend trade.assets[].item_id',
      'GET /trades/resend trade.assets[].name',
      'GET /trades/resend trade.assets[].image',
      'GET /trades/resend trade.created',
      'GET /trades/resend trade.updated',
    );
    const settled = await helpers.settleOffer(c.trade.tradeId, 'accept');
    assertThat(resent, settled.status === 3, 'the new offer settles the trade');
    const stale = await call('POST', `/test_helpers/platform/offers/${first!.tradeId}`, {
      json: { outcome: 'accept' },
    });
    assertThat(stale, stale.status === 300, 'the replaced offer settles nothing');
    const done = await get(me, '/trades/resend', { id: first!.id });
    assertThat(
      done,
      done.status === 300 && done.message === 'Trade cannot be resent',
      'a completed trade is not resent',
    );
    const them = await session();
    const foreign = await get(them, '/trades/resend', { id: second!.id });
    assertThat(
      foreign,
      foreign.status === 300 && foreign.message === 'Trade not found',
      "another user's trade is not found",
    );
    const missing = await get(me, '/trades/resend');
    assertThat(
      missing,
      missing.status === 300 && missing.message === 'Missing required parameter: id',
      'id is required',
    );
  });

  it('Given 101 withdrawals and the oldest resent, every offer the platform received has its own ID [R-RESEND, R-TRANS-ITEM-WITHDRAW]', async (ctx) => {
    await needsHelpers(ctx);
    // An offer ID names one offer (the platform settles by it). A hundred trades after the resent
    // one: an ID scheme whose resend takes the first ID of a trade up to a hundred later is seen.
    const { me, ids } = await owner('Trades Offer ID Hat', Array<number>(101).fill(0));
    for (const id of ids) setUpOk(await post(me, '/inventory/withdraw', { ids: id }));
    const [oldest] = tradesOf(await get(me, '/trades/all', { page: 1, count: 100 }));
    const resent = await get(me, '/trades/resend', { id: oldest!.id });
    setUpOk(resent);
    const offers = await helpers.offers(me.platformId);
    const seen = new Set(offers.map((o) => o.tradeId));
    assertThat(
      resent,
      offers.length === 102 && seen.size === 102 && content(resent).trade.tradeId === offers[101]!.tradeId,
      `102 offers (101 withdrawals and the resend), each with its own ID (got ${seen.size} IDs for ${offers.length} offers; resent as ${content(resent).trade.tradeId})`,
    );
  });
});
