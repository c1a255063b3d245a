// The invariants checked after every step, read through public routes only. They hold for any
// correct implementation of the seed: money is conserved, every asset is in exactly one place and
// sold at most once, counts equal the lists they count, histories add up to the balance, nobody
// sees another's records; and the state equals what the model (the seed's rules) predicts. Where
// the seed leaves a reading open it accepts each reading (whether the balance is net of
// reservations), fixed once per run.

import { balancePage } from '../variants.ts';
import { type Exchange, type Phase, received, Violation } from './client.ts';
import { type Model, type Real, reservedOf, sellerShare } from './model.ts';

interface UserView {
  balance: Exchange;
  inventory: Exchange;
  onSale: Exchange;
  orders: Exchange;
  cashouts: Exchange;
  sales: Exchange;
  purchases: Exchange;
  ledger: Exchange;
  cart: Exchange;
}

const PAGE = 100;

/** Reads every user's state and each item's listings. */
async function observe(real: Real, m: Model) {
  const phase: Phase = 'observe';
  // One user after another (each user's reads at once): the same order in every run, so a seed
  // repeats exactly also against a target whose answers depend on what was read before.
  const users: UserView[] = [];
  for (const a of real.actors)
    users.push(
      await (async (): Promise<UserView> => {
        const get = (path: string, query: Record<string, number> = {}) =>
          real.api.send(phase, 'GET', path, { token: a.token, ip: a.ip, query });
        const [balance, inventory, onSale, orders, cashouts, sales, purchases, ledger, cart] = await Promise.all([
          get('/user/balance'),
          get('/inventory/onInventory'),
          get('/inventory/onSale'),
          get('/user/getBuyorder', { count: PAGE }),
          get('/user/getCashoutHistory', { count: 50 }),
          get('/user/getSalesHistory', { perPage: PAGE }),
          get('/user/getPurchaseHistory', { count: PAGE }),
          get('/user/getBalanceHistory', { count: PAGE }),
          get('/cart/get'),
        ]);
        return { balance, inventory, onSale, orders, cashouts, sales, purchases, ledger, cart };
      })(),
    );
  const items = await Promise.all(
    m.items.map(async (item) => {
      const [list, count] = await Promise.all([
        real.api.send(phase, 'GET', `/item/listing/${item}`, { query: { count: PAGE } }),
        real.api.send(phase, 'GET', `/item/listing/count/${item}`),
      ]);
      return { item, list, count };
    }),
  );
  return { users, items };
}

const fail = (kind: string, message: string, ...evidence: Exchange[]): never => {
  throw new Violation(kind, `${message}\n  received: ${evidence.map(received).join('\n            ')}`, evidence);
};

/** The answer must be a 200 (a read of the state must not fail). */
function ok(x: Exchange, who: string): void {
  if (x.status !== 200) fail('the state can be read', `${who}: ${x.operation} answered ${x.status}`, x);
}

const ids = (rows: { ids?: string; assetId?: string }[]): string[] =>
  rows.flatMap((r) => String(r.ids ?? r.assetId ?? '').split(',')).filter(Boolean);
const sorted = (xs: string[]) => [...xs].sort().join(',');

