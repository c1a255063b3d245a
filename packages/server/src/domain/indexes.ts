// Secondary indexes of the state (issue 13, ADR 0009): what a route reads is found through one of
// these instead of a scan of a whole collection, so a request costs what it returns or touches,
// not what the service holds. An index holds references to the stored records (never copies), is
// built from the state the first time it is asked for (so a loaded or replaced state gets fresh
// ones) and is kept up to date by the unit of work's commit (tx.ts). A `hash` index groups records
// under string keys (a record may sit under several keys, or none); a `sorted` index keeps each
// group in a B-tree ordered by its comparator (O(log n) insert and delete), so pages,
// cheapest-first and best-order-first reads walk the head of a group instead of sorting it.
import btree from 'sorted-btree';
import type { Giveaway, Ticket } from './records.ts';
import type { Asset, BuyOrder, CollectionName, Collections, Sale, State } from './state.ts';

type Row<C extends CollectionName> = Readonly<Collections[C]>;
// A CommonJS package with `exports.default`: Node hands `module.exports` over as the default
// import, bundlers that honour `__esModule` (vitest) the class itself.
type BTree<K, V> = import('sorted-btree').default<K, V>;
const BTree = ((btree as { default?: unknown }).default ?? btree) as typeof btree.default;

export interface HashDef<C extends CollectionName> {
  kind: 'hash';
  c: C;
  /** The keys a record is found under; undefined or [] leaves it out. */
  keys: (row: Row<C>) => string | readonly string[] | undefined;
}

export interface SortedDef<C extends CollectionName> {
  kind: 'sorted';
  c: C;
  /** The group a record belongs to; undefined leaves it out. */
  group: (row: Row<C>) => string | undefined;
  /** The order within a group; 0 only for the same record. */
  order: (a: Row<C>, b: Row<C>) => number;
  /** A quantity summed per group (the amounts of buy orders); 1 per record when absent. */
  weight?: (row: Row<C>) => number;
}

const hash = <C extends CollectionName>(c: C, keys: HashDef<C>['keys']): HashDef<C> => ({ kind: 'hash', c, keys });
const sorted = <C extends CollectionName>(
  c: C,
  group: SortedDef<C>['group'],
  order: SortedDef<C>['order'],
  weight?: SortedDef<C>['weight'],
): SortedDef<C> => ({ kind: 'sorted', c, group, order, ...(weight ? { weight } : {}) });

/** Whether an asset is an active listing (seed: States, state 1 "listed for sale"). */
export const isListed = (a: Pick<Asset, 'state' | 'price'>): boolean =>
  a.state === 1 && a.price !== null && a.price > 0;

/** Whether a buy order still wants items (seed: `amount` is the remaining quantity). */
export const isActiveOrder = (o: Pick<BuyOrder, 'amount'>): boolean => o.amount > 0;

/** The order of buy orders for filling: highest price, then oldest (creation time, then ID). */
export const fillOrder = (a: Readonly<BuyOrder>, b: Readonly<BuyOrder>): number =>
  b.price - a.price || Number(a.timestamp) - Number(b.timestamp) || a.id - b.id;

/** Listings by price ascending, equal prices in creation order (ID ascending). */
export const cheapestListing = (a: Readonly<Asset>, b: Readonly<Asset>): number => a.price! - b.price! || a.id - b.id;

/** Sales latest first; among sales of the same second the later record first. */
export const latestSale = (a: Readonly<Sale>, b: Readonly<Sale>): number => b.timestamp - a.timestamp || b.id - a.id;

/** Tickets by most recent activity first (the last message), the later ticket first on a tie. */
export const latestActivity = (a: Readonly<Ticket>, b: Readonly<Ticket>): number =>
  b.last_message - a.last_message || b.id - a.id;

const soonestEnd = (a: Readonly<Giveaway>, b: Readonly<Giveaway>): number => a.endsAt - b.endsAt || a.id - b.id;
const lower = (s: string): string | undefined => (s === '' ? undefined : s.trim().toLowerCase());

