// The invariants checked after every step, read through public routes only. They hold for any
// correct implementation of the seed: money is conserved, every asset is in exactly one place and
// sold at most once, counts equal the lists they count, histories add up to the balance, nobody
// sees another's records; and the state equals what the model (the seed's rules) predicts. Where
// the seed leaves a reading open it accepts each reading (whether the balance is net of
// reservations), fixed once per run.
//
// A registry (`INVARIANTS`), each entry naming the reads it needs: on a partial implementation a
// read that answered 404 when the session started is not sent, and the entries needing it are left
// out (`leftOutInvariants`, said in the report as the suite says its skips); the others still run.

import { notImplementedReason } from '../kit/not-implemented.ts';
import { balancePage } from '../kit/variants.ts';
import { type ExplorerCall, type Phase, received, Violation } from './client.ts';
import { type Model, type Real, reservedOf, sellerShare } from './model.ts';

/** The public reads the invariants are made of, by the operation each sends. */
export const READS = {
  balance: 'GET /user/balance',
  inventory: 'GET /inventory/onInventory',
  onSale: 'GET /inventory/onSale',
  orders: 'GET /user/getBuyorder',
  cashouts: 'GET /user/getCashoutHistory',
  sales: 'GET /user/getSalesHistory',
  purchases: 'GET /user/getPurchaseHistory',
  ledger: 'GET /user/getBalanceHistory',
  cart: 'GET /cart/get',
  listing: 'GET /item/listing/{item}',
  count: 'GET /item/listing/count/{item}',
  giveaway: 'GET /giveaways/details/{url}',
} as const;
export type Read = keyof typeof READS;

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, checked by the contract first
type Json = any;

const PAGE = 100;
const USER_READS: [Read, string, Record<string, number>][] = [
  ['balance', '/user/balance', {}],
  ['inventory', '/inventory/onInventory', {}],
  ['onSale', '/inventory/onSale', {}],
  ['orders', '/user/getBuyorder', { count: PAGE }],
  ['cashouts', '/user/getCashoutHistory', { count: 50 }],
  ['sales', '/user/getSalesHistory', { perPage: PAGE }],
  ['purchases', '/user/getPurchaseHistory', { count: PAGE }],
  ['ledger', '/user/getBalanceHistory', { count: PAGE }],
  ['cart', '/cart/get', {}],
];

/** A user's reads (those the target implements). */
type UserView = Partial<Record<Read, ExplorerCall>>;
interface ItemView {
  item: number;
  list?: ExplorerCall;
  count?: ExplorerCall;
}

/** What one check sees: the reads of every user, item and giveaway, the model, the run. */
interface State {
  real: Real;
  m: Model;
  users: UserView[];
  items: ItemView[];
  /** The details of each giveaway of the model, in its order (none when the read is not implemented). */
  giveaways: ExplorerCall[];
}

interface Invariant {
  /** The Violation kind (shrinking keeps failures of one kind). */
  kind: string;
  /** The reads it is made of: left out when one of them is not implemented. */
  needs: Read[];
  check: (s: State) => void;
}

const readable = (missing: ReadonlySet<string>, r: Read) => !missing.has(READS[r]);

/**
 * Reads every user's state and each item's listings, one user after another (each user's reads at
 * once): the same order in every run, so a seed repeats exactly also against a target whose answers
 * depend on what was read before. Reads the target does not implement are not sent.
 */
async function observe(real: Real, m: Model) {
  const phase: Phase = 'observe';
  const has = (r: Read) => readable(m.missing, r);
  const users: UserView[] = [];
  for (const a of real.actors) {
    const reads = USER_READS.filter(([r]) => has(r));
    const answers = await Promise.all(
      reads.map(([, path, query]) => real.api.send(phase, 'GET', path, { token: a.token, ip: a.ip, query })),
    );
    users.push(Object.fromEntries(reads.map(([r], i) => [r, answers[i]!])));
  }
  const items = await Promise.all(
    m.items.map(async (item): Promise<ItemView> => {
      const [list, count] = await Promise.all([
        has('listing') ? real.api.send(phase, 'GET', `/item/listing/${item}`, { query: { count: PAGE } }) : undefined,
        has('count') ? real.api.send(phase, 'GET', `/item/listing/count/${item}`) : undefined,
      ]);
      return { item, list, count };
    }),
  );
  // Giveaway routes need a connected caller: the first user reads them all.
  const reader = { token: real.actors[0]!.token, ip: real.actors[0]!.ip };
  const giveaways = has('giveaway')
    ? await Promise.all(m.giveaways.map((g) => real.api.send(phase, 'GET', `/giveaways/details/${g.url}`, reader)))
    : [];
  return { users, items, giveaways };
}