/** Checks every invariant against the target's state after a step; throws a Violation. */
export async function checkInvariants(real: Real, m: Model): Promise<void> {
  const { users, items } = await observe(real, m);
  const name = (u: number) => `user ${u + 1}`;
  for (const [u, v] of users.entries()) for (const [k, x] of Object.entries(v)) ok(x, `${name(u)} ${k}`);

  // Counts equal the lists they count (everything fits one page of 100 in a run).
  const counts = 'counts equal the lists they count';
  for (const [u, v] of users.entries()) {
    for (const x of [v.inventory, v.onSale]) {
      const rows = x.body.content.items as { ids: string; count: number }[];
      const count = x.body.content.count;
      // The seed leaves open whether count counts rows or assets: either is accepted.
      if (count !== rows.length && count !== ids(rows).length)
        fail(counts, `${name(u)}: count ${count} of ${rows.length} rows (${ids(rows).length} assets)`, x);
      for (const r of rows)
        if (r.count !== String(r.ids).split(',').length)
          fail(counts, `${name(u)}: a row counts ${r.count} but lists ids ${r.ids}`, x);
    }
    const pairs: [Exchange, unknown, unknown[]][] = [
      [v.orders, v.orders.body.content.count?.nb, v.orders.body.content.values],
      [v.cashouts, v.cashouts.body.content.total, v.cashouts.body.content.cashouts],
      [v.sales, v.sales.body.content.total, v.sales.body.content.sales],
      [v.purchases, v.purchases.body.content.total, v.purchases.body.content.purchases],
      [v.ledger, balancePage(v.ledger.body.content).count, balancePage(v.ledger.body.content).values],
    ];
    for (const [x, total, rows] of pairs)
      if (total !== undefined && total !== rows.length)
        fail(counts, `${name(u)}: ${x.operation} says ${total} but lists ${rows.length}`, x);
    for (const r of v.cart.body.content.cart as { assetId: string; count: number }[])
      if (r.count !== String(r.assetId).split(',').length)
        fail(counts, `${name(u)}: a cart row counts ${r.count} but holds ${r.assetId}`, v.cart);
  }
  for (const { list, count } of items)
    if (count.body.content.count !== list.body.content.length)
      fail(
        counts,
        `${count.operation} says ${count.body.content.count}, the listing has ${list.body.content.length}`,
        count,
        list,
      );

  // Nobody sees another's records.
  const isolation = "no user sees another's records";
  for (const [u, v] of users.entries()) {
    const me = real.actors[u]!.platformId;
    for (const o of v.orders.body.content.values)
      if (o.platformid !== me) fail(isolation, `${name(u)} sees the buy order of ${o.platformid}`, v.orders);
    for (const p of v.purchases.body.content.purchases)
      if (p.seller === me) fail(isolation, `${name(u)} bought from themself`, v.purchases);
    for (const s of v.sales.body.content.sales)
      if (s.buyer === me) fail(isolation, `${name(u)} sold to themself`, v.sales);
    const mine = new Set(m.cashouts.filter((c) => c.owner === u).map((c) => c.id));
    for (const c of v.cashouts.body.content.cashouts)
      if (!mine.has(c.id)) fail(isolation, `${name(u)} sees cashout ${c.id}, not theirs`, v.cashouts);
  }

  // Every asset in exactly one place, the one the seed's rules put it in.
  const places = 'every asset is in exactly one place';
  const seen = new Map<string, { here: string[]; x: Exchange[] }>();
  for (const [u, v] of users.entries())
    for (const [where, x] of [
      ['inventory', v.inventory],
      ['sale', v.onSale],
    ] as const)
      for (const id of ids(x.body.content.items)) {
        const at = seen.get(id) ?? { here: [], x: [] };
        at.here.push(`${name(u)} ${where}`);
        at.x.push(x);
        seen.set(id, at);
      }
  for (const [id, at] of seen)
    if (at.here.length > 1) fail(places, `asset ${id} is in ${at.here.join(' and in ')}`, ...at.x);
  for (const [id, at] of seen) {
    const a = m.assets.find((s) => s.assetId === id);
    if (!a) fail(places, `${at.here[0]} shows asset ${id}, which this run never created`, ...at.x);
    else if (`${name(a.owner)} ${a.place}` !== at.here[0])
      fail(places, `asset ${id} should be in ${name(a.owner)} ${a.place}, it is in ${at.here[0]}`, ...at.x);
  }
  for (const a of m.assets)
    if ((a.place === 'inventory' || a.place === 'sale') && !seen.has(a.assetId))
      fail(
        places,
        `asset ${a.assetId} should be in ${name(a.owner)} ${a.place}, it is nowhere`,
        users[a.owner]!.inventory,
        users[a.owner]!.onSale,
      );
  for (const { item, list } of items) {
    const listed = (list.body.content as { assetId: string; price: number }[]).map((l) => `${l.assetId}@${l.price}`);
    const want = m.assets.filter((a) => a.itemId === item && a.place === 'sale').map((a) => `${a.assetId}@${a.price}`);
    if (sorted(listed) !== sorted(want))
      fail(
        places,
        `item ${item} should list ${want.join(', ') || 'nothing'}, lists ${listed.join(', ') || 'nothing'}`,
        list,
      );
  }

  // Buy orders, cashouts and carts as the model has them.
  for (const [u, v] of users.entries()) {
    const rows = (v.orders.body.content.values as { itemid: number; price: number; amount: number }[]).map(
      (o) => `item ${o.itemid}: ${o.amount} at ${o.price}`,
    );
    const want = m.orders.filter((o) => o.owner === u).map((o) => `item ${o.itemId}: ${o.amount} at ${o.price}`);
    if (sorted(rows) !== sorted(want))
      fail('buy orders are as placed and filled', `${name(u)} should have ${want.join('; ') || 'none'}`, v.orders);
    for (const c of m.cashouts.filter((c) => c.owner === u)) {
      const row = (v.cashouts.body.content.cashouts as { id: number; status: string }[]).find((r) => r.id === c.id);
      if (row?.status !== c.status)
        fail('cashouts are as requested and paid', `${name(u)}'s cashout ${c.id} should be ${c.status}`, v.cashouts);
    }
    const cart = ids((v.cart.body.content.cart as { assetId: string }[]).map((r) => ({ assetId: r.assetId })));
    // Whether a cart keeps an asset that was sold, withdrawn or re-priced since is not in the seed
    // (POST /cart/update repairs it): such an asset may be gone from the cart; nothing else may.
    const stillValid = (c: { assetId: string; price: number }) => {
      const a = m.assets.find((s) => s.assetId === c.assetId);
      return a?.place === 'sale' && a.price === c.price && a.owner !== u;
    };
    const extra = cart.filter((id) => !m.carts[u]!.some((c) => c.assetId === id));
    const lost = m.carts[u]!.filter((c) => !cart.includes(c.assetId) && stillValid(c));
    if (extra.length || lost.length)
      fail(
        'the cart holds what was added',
        `${name(u)}'s cart should hold ${m.carts[u]!.map((c) => c.assetId).join(', ') || 'nothing'}${extra.length ? `, not ${extra.join(', ')}` : ''}`,
        v.cart,
      );
    m.carts[u] = m.carts[u]!.filter((c) => cart.includes(c.assetId));
  }

  // An asset is sold at most once: as many sales and purchases as sales the model made.
  const sales = users.flatMap((v) => v.sales.body.content.sales as { price: number }[]);
  const purchases = users.flatMap((v) => v.purchases.body.content.purchases as { price: number }[]);
  if (sales.length !== m.sales || purchases.length !== m.sales)
    fail(
      'an asset is sold at most once',
      `${m.sales} sales happened; the sales histories hold ${sales.length}, the purchase histories ${purchases.length}`,
      ...users.map((v) => v.sales),
    );

  // Money is conserved: balances + reservations + cashouts not refunded + fees = opening balances.
  const observed = users.map((v) => ({
    balance: v.balance.body.content.balance as number,
    reserved: (v.orders.body.content.values as { price: number; amount: number }[]).reduce(
      (n, o) => n + o.price * o.amount,
      0,
    ),
  }));
  const wealthOf = (u: number, reading: 'net' | 'gross') =>
    observed[u]!.balance + (reading === 'net' ? observed[u]!.reserved : 0);
  if (!m.reading)
    for (const u of users.keys())
      if (observed[u]!.reserved > 0) {
        // The first reservation decides how this target shows balances (both are accepted).
        m.reading = wealthOf(u, 'net') === m.wealth[u] ? 'net' : 'gross';
        break;
      }
  const reading = m.reading ?? 'net';
  const outflow = m.cashouts.filter((c) => c.status !== 'failed').reduce((n, c) => n + c.amount + c.fee, 0);
  const fees = sales.reduce((n, s) => n + s.price - sellerShare(s.price), 0);
  const onService = users.reduce((n, _, u) => n + wealthOf(u, reading), 0);
  if (onService + outflow + fees !== m.putIn)
    fail(
      'money is conserved',
      `balances${reading === 'net' ? ' + reservations' : ''} ${onService} + cashed out ${outflow} + sale fees ${fees} = ${onService + outflow + fees}, but ${m.putIn} was put in`,
      ...users.map((v) => v.balance),
    );
  for (const u of users.keys()) {
    if (observed[u]!.balance < 0)
      fail('no balance is negative', `${name(u)}: ${observed[u]!.balance}`, users[u]!.balance);
    if (wealthOf(u, reading) !== m.wealth[u])
      fail(
        'each balance is what the seed rules make it',
        `${name(u)} should hold ${m.wealth[u]! - (reading === 'net' ? reservedOf(m, u) : 0)} (${reading === 'net' ? 'net of' : 'with'} reservations ${reservedOf(m, u)})`,
        users[u]!.balance,
      );
  }

  // Histories add up to the balance: each entry's balance is the one before plus its amount.
  for (const [u, v] of users.entries()) {
    const listed = balancePage(v.ledger.body.content).values as { amount: number; balance: number }[];
    const balance = observed[u]!.balance;
    // Newest first (the reference) or oldest first: the seed does not say; the chain holds either way.
    const entries = listed[0]?.balance === balance ? listed : [...listed].reverse();
    const sum = entries.reduce((n, e) => n + e.amount, 0);
    if (sum !== balance || (entries[0] && entries[0].balance !== balance))
      fail(
        'histories add up to the balance',
        `${name(u)}: entries sum to ${sum}, the newest says ${entries[0]?.balance}, the balance is ${balance}`,
        v.ledger,
        v.balance,
      );
    for (let i = 0; i + 1 < entries.length; i += 1)
      if (entries[i]!.balance !== entries[i + 1]!.balance + entries[i]!.amount)
        fail('histories add up to the balance', `${name(u)}: entry ${i} does not follow from the one before`, v.ledger);
  }
}