/** Every index of the engine, by name. */
export const INDEXES = {
  assetsByOwner: hash('assets', (a) => a.user),
  /** Several records can share a platform asset ID: an asset withdrawn and deposited again. */
  assetsByAssetId: hash('assets', (a) => a.assetId),
  listingsByItem: sorted('assets', (a) => (isListed(a) ? String(a.item_id) : undefined), cheapestListing),
  ordersByOwner: hash('buyOrders', (o) => o.platformid),
  orderBook: sorted(
    'buyOrders',
    (o) => (isActiveOrder(o) ? String(o.itemid) : undefined),
    fillOrder,
    (o) => o.amount,
  ),
  salesByItem: sorted('sales', (s) => String(s.item_id), latestSale),
  salesByTime: sorted('sales', () => '', latestSale),
  salesByUser: hash('sales', (s) => [`seller:${s.seller}`, `buyer:${s.buyer}`]),
  ledgerByUser: hash('ledger', (e) => e.user),
  cartByUser: hash('cartRows', (r) => r.user),
  tradesByUser: hash('trades', (t) => t.user),
  tradesByOffer: hash('trades', (t) => t.tradeId),
  cashoutsByUser: hash('cashouts', (c) => c.user),
  notificationsByUser: hash('notifications', (n) => n.user),
  ticketsByUser: hash('tickets', (t) => t.user),
  ticketsByAssignee: hash('tickets', (t) => t.assigned ?? undefined),
  /** Every ticket, most recent activity first: the admin's list walks it instead of sorting them all. */
  ticketsByActivity: sorted('tickets', () => '', latestActivity),
  messagesByTicket: hash('ticketMessages', (m) => String(m.ticket)),
  giveawaysByUrl: hash('giveaways', (g) => g.url),
  giveawaysByOwner: hash('giveaways', (g) => g.owner),
  giveawaysByParticipant: hash('giveaways', (g) => g.participants.map((p) => p.user)),
  /** Public (type 0) giveaways, running or ended. */
  giveawaysByList: hash('giveaways', (g) => (g.type === 0 ? (g.ended ? 'publicHistory' : 'public') : undefined)),
  /** Giveaways not ended yet, soonest end first: asked before every request. */
  giveawaysRunning: sorted('giveaways', (g) => (g.ended ? undefined : ''), soonestEnd),
  commentsByGiveaway: hash('giveawayComments', (c) => String(c.giveaway)),
  commentsByUser: hash('giveawayComments', (c) => c.user),
  sessionsByUser: hash('sessions', (s) => s.user),
  usersByShortUrl: hash('users', (u) => lower(u.shorturl)),
  usersByEmail: hash('users', (u) => lower(u.email)),
  admins: hash('users', (u) => (u.admin ? 'admin' : undefined)),
  itemsByUrl: hash('items', (i) => i.url),
  itemsByGame: hash('items', (i) => String(i.game)),
  codesByUser: hash('codeRequests', (r) => r.user),
  bansByUser: hash('bans', (b) => b.user),
} as const;

export type IndexName = keyof typeof INDEXES;
export type HashName = { [N in IndexName]: (typeof INDEXES)[N] extends { kind: 'hash' } ? N : never }[IndexName];
export type SortedName = { [N in IndexName]: (typeof INDEXES)[N] extends { kind: 'sorted' } ? N : never }[IndexName];
/** The record type an index holds. */
export type RowOf<N extends IndexName> = (typeof INDEXES)[N] extends { c: infer C extends CollectionName }
  ? Row<C>
  : never;

type AnyRow = object;
type AnyHash = HashDef<CollectionName> & { keys: (row: AnyRow) => string | readonly string[] | undefined };
type AnySorted = SortedDef<CollectionName> & {
  group: (row: AnyRow) => string | undefined;
  order: (a: AnyRow, b: AnyRow) => number;
  weight?: (row: AnyRow) => number;
};
export const defOf = (name: IndexName): AnyHash | AnySorted => INDEXES[name] as unknown as AnyHash | AnySorted;

/** The keys of a record in a hash index, as a list. */
export function keysOf(def: AnyHash, row: AnyRow): readonly string[] {
  const keys = def.keys(row);
  return keys === undefined ? [] : typeof keys === 'string' ? [keys] : keys;
}

