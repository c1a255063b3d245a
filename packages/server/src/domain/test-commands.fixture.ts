// The random commands of the engine's property tests (the money invariant in audit.test.ts, the
// indexes in indexes.test.ts): buy orders placed, changed and removed, assets stored and priced
// (selling into orders), purchases out of the balance, cart adds, bulk adds and checkouts, and
// support tickets opened, written on and answered, by three users over three items. One place, so
// both properties run over the same commands.
import fc from 'fast-check';
import { placeOrder, removeOrder, updateOrder } from './buy-orders.ts';
import { addBulk, addToCart, checkout } from './cart.ts';
import { putAsset, putItem } from './catalog.ts';
import { priceAssets } from './inventory.ts';
import { sell } from './sale.ts';
import { emptyState, type State } from './state.ts';
import { answerTicket, createTicket, postMessage } from './support.ts';
import { withdraw } from './trades.ts';
import { Tx } from './tx.ts';
import { createUser } from './users.ts';

export const USERS = ['76561198000000001', '76561198000000002', '76561198000000003'];

/** A state with three users and three items, committed. */
export function world(): State {
  const state = emptyState();
  const tx = new Tx(state);
  for (const [i, id] of USERS.entries()) createUser(tx, { balance: 5_000 * (i + 1) }, `key-${i}`, id, 1000);
  for (const name of ['A', 'B', 'C']) putItem(tx, { name, game: 440 });
  tx.commit();
  return state;
}

const orderKinds = ['place', 'update', 'remove'] as const;
const tradeKinds = [...orderKinds, 'asset', 'price', 'buy'] as const;
const cartKinds = [...tradeKinds, 'cart', 'bulk', 'checkout', 'withdraw'] as const;
const allKinds = [...cartKinds, 'ticket', 'post', 'answer'] as const;
export type CommandKind = (typeof allKinds)[number];

const commandOf = <K extends CommandKind>(kinds: readonly K[]) =>
  fc.record({
    kind: fc.constantFrom(...kinds),
    user: fc.integer({ min: 0, max: USERS.length - 1 }),
    item: fc.integer({ min: 1, max: 3 }),
    price: fc.integer({ min: 1, max: 4_000 }),
    amount: fc.integer({ min: 1, max: 5 }),
    pick: fc.nat(),
  });

/** Buy-order commands only. */
export const orderCommand = commandOf(orderKinds);
/** Buy orders, assets, pricing (selling into orders) and purchases out of the balance. */
export const tradeCommand = commandOf(tradeKinds);
/** All of the above, plus cart adds, bulk adds, checkouts, withdrawals and support tickets. */
export const anyCommand = commandOf(allKinds);
export interface Command {
  kind: CommandKind;
  user: number;
  item: number;
  price: number;
  amount: number;
  pick: number;
}

/** What a command did: whether it succeeded, and what it sold. */
export interface Outcome {
  ok: boolean;
  /** Assets sold into buy orders by pricing. */
  intoOrders: number;
  /** Assets bought out of the balance. */
  fromBalance: number;
}

/** Runs one command in `tx` at `now` (not committed). */
export function runCommand(tx: Tx, c: Command, now: number): Outcome {
  const owner = USERS[c.user]!;
  const terms = { owner, itemId: c.item, price: c.price, amount: c.amount, now };
  const pick = <T>(xs: T[]): T | undefined => xs[c.pick % Math.max(1, xs.length)];
  const out: Outcome = { ok: false, intoOrders: 0, fromBalance: 0 };
  const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
  switch (c.kind) {
    case 'place':
      out.ok = placeOrder(tx, terms).ok;
      break;
    case 'update':
      out.ok = updateOrder(tx, terms).ok;
      break;
    case 'remove':
      out.ok = removeOrder(tx, owner, c.item, now).ok;
      break;
    case 'asset':
      out.ok = !!putAsset(tx, { owner, itemId: c.item }, now);
      break;
    case 'price': {
      const asset = pick(
        tx
          .all('assets')
          .filter((a) => a.user === owner)
          .sort(byId),
      );
      const priced = asset && priceAssets(tx, { owner, ids: asset.assetId, price: c.price, now });
      out.ok = !!priced?.ok;
      if (priced?.ok) out.intoOrders = priced.value.sold;
      break;
    }
    case 'buy': {
      // A purchase out of the balance (what a cart checkout does) at the listed price.
      const asset = pick(
        tx
          .all('assets')
          .filter((a) => a.state === 1 && a.user !== owner)
          .sort(byId),
      );
      out.ok = !!asset && sell(tx, { asset, buyer: owner, price: asset.price!, now }).ok;
      if (out.ok) out.fromBalance = 1;
      break;
    }
    case 'cart': {
      const asset = pick(
        tx
          .all('assets')
          .filter((a) => a.state === 1)
          .sort(byId),
      );
      out.ok = !!asset && addToCart(tx, owner, asset.assetId, now).ok;
      break;
    }
    case 'bulk':
      out.ok = addBulk(tx, owner, { itemId: c.item, count: c.amount, now }).ok;
      break;
    case 'checkout': {
      const done = checkout(tx, owner, now);
      out.ok = done.ok;
      if (done.ok) out.fromBalance = done.value.purchased.length;
      break;
    }
    case 'withdraw': {
      const asset = pick(
        tx
          .all('assets')
          .filter((a) => a.user === owner)
          .sort(byId),
      );
      out.ok = !!asset && withdraw(tx, owner, asset.assetId, now).ok;
      break;
    }
    case 'ticket': {
      const ticket = { user: owner, subject: 'S', description: 'D', topic: 'T', concern: 'C', now };
      out.ok = createTicket(tx, ticket).ok;
      break;
    }
    case 'post': {
      const ticket = pick(tx.find('ticketsByUser', owner).sort(byId));
      out.ok = !!ticket && postMessage(tx, { user: owner, ticket: ticket.ticket, content: 'More', now }).ok;
      break;
    }
    case 'answer': {
      // An administrator (any user here) answers anyone's ticket: its activity and assignee change.
      const ticket = pick(tx.all('tickets').sort(byId));
      const answer = ticket && { admin: owner, user: ticket.user, ticket: ticket.ticket, content: 'Answer', now };
      out.ok = !!answer && answerTicket(tx, answer).ok;
      break;
    }
  }
  return out;
}