/**
 * The reads of the invariants the target does not implement: each sent once after the set-up (as
 * the first user, for the first item), each answering 404 (the suite's rule, not-implemented.ts)
 * added to `missing` and never sent again. Any other answer is judged in the runs.
 */
export async function probeReads(real: Real, m: Model): Promise<void> {
  const a = real.actors[0]!;
  const item = m.items[0]!;
  const probes = [
    ...USER_READS.map(
      ([, path, query]) =>
        () =>
          real.api.send('setup', 'GET', path, { token: a.token, ip: a.ip, query }),
    ),
    () => real.api.send('setup', 'GET', `/item/listing/${item}`, { query: { count: PAGE } }),
    () => real.api.send('setup', 'GET', `/item/listing/count/${item}`),
    // No giveaway exists yet: an implemented route answers "Giveaway not found", a missing one 404.
    () => real.api.send('setup', 'GET', '/giveaways/details/000000000000', { token: a.token, ip: a.ip }),
  ];
  for (const probe of probes) {
    const x = await probe().catch(() => undefined);
    if (x?.status === 404) m.missing.add(x.operation);
  }
}

/** The invariants left out because a read they need is not implemented, each with the suite's skip reason. */
export function leftOutInvariants(missing: ReadonlySet<string>): { invariant: string; reason: string }[] {
  return INVARIANTS.flatMap((i) => {
    const gone = i.needs.find((r) => !readable(missing, r));
    if (!gone) return [];
    const invariant = `${i.kind} (${i.needs.map((r) => READS[r]).join(', ')})`;
    return [{ invariant, reason: notImplementedReason(READS[gone], `check that ${i.kind}`) }];
  });
}

const fail = (kind: string, message: string, ...evidence: ExplorerCall[]): never => {
  throw new Violation(kind, `${message}\n  received: ${evidence.map(received).join('\n            ')}`, evidence);
};

const ids = (rows: { ids?: string; assetId?: string }[]): string[] =>
  rows.flatMap((r) => String(r.ids ?? r.assetId ?? '').split(',')).filter(Boolean);
const sorted = (xs: string[]) => [...xs].sort().join(',');
const name = (u: number) => `user ${u + 1}`;

const COUNTS = 'counts equal the lists they count';
const ISOLATION = "no user sees another's records";
const PLACES = 'every asset is in exactly one place';
const SOLD_ONCE = 'an asset is sold at most once';
const LEDGER = 'histories add up to the balance';

/** A list with its total: `total` must equal the rows. */
const totalOf = (read: Read, total: (c: Json) => unknown, rows: (c: Json) => unknown[]): Invariant => ({
  kind: COUNTS,
  needs: [read],
  check: ({ users }) => {
    for (const [u, v] of users.entries()) {
      const x = v[read]!;
      const [t, r] = [total(x.body.content), rows(x.body.content)];
      if (t !== undefined && t !== r.length)
        fail(COUNTS, `${name(u)}: ${x.operation} says ${t} but lists ${r.length}`, x);
    }
  },
});

/** Grouped inventory rows: the list's count (rows or assets, the seed leaves it open) and each row's. */
const groupedCounts = (read: 'inventory' | 'onSale'): Invariant => ({
  kind: COUNTS,
  needs: [read],
  check: ({ users }) => {
    for (const [u, v] of users.entries()) {
      const x = v[read]!;
      const rows = x.body.content.items as { ids: string; count: number }[];
      const count = x.body.content.count;
      if (count !== rows.length && count !== ids(rows).length)
        fail(COUNTS, `${name(u)}: count ${count} of ${rows.length} rows (${ids(rows).length} assets)`, x);
      for (const r of rows)
        if (r.count !== String(r.ids).split(',').length)
          fail(COUNTS, `${name(u)}: a row counts ${r.count} but lists ids ${r.ids}`, x);
    }
  },
});

/** Each user's list of `read` holds only the caller's records. */
const isolated = (read: Read, foreign: (row: Json, u: number, s: State) => string | undefined): Invariant => ({
  kind: ISOLATION,
  needs: [read],
  check: (s) => {
    for (const [u, v] of s.users.entries()) {
      const x = v[read]!;
      for (const row of listOf(read, x)) {
        const why = foreign(row, u, s);
        if (why) fail(ISOLATION, `${name(u)} ${why}`, x);
      }
    }
  },
});

