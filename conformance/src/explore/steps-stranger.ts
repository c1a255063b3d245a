// The steps a stranger would try: one user with another user's identifiers (assets, buy orders,
// cart rows, cashouts, sessions, tickets, deposit trades; a giveaway's are in steps-giveaways.ts),
// inputs the seed refuses, and steps repeated after they completed. Each must be refused with the
// documented answer (seed, "Messages by endpoint"; the document where it names the message) and
// change nothing: none of them touches the model, so the invariants read after the step prove that
// nothing moved.
import fc from 'fast-check';
import { Violation } from './client.ts';
import type { Model } from './model.ts';
import {
  as,
  cashoutRefusals,
  choice,
  expectAnswer,
  held,
  notImplemented,
  onTheirAsset,
  other,
  pick,
  refused,
  type StepKind,
  user,
} from './step-kit.ts';

const SESSIONS = 'a logged-in user lists their sessions';
const ISOLATION = "no user sees another's records";

/** Steps with another user's identifiers. */
const THEIRS: Record<string, StepKind> = {
  withdrawTheirs: onTheirAsset('POST /inventory/withdraw', {}, (u, asset) => ({
    request: { path: '/inventory/withdraw', json: { ids: asset.assetId } },
    messages: ['Items not found'],
    why: `user ${u + 1} withdraws asset ${asset.assetId} of user ${asset.owner + 1}`,
  })),
  priceTheirs: onTheirAsset(
    'POST /inventory/price',
    { price: fc.integer({ min: 100, max: 4_000 }) },
    (u, asset, a) => ({
      request: { path: '/inventory/price', json: { ids: asset.assetId, price: Number(a.price) } },
      messages: ['Item not found or not owned'],
      why: `user ${u + 1} prices asset ${asset.assetId} of user ${asset.owner + 1}`,
    }),
  ),
  // The caller has no buy order on the item (another user may): removed already, filled, or never placed.
  removeNoOrder: {
    needs: ['POST /item/buyorder/remove'],
    args: fc.record({ user, item: choice }),
    check: (m, a) => m.items.some((i) => !m.orders.some((o) => o.owner === Number(a.user) && o.itemId === i)),
    run: async (m, r, a) => {
      const u = Number(a.user);
      const free = m.items.filter((i) => !m.orders.some((o) => o.owner === u && o.itemId === i));
      const itemId = pick(free, a.item)!;
      const others = m.orders.filter((o) => o.itemId === itemId).map((o) => `user ${o.owner + 1}`);
      await refused(
        m,
        r,
        u,
        { path: '/item/buyorder/remove', json: { itemid: itemId } },
        ['No buy order found'],
        `user ${u + 1} removes a buy order on item ${itemId}, where ${others.join(', ') || 'nobody'} has one`,
      );
    },
  },
  updateNoOrder: {
    needs: ['POST /item/buyorder/update'],
    args: fc.record({ user, item: choice, price: fc.integer({ min: 50, max: 3_000 }) }),
    check: (m, a) => m.items.some((i) => !m.orders.some((o) => o.owner === Number(a.user) && o.itemId === i)),
    run: async (m, r, a) => {
      const u = Number(a.user);
      const free = m.items.filter((i) => !m.orders.some((o) => o.owner === u && o.itemId === i));
      const itemId = pick(free, a.item)!;
      // The seed lists both messages for "none exists" on update.
      await refused(
        m,
        r,
        u,
        { path: '/item/buyorder/update', json: { itemid: itemId, value: Number(a.price), amount: 1 } },
        ['You dont have buy order on this item !', 'No buy order found'],
        `user ${u + 1} updates a buy order on item ${itemId}, where they have none`,
      );
    },
  },
  // The ticket's messages are read by its owner before and after: the stranger changed nothing.
  ticketTheirs: {
    needs: ['POST /support/create', 'GET /support/messages/{ticket}', 'POST /support/post'],
    args: fc.record({ user, other: choice }),
    check: () => true,
    run: async (m, r, a) => {
      const u = Number(a.user);
      const v = other(u, a.other);
      let ticket = m.tickets.find((t) => t.owner === v)?.id;
      if (ticket === undefined) {
        const json = { subject: 'Explorer', description: 'A ticket of the run', topic: 'trading', concern: 'deposit' };
        const x = await r.api.send('step', 'POST', '/support/create', { json, ...as(r, v) });
        if (notImplemented(m, x)) return;
        expectAnswer(x, [{ status: 200 }], `user ${v + 1} opens a support ticket`);
        ticket = Number(x.body.data.ticket);
        m.tickets.push({ owner: v, id: ticket });
      }
      // Ticket numbers may count per user (the reference's do): one the stranger also has is theirs to read.
      if (m.tickets.some((t) => t.owner === u && t.id === ticket)) return;
      const messages = () => r.api.send('step', 'GET', `/support/messages/${ticket}`, as(r, v));
      const before = await messages();
      if (notImplemented(m, before)) return;
      expectAnswer(before, [{ status: 200 }], `user ${v + 1} reads their ticket ${ticket}`);
      const refusal = ['Ticket not found or no access'];
      const why = `user ${u + 1} on ticket ${ticket} of user ${v + 1}`;
      await refused(m, r, u, { method: 'GET', path: `/support/messages/${ticket}` }, refusal, `${why}: reads it`);
      const json = { ticket, content: 'A stranger writes' };
      await refused(m, r, u, { path: '/support/post', json }, refusal, `${why}: posts on it`);
      const after = await messages();
      if (JSON.stringify(after.body) !== JSON.stringify(before.body))
        throw new Violation(ISOLATION, `${why}: the ticket's messages changed`, [before, after]);
    },
  },
  removeTheirCartRow: {
    needs: ['GET /cart/get', 'POST /cart/remove'],
    args: fc.record({ user, other: choice, row: choice }),
    check: (m, a) => m.carts[other(Number(a.user), a.other)]!.length > 0,
    run: async (m, r, a) => {
      const u = Number(a.user);
      const v = other(u, a.other);
      const cart = await r.api.send('step', 'GET', '/cart/get', as(r, v));
      if (notImplemented(m, cart)) return;
      expectAnswer(cart, [{ status: 200 }], `user ${v + 1} reads their cart`);
      const row = pick(cart.body.content.cart as { cartId: number }[], a.row);
      if (!row) return; // the rows went with a sale or withdrawal: nothing to try
      await refused(
        m,
        r,
        u,
        { path: '/cart/remove', json: { cartId: row.cartId } },
        ['Cart item not found'],
        `user ${u + 1} removes cart row ${row.cartId} of user ${v + 1}`,
      );
    },
  },
  cancelTheirCashout: {
    needs: ['POST /cashout/cancel'],
    args: fc.record({ user, cashout: choice }),
    check: (m, a) => m.cashouts.some((c) => c.owner !== Number(a.user)),
    run: async (m, r, a) => {
      const u = Number(a.user);
      const c = pick(
        m.cashouts.filter((c) => c.owner !== u),
        a.cashout,
      )!;
      await refused(
        m,
        r,
        u,
        { path: '/cashout/cancel', json: { cashoutId: c.id } },
        ['Cashout not found'],
        `user ${u + 1} cancels cashout ${c.id} (${c.status}) of user ${c.owner + 1}`,
      );
    },
  },
  // A status read changes nothing: what matters is that it shows nothing of another user's trade.
  depositStatusTheirs: {
    needs: ['GET /deposit/tradeStatus/{tradeid}'],
    args: fc.record({ user, deposit: choice }),
    check: (m, a) => m.deposits.some((d) => d.owner !== Number(a.user)),
    run: async (m, r, a) => {
      const u = Number(a.user);
      const d = pick(
        m.deposits.filter((d) => d.owner !== u),
        a.deposit,
      )!;
      await refused(
        m,
        r,
        u,
        { method: 'GET', path: `/deposit/tradeStatus/${d.id}` },
        ['Deposit trade belongs to another user'],
        `user ${u + 1} reads the status of deposit trade ${d.id} of user ${d.owner + 1}`,
      );
    },
  },
  // The other user's session must survive: the invariants read with its token after the step.
  endTheirSession: {
    needs: ['GET /user/ipList', 'GET /user/disconnectSession/{id}'],
    args: fc.record({ user, other: choice, session: choice }),
    check: () => true,
    run: async (m, r, a) => {
      const u = Number(a.user);
      const v = other(u, a.other);
      const list = await r.api.send('step', 'GET', '/user/ipList', { ...as(r, v), query: { perPage: 50 } });
      if (notImplemented(m, list)) return;
      expectAnswer(list, [{ status: 200 }], `user ${v + 1} lists their sessions`);
      const session = pick(list.body.content.values as { id: number }[], a.session);
      if (!session) throw new Violation(SESSIONS, `user ${v + 1} is logged in but lists no session`, [list]);
      await refused(
        m,
        r,
        u,
        { method: 'GET', path: `/user/disconnectSession/${session.id}` },
        ['Session not found'],
        `user ${u + 1} ends session ${session.id} of user ${v + 1}`,
      );
    },
  },
};

