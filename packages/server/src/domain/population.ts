// A whole population at once (shared/test-helpers.md, "Population"): users, items, assets and buy
// orders for load and scale tests, made by the engine's own record functions (createUser,
// putItem, putAsset, reserve) so the records are exactly what the public routes make and the
// money invariant holds. It runs in units of work of a few thousand records each, committed
// straight into the state without journal changes: the caller makes the whole step durable at
// once (a snapshot), since a million-asset change list would be a journal line of hundreds of MB.
// The indexes are dropped first and built once at the end, which is faster than keeping them
// current record by record.
import type { TestHelperComponents } from '@marketplace/types';
import { putAsset, putItem } from './catalog.ts';
import { dropIndexes, indexesOf } from './indexes.ts';
import { reserve } from './ledger.ts';
import type { BuyOrder, State } from './state.ts';
import { fail, ok, Tx } from './tx.ts';
import { createUser, hashApiKey } from './users.ts';

/** Test helpers, Population: the limits of one call. */
export const POPULATION_LIMITS = { users: 100_000, items: 100_000, assets: 5_000_000 } as const;
/** Listed prices run from 100 to 10,000 cents; buy orders from 50 to 99, below every listing. */
const LISTING_PRICES = { min: 100, max: 10_000 };
const ORDER_PRICES = { min: 50, max: 99 };
/** Records per unit of work: small enough to stay cheap, large enough to amortize a commit. */
const CHUNK = 5_000;
/** How many of each created kind the answer names. */
const SHOWN = 100;

export interface PopulationInput {
  users: number;
  items: number;
  assets: number;
  /** The share (0..1) of each user's assets listed; the rest stays in the inventory. */
  listedShare: number;
  buyOrders: number;
  /** Each new user's opening balance in cents. */
  balance: number;
  now: number;
}

/** The answer (test-helpers document, Population). */
export type Population = TestHelperComponents['schemas']['Population'];

/** The API key of the `n`-th population user, numbered across calls (test helpers: `pop-<n>`). */
export const populationKey = (n: number): string => `pop-${n}`;
/** The platform ID of the `n`-th population user: 17 digits, a prefix random IDs never use. */
export const populationPlatformId = (n: number): string => `7656118${String(n).padStart(10, '0')}`;

/** A listed asset's price: spread over the listing range, the same for the same asset number. */
const listingPrice = (i: number) => LISTING_PRICES.min + ((i * 7_919) % (LISTING_PRICES.max - LISTING_PRICES.min + 1));

/**
 * Adds the population to `state` (see the file comment). Refuses, changing nothing, when a user of
 * the numbering already exists or the balance cannot pay a user's buy orders.
 */
export function populate(state: State, input: PopulationInput) {
  const { users, items, assets, buyOrders, balance, now } = input;
  if (assets > 0 && (users === 0 || items === 0)) return fail('Assets need at least one user and one item');
  if (buyOrders > users * items) return fail('Invalid buyOrders parameter: at most one per user and item');
  const ordersPerUser = users === 0 ? 0 : Math.ceil(buyOrders / users);
  if (ordersPerUser * ORDER_PRICES.max > balance) return fail('Not enough balance');
  const first = state.counters.populationUsers ?? 0;
  for (let n = first; n < first + users; n += 1)
    if (state.users[populationPlatformId(n)] || state.apiKeys[hashApiKey(populationKey(n))])
      return fail('platformId already exists');

  dropIndexes(state);
  const platformIds: string[] = [];
  const itemIds: number[] = [];
  /** Runs `count` steps in units of work of CHUNK steps, each committed. */
  const chunked = (count: number, step: (tx: Tx, i: number) => void) => {
    for (let start = 0; start < count; start += CHUNK) {
      const tx = new Tx(state);
      for (let i = start; i < Math.min(count, start + CHUNK); i += 1) step(tx, i);
      tx.commit();
    }
  };

  chunked(users, (tx, u) => {
    const platformId = populationPlatformId(first + u);
    createUser(tx, { balance, name: `Pop ${first + u}` }, populationKey(first + u), platformId, now);
    platformIds.push(platformId);
  });
  state.counters.populationUsers = first + users;

  chunked(items, (tx) => {
    const id = tx.nextId('items');
    putItem(tx, { id, name: `Population Item ${id}`, game: 440 });
    itemIds.push(id);
  });

  // Asset i belongs to user i mod users and item i mod items; it is its owner's (i div users)-th,
  // and the first listedShare of each owner's assets are listed.
  chunked(assets, (tx, i) => {
    const u = i % users;
    const owned = Math.floor((assets - 1 - u) / users) + 1;
    const listed = Math.floor(i / users) < Math.round(input.listedShare * owned);
    putAsset(
      tx,
      {
        owner: platformIds[u]!,
        itemId: itemIds[i % items]!,
        ...(listed ? { state: 1, price: listingPrice(i) } : {}),
      },
      now,
    );
  });

  // Order k: user k mod users; in round r = k div users, item (user + r) mod items, so a user's
  // orders name distinct items (one per user and item).
  chunked(buyOrders, (tx, k) => {
    const u = k % users;
    const owner = platformIds[u]!;
    const itemid = itemIds[(u + Math.floor(k / users)) % items]!;
    const price = ORDER_PRICES.min + (k % (ORDER_PRICES.max - ORDER_PRICES.min + 1));
    const id = tx.nextId('buyOrders');
    if (!reserve(tx, owner, price, `Buy order #${id} reserved`, id, now))
      throw new Error(`population: ${owner} cannot reserve ${price}`); // ruled out by the balance check
    const order: BuyOrder = { id, platformid: owner, itemid, price, amount: 1, timestamp: String(now) };
    tx.put('buyOrders', id, order);
  });

  indexesOf(state);
  return ok({
    users,
    items,
    assets,
    buyOrders,
    apiKeys: Array.from({ length: Math.min(users, SHOWN) }, (_, u) => populationKey(first + u)),
    platformIds: platformIds.slice(0, SHOWN),
    itemIds: itemIds.slice(0, SHOWN),
  });
}