const listOf = (read: Read, x: ExplorerCall): Json[] =>
  ({
    orders: x.body.content.values,
    purchases: x.body.content.purchases,
    sales: x.body.content.sales,
    cashouts: x.body.content.cashouts,
  })[read as string] ?? [];

/** As many sales (or purchases) recorded as sales the model made. */
const soldOnce = (read: 'sales' | 'purchases'): Invariant => ({
  kind: SOLD_ONCE,
  needs: [read],
  check: ({ users, m }) => {
    const n = users.reduce((k, v) => k + listOf(read, v[read]!).length, 0);
    if (n !== m.sales)
      fail(SOLD_ONCE, `${m.sales} sales happened; the ${read} histories hold ${n}`, ...users.map((v) => v[read]!));
  },
});

/** Per user, the balance and the reservations (read, or the model's where buy orders cannot be read). */
function holdings({ users, m }: State) {
  return users.map((v, u) => ({
    balance: v.balance!.body.content.balance as number,
    reserved: v.orders
      ? (v.orders.body.content.values as { price: number; amount: number }[]).reduce(
          (n, o) => n + o.price * o.amount,
          0,
        )
      : reservedOf(m, u),
  }));
}

/** How this target shows balances (net of reservations or not), fixed by the first reservation seen. */
function readingOf(s: State): 'net' | 'gross' {
  const observed = holdings(s);
  if (!s.m.reading)
    for (const [u, o] of observed.entries())
      if (o.reserved > 0) {
        s.m.reading = o.balance + o.reserved === s.m.wealth[u] ? 'net' : 'gross';
        break;
      }
  return s.m.reading ?? 'net';
}

const wealthOf = (o: { balance: number; reserved: number }, reading: 'net' | 'gross') =>
  o.balance + (reading === 'net' ? o.reserved : 0);