/** Inputs the seed refuses. */
const REFUSED: Record<string, StepKind> = {
  priceOutOfRange: {
    needs: ['POST /inventory/price'],
    args: fc.record({ user, asset: choice, price: fc.constantFrom(0, 5_000_001) }),
    check: (m, a) => held(m, Number(a.user)).length > 0,
    run: async (m, r, a) => {
      const u = Number(a.user);
      const asset = pick(held(m, u), a.asset)!;
      await refused(
        m,
        r,
        u,
        { path: '/inventory/price', json: { ids: asset.assetId, price: Number(a.price) } },
        ['Price too high or invalid'],
        `user ${u + 1} prices their asset ${asset.assetId} at ${a.price}, outside 1 to 5,000,000`,
      );
    },
  },
  buyOrderNotPositive: {
    needs: ['POST /item/buyorder'],
    args: fc.record({ user, item: choice, zero: fc.constantFrom('value', 'amount') }),
    check: () => true,
    run: async (m, r, a) => {
      const u = Number(a.user);
      const itemId = pick(m.items, a.item)!;
      const json = { itemid: itemId, value: a.zero === 'value' ? 0 : 100, amount: a.zero === 'amount' ? 0 : 1 };
      await refused(
        m,
        r,
        u,
        { path: '/item/buyorder', json },
        ['Value/Amount/Itemid must be a (positive) number'],
        `user ${u + 1} orders item ${itemId} with ${a.zero} 0`,
      );
    },
  },
  cashoutBelowMinimum: {
    needs: ['POST /cashout/process'],
    args: fc.record({
      user,
      amount: fc.integer({ min: 1, max: 4_999 }),
      method: fc.constantFrom('provider_a', 'provider_b'),
    }),
    check: () => true,
    run: async (m, r, a) => {
      const u = Number(a.user);
      // Which refusal comes first when several apply is not in the document: each is accepted.
      const also = cashoutRefusals(m, u, Number(a.amount), a.method as 'provider_a' | 'provider_b').map(
        (k) => k.message,
      );
      await refused(
        m,
        r,
        u,
        { path: '/cashout/process', json: { amount: Number(a.amount), method: a.method } },
        ['Amount below minimum', ...also],
        `user ${u + 1} cashes out ${a.amount}, below the minimum of 5000`,
      );
    },
  },
  cartAddOwn: {
    needs: ['POST /cart/add'],
    args: fc.record({ user, asset: choice }),
    check: (m, a) => m.assets.some((s) => s.owner === Number(a.user) && s.place === 'sale'),
    run: async (m, r, a) => {
      const u = Number(a.user);
      const asset = pick(
        m.assets.filter((s) => s.owner === u && s.place === 'sale'),
        a.asset,
      )!;
      await refused(
        m,
        r,
        u,
        { path: '/cart/add', json: { assetId: asset.assetId } },
        ['Item not available for purchase'],
        `user ${u + 1} adds their own listed asset ${asset.assetId} to their cart`,
      );
    },
  },
};