/** A group of a hash index: one record alone (most asset IDs), else a set. */
type Bucket = AnyRow | Set<AnyRow>;
export interface SortedGroup {
  tree: BTree<AnyRow, undefined>;
  weight: number;
}

/** The indexes of one state. */
export class Indexes {
  readonly hashes = new Map<IndexName, Map<string, Bucket>>();
  readonly trees = new Map<IndexName, Map<string, SortedGroup>>();
  readonly #byCollection = new Map<CollectionName, IndexName[]>();

  constructor(state: State) {
    for (const name of Object.keys(INDEXES) as IndexName[]) {
      const def = defOf(name);
      if (def.kind === 'hash') this.hashes.set(name, new Map());
      else this.trees.set(name, new Map());
      this.#byCollection.set(def.c, [...(this.#byCollection.get(def.c) ?? []), name]);
    }
    for (const [c, names] of this.#byCollection)
      for (const row of Object.values(state[c] as Record<string, AnyRow>)) for (const n of names) this.#add(n, row);
  }

  /** Moves a record from its old version to its new one (either may be absent). */
  update(c: CollectionName, before: AnyRow | undefined, after: AnyRow | undefined): void {
    for (const name of this.#byCollection.get(c) ?? []) {
      if (before) this.#remove(name, before);
      if (after) this.#add(name, after);
    }
  }

  /** The records stored under `key` (committed state only). */
  bucket(name: HashName, key: string): Iterable<AnyRow> {
    const b = this.hashes.get(name)!.get(key);
    return b === undefined ? [] : b instanceof Set ? b : [b];
  }

  bucketSize(name: HashName, key: string): number {
    const b = this.hashes.get(name)!.get(key);
    return b === undefined ? 0 : b instanceof Set ? b.size : 1;
  }

  group(name: SortedName, group: string): SortedGroup | undefined {
    return this.trees.get(name)!.get(group);
  }

  #add(name: IndexName, row: AnyRow): void {
    const def = defOf(name);
    if (def.kind === 'hash') {
      const map = this.hashes.get(name)!;
      for (const key of keysOf(def, row)) {
        const b = map.get(key);
        if (b === undefined) map.set(key, row);
        else if (b instanceof Set) b.add(row);
        else if (b !== row) map.set(key, new Set([b, row]));
      }
      return;
    }
    const key = def.group(row);
    if (key === undefined) return;
    const groups = this.trees.get(name)!;
    let g = groups.get(key);
    if (!g) {
      g = { tree: new BTree<AnyRow, undefined>(undefined, def.order), weight: 0 };
      groups.set(key, g);
    }
    if (g.tree.set(row, undefined, false)) g.weight += def.weight ? def.weight(row) : 1;
  }

  #remove(name: IndexName, row: AnyRow): void {
    const def = defOf(name);
    if (def.kind === 'hash') {
      const map = this.hashes.get(name)!;
      for (const key of keysOf(def, row)) {
        const b = map.get(key);
        if (b === row) map.delete(key);
        else if (b instanceof Set) {
          b.delete(row);
          if (b.size === 1) map.set(key, b.values().next().value!);
          else if (b.size === 0) map.delete(key);
        }
      }
      return;
    }
    const key = def.group(row);
    if (key === undefined) return;
    const groups = this.trees.get(name)!;
    const g = groups.get(key);
    if (!g?.tree.delete(row)) return;
    g.weight -= def.weight ? def.weight(row) : 1;
    if (g.tree.size === 0) groups.delete(key);
  }
}

const built = new WeakMap<State, Indexes>();

/** The indexes of a state, built on first use. */
export function indexesOf(state: State): Indexes {
  let idx = built.get(state);
  if (!idx) {
    idx = new Indexes(state);
    built.set(state, idx);
  }
  return idx;
}

/** The indexes of a state if they were built (a commit keeps them current), else undefined. */
export const builtIndexes = (state: State): Indexes | undefined => built.get(state);

/** Forgets a state's indexes after its records were changed behind the engine's back (journal replay, bulk loads). */
export function dropIndexes(state: State): void {
  built.delete(state);
}