export const INVARIANTS: Invariant[] = [
  {
    kind: 'the state can be read',
    needs: [],
    check: ({ users, items, giveaways, m }) => {
      const reads: [string, ExplorerCall | undefined][] = [
        ...giveaways.map((x, i): [string, ExplorerCall] => [`giveaway ${m.giveaways[i]!.url}`, x]),
        ...users.flatMap((v, u) => Object.entries(v).map(([k, x]): [string, ExplorerCall] => [`${name(u)} ${k}`, x])),
        ...items.flatMap((i): [string, ExplorerCall | undefined][] => [
          [`item ${i.item}`, i.list],
          [`item ${i.item}`, i.count],
        ]),
      ];
      for (const [who, x] of reads)
        if (x && x.status !== 200) fail('the state can be read', `${who}: ${x.operation} answered ${x.status}`, x);
    },
  },
  groupedCounts('inventory'),
  groupedCounts('onSale'),
  totalOf(
    'orders',
    (c) => c.count?.nb,
    (c) => c.values,
  ),
  totalOf(
    'cashouts',
    (c) => c.total,
    (c) => c.cashouts,
  ),
  totalOf(
    'sales',
    (c) => c.total,
    (c) => c.sales,
  ),
  totalOf(
    'purchases',
    (c) => c.total,
    (c) => c.purchases,
  ),
  totalOf(
    'ledger',
    (c) => balancePage(c).count,
    (c) => balancePage(c).values,
  ),
  {
    kind: COUNTS,
    needs: ['cart'],
    check: ({ users }) => {
      for (const [u, v] of users.entries())
        for (const r of v.cart!.body.content.cart as { assetId: string; count: number }[])
          if (r.count !== String(r.assetId).split(',').length)
            fail(COUNTS, `${name(u)}: a cart row counts ${r.count} but holds ${r.assetId}`, v.cart!);
    },
  },
  {
    kind: COUNTS,
    needs: ['listing', 'count'],
    check: ({ items }) => {
      for (const { list, count } of items)
        if (count!.body.content.count !== list!.body.content.length)
          fail(
            COUNTS,
            `${count!.operation} says ${count!.body.content.count}, the listing has ${list!.body.content.length}`,
            count!,
            list!,
          );
    },
  },
  isolated('orders', (o, u, s) =>
    o.platformid !== s.real.actors[u]!.platformId ? `sees the buy order of ${o.platformid}` : undefined,
  ),
  isolated('purchases', (p, u, s) => (p.seller === s.real.actors[u]!.platformId ? 'bought from themself' : undefined)),
  isolated('sales', (p, u, s) => (p.buyer === s.real.actors[u]!.platformId ? 'sold to themself' : undefined)),
  isolated('cashouts', (c, u, s) =>
    s.m.cashouts.some((k) => k.owner === u && k.id === c.id) ? undefined : `sees cashout ${c.id}, not theirs`,
  ),
  {
    kind: PLACES,
    needs: ['inventory', 'onSale'],
    check: ({ users, m }) => {
      const seen = new Map<string, { here: string[]; x: ExplorerCall[] }>();
      for (const [u, v] of users.entries())
        for (const [where, x] of [
          ['inventory', v.inventory!],
          ['sale', v.onSale!],
        ] as const)
          for (const id of ids(x.body.content.items)) {
            const at = seen.get(id) ?? { here: [], x: [] };
            at.here.push(`${name(u)} ${where}`);
            at.x.push(x);
            seen.set(id, at);
          }
      for (const [id, at] of seen)
        if (at.here.length > 1) fail(PLACES, `asset ${id} is in ${at.here.join(' and in ')}`, ...at.x);
      for (const [id, at] of seen) {
        const a = m.assets.find((s) => s.assetId === id);
        if (!a) fail(PLACES, `${at.here[0]} shows asset ${id}, which this run never created`, ...at.x);
        else if (`${name(a.owner)} ${a.place}` !== at.here[0])
          fail(PLACES, `asset ${id} should be in ${name(a.owner)} ${a.place}, it is in ${at.here[0]}`, ...at.x);
      }
      for (const a of m.assets)
        if ((a.place === 'inventory' || a.place === 'sale') && !seen.has(a.assetId))
          fail(
            PLACES,
            `asset ${a.assetId} should be in ${name(a.owner)} ${a.place}, it is nowhere`,
            users[a.owner]!.inventory!,
            users[a.owner]!.onSale!,
          );
    },
  },
  {
    kind: PLACES,
    needs: ['listing'],
    check: ({ items, m }) => {
      for (const { item, list } of items) {
        const listed = (list!.body.content as { assetId: string; price: number }[]).map(
          (l) => `${l.assetId}@${l.price}`,
        );
        const want = m.assets
          .filter((a) => a.itemId === item && a.place === 'sale')
          .map((a) => `${a.assetId}@${a.price}`);
        if (sorted(listed) !== sorted(want))
          fail(
            PLACES,
            `item ${item} should list ${want.join(', ') || 'nothing'}, lists ${listed.join(', ') || 'nothing'}`,
            list!,
          );
      }
    },
  },
  {
    kind: 'buy orders are as placed and filled',
    needs: ['orders'],
    check: ({ users, m }) => {
      for (const [u, v] of users.entries()) {
        const rows = (v.orders!.body.content.values as { itemid: number; price: number; amount: number }[]).map(
          (o) => `item ${o.itemid}: ${o.amount} at ${o.price}`,
        );
        const want = m.orders.filter((o) => o.owner === u).map((o) => `item ${o.itemId}: ${o.amount} at ${o.price}`);
        if (sorted(rows) !== sorted(want))
          fail('buy orders are as placed and filled', `${name(u)} should have ${want.join('; ') || 'none'}`, v.orders!);
      }
    },
  },
  {
    kind: 'cashouts are as requested and paid',
    needs: ['cashouts'],
    check: ({ users, m }) => {
      for (const [u, v] of users.entries())
        for (const c of m.cashouts.filter((c) => c.owner === u)) {
          const rows = v.cashouts!.body.content.cashouts as { id: number; status: string }[];
          if (rows.find((r) => r.id === c.id)?.status !== c.status)
            fail(
              'cashouts are as requested and paid',
              `${name(u)}'s cashout ${c.id} should be ${c.status}`,
              v.cashouts!,
            );
        }
    },
  },
  {
    kind: 'the cart holds what was added',
    needs: ['cart'],
    check: ({ users, m }) => {
      for (const [u, v] of users.entries()) {
        const cart = ids((v.cart!.body.content.cart as { assetId: string }[]).map((r) => ({ assetId: r.assetId })));
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
            v.cart!,
          );
        m.carts[u] = m.carts[u]!.filter((c) => cart.includes(c.assetId));
      }
    },
  },
  {
    // A refused step of a stranger (leaving a giveaway they are not in, pooling another's asset)
    // must leave every giveaway as it was: its pooled asset, its creator and who joined it.
    kind: 'giveaways hold what was pooled and who joined',
    needs: ['giveaway'],
    check: ({ giveaways, m, real }) => {
      for (const [i, g] of m.giveaways.entries()) {
        const x = giveaways[i]!;
        const { giveaway, participants } = x.body.data as Json;
        const who = (u: number) => real.actors[u]!.platformId;
        const seen = `created by ${giveaway?.creator?.platformId}, pooling ${ids(giveaway?.items ?? []).join(', ')}, joined by ${sorted((participants ?? []).map((p: Json) => String(p.platformId)))}`;
        const want = `created by ${who(g.creator)}, pooling ${g.assetId}, joined by ${sorted(g.entrants.map(who))}`;
        if (seen !== want)
          fail('giveaways hold what was pooled and who joined', `giveaway ${g.url} should be ${want}`, x);
      }
    },
  },
  soldOnce('sales'),
  soldOnce('purchases'),
  {
    // Balances + reservations + cashouts not refunded + fees = opening balances. The fees are read
    // from the sales histories, or taken from the model's sales where they cannot be read.
    kind: 'money is conserved',
    needs: ['balance'],
    check: (s) => {
      const { users, m } = s;
      const reading = readingOf(s);
      const observed = holdings(s);
      const outflow = m.cashouts.filter((c) => c.status !== 'failed').reduce((n, c) => n + c.amount + c.fee, 0);
      const fees = users.every((v) => v.sales)
        ? users
            .flatMap((v) => v.sales!.body.content.sales as { price: number }[])
            .reduce((n, x) => n + x.price - sellerShare(x.price), 0)
        : m.fees;
      const onService = observed.reduce((n, o) => n + wealthOf(o, reading), 0);
      if (onService + outflow + fees !== m.putIn)
        fail(
          'money is conserved',
          `balances${reading === 'net' ? ' + reservations' : ''} ${onService} + cashed out ${outflow} + sale fees ${fees} = ${onService + outflow + fees}, but ${m.putIn} was put in`,
          ...users.map((v) => v.balance!),
        );
    },
  },
  {
    kind: 'each balance is what the seed rules make it',
    needs: ['balance'],
    check: (s) => {
      const reading = readingOf(s);
      for (const [u, o] of holdings(s).entries()) {
        if (o.balance < 0) fail('no balance is negative', `${name(u)}: ${o.balance}`, s.users[u]!.balance!);
        if (wealthOf(o, reading) !== s.m.wealth[u])
          fail(
            'each balance is what the seed rules make it',
            `${name(u)} should hold ${s.m.wealth[u]! - (reading === 'net' ? reservedOf(s.m, u) : 0)} (${reading === 'net' ? 'net of' : 'with'} reservations ${reservedOf(s.m, u)})`,
            s.users[u]!.balance!,
          );
      }
    },
  },
  {
    // Each entry's balance is the one before plus its amount, the newest one the balance.
    kind: LEDGER,
    needs: ['ledger', 'balance'],
    check: ({ users }) => {
      for (const [u, v] of users.entries()) {
        const listed = balancePage(v.ledger!.body.content).values as { amount: number; balance: number }[];
        const balance = v.balance!.body.content.balance as number;
        // Newest first (the reference) or oldest first: the seed does not say; the chain holds either way.
        const entries = listed[0]?.balance === balance ? listed : [...listed].reverse();
        const sum = entries.reduce((n, e) => n + e.amount, 0);
        if (sum !== balance || (entries[0] && entries[0].balance !== balance))
          fail(
            LEDGER,
            `${name(u)}: entries sum to ${sum}, the newest says ${entries[0]?.balance}, the balance is ${balance}`,
            v.ledger!,
            v.balance!,
          );
        for (let i = 0; i + 1 < entries.length; i += 1)
          if (entries[i]!.balance !== entries[i + 1]!.balance + entries[i]!.amount)
            fail(LEDGER, `${name(u)}: entry ${i} does not follow from the one before`, v.ledger!);
      }
    },
  },
];

/** Checks every invariant the target's reads allow against its state after a step; throws a Violation. */
export async function checkInvariants(real: Real, m: Model): Promise<void> {
  const { users, items, giveaways } = await observe(real, m);
  const state: State = { real, m, users, items, giveaways };
  // The state can be read first: the others read the bodies of 200 answers.
  for (const i of INVARIANTS) if (i.needs.every((r) => readable(m.missing, r))) i.check(state);
}