/** Steps repeated after they completed. */
const AGAIN: Record<string, StepKind> = {
  withdrawAgain: {
    needs: ['POST /inventory/withdraw'],
    args: fc.record({ asset: choice }),
    check: (m) => m.assets.some((s) => s.place === 'withdrawing' || s.place === 'held' || s.place === 'gone'),
    run: async (m, r, a) => {
      const asset = pick(
        m.assets.filter((s) => s.place === 'withdrawing' || s.place === 'held' || s.place === 'gone'),
        a.asset,
      )!;
      // Gone from the service: whether it still "exists" for the message is not in the seed.
      const messages =
        asset.place === 'gone'
          ? ['Items not found', 'Items not available for withdrawal']
          : ['Items not available for withdrawal'];
      await refused(
        m,
        r,
        asset.owner,
        { path: '/inventory/withdraw', json: { ids: asset.assetId } },
        messages,
        `user ${asset.owner + 1} withdraws asset ${asset.assetId} again (${asset.place})`,
      );
    },
  },
  cartAddAgain: {
    needs: ['POST /cart/add'],
    args: fc.record({ user, row: choice }),
    check: (m, a) => m.carts[Number(a.user)]!.some((c) => stillListed(m, c)),
    run: async (m, r, a) => {
      const u = Number(a.user);
      const row = pick(
        m.carts[u]!.filter((c) => stillListed(m, c)),
        a.row,
      )!;
      await refused(
        m,
        r,
        u,
        { path: '/cart/add', json: { assetId: row.assetId } },
        ['Item already in cart'],
        `user ${u + 1} adds asset ${row.assetId} to their cart again`,
      );
    },
  },
  cartRemoveAgain: {
    needs: ['POST /cart/remove'],
    args: fc.record({ row: choice }),
    check: (m) => m.removedRows.length > 0,
    run: async (m, r, a) => {
      const row = pick(m.removedRows, a.row)!;
      await refused(
        m,
        r,
        row.owner,
        { path: '/cart/remove', json: { cartId: row.cartId } },
        ['Cart item not found'],
        `user ${row.owner + 1} removes their cart row ${row.cartId} again`,
      );
    },
  },
};

/** A cart row whose asset is still on sale at the price the cart stored. */
const stillListed = (m: Model, c: { assetId: string; price: number }) =>
  m.assets.some((s) => s.assetId === c.assetId && s.place === 'sale' && s.price === c.price);

/** The stranger's steps: another user's identifiers, refused inputs, repeats. */
export const STRANGER_STEPS: Record<string, StepKind> = { ...THEIRS, ...REFUSED, ...AGAIN };
