// Demo data for `npm start`: seeded once into a new store so every read route returns rows. Ten
// users, the catalogue of demo-catalog.ts, about 200 listings, buy orders placed (and reserved)
// like real ones, a year of sales history, and some activity in every other area (cart, cashouts,
// a payment review, support, trades, a giveaway), plus what Alice holds on the game platform.
// Everything comes from a seeded PRNG and `now`, so the same clock gives the same data, and seeding
// takes a few tens of milliseconds.
import type { PlatformAsset } from './adapters/platform.ts';
import { DEMO_CATALOG } from './demo-catalog.ts';
import { placeOrder } from './domain/buy-orders.ts';
import { addBulk } from './domain/cart.ts';
import { applyPayment, linkMethod, requestCashout } from './domain/cashouts.ts';
import { putAsset, putItem } from './domain/catalog.ts';
import { DAY } from './domain/dates.ts';
import { createDeposit, depositKeys, settleDeposit } from './domain/deposits.ts';
import { createGiveaway, join, postComment } from './domain/giveaways.ts';
import { assetsOf } from './domain/inventory.ts';
import { saleFee } from './domain/money.ts';
import { addNotification } from './domain/notify.ts';
import type { Item, Sale } from './domain/state.ts';
import { answerTicket, createTicket } from './domain/support.ts';
import { settleWithdrawal, withdraw } from './domain/trades.ts';
import { type Result, Tx } from './domain/tx.ts';
import { createUser } from './domain/users.ts';
import type { ServerDeps } from './http/deps.ts';

/**
 * The API keys of the demo traders, printed at start so a first request can be made. Demo admins
 * get random keys instead (`adminKey` of buildDemoData): a documented admin key would open the
 * admin routes of any server started with demo data.
 */
export const DEMO_KEYS = { alice: 'demo-alice-api-key', bob: 'demo-bob-api-key' };

/** A demo administrator and its API key, which exists nowhere else once it is printed. */
export interface DemoAdmin {
  name: string;
  platformId: string;
  apiKey: string;
}

/** An account of the demo world (a sandbox with demo data answers them all, admins included). */
export interface DemoAccount extends DemoAdmin {
  admin: boolean;
}

// [name, balance (cents), admin, short URL, account age (days)]; IDs are 7656119800000000N.
const USERS: [string, number, boolean, string, number][] = [
  ['Alice', 250_000, false, 'alice-store', 400],
  ['Bob', 80_000, false, 'bobs-trades', 300],
  ['Admin', 0, true, '', 500],
  ['Carol', 1_200_000, false, '', 720],
  ['Dave', 2_500_000, false, '', 650],
  ['Erin', 900_000, false, '', 380],
  ['Frank', 4_000_000, false, '', 800],
  ['Grace', 600_000, false, '', 250],
  ['Heidi', 50_000, true, '', 900],
  ['Ivan', 1_500_000, false, '', 420],
];
const platformIdOf = (n: number) => `765611980000000${String(n + 1).padStart(2, '0')}`;

/** A demo item's ID: its place in DEMO_CATALOG, from 1. */
const itemId = (name: string) => DEMO_CATALOG.findIndex((i) => i.name === name) + 1;

/**
 * What Alice holds on the game platform (the platform simulator's inventories, outside the store):
 * what `GET /deposit/{game}` and `GET /instantsell/440` offer her; the keys sell at once into the
 * other traders' bids. The asset IDs are the platform's (the document's examples name the first two).
 */
export const DEMO_PLATFORM_INVENTORY: { owner: string; game: 440 | 730; assets: PlatformAsset[] }[] = [
  {
    owner: platformIdOf(0),
    game: 440,
    assets: [
      { assetId: '11234567890', itemId: itemId('Burning Flames Team Captain') },
      { assetId: '11234567900', itemId: itemId('Mann Co. Supply Crate Key') },
      { assetId: '11234567910', itemId: itemId('Mann Co. Supply Crate Key') },
      { assetId: '11234567920', itemId: itemId('Refined Metal') },
    ],
  },
  {
    owner: platformIdOf(0),
    game: 730,
    assets: [{ assetId: '11234567930', itemId: itemId('AK-47 | Redline (Field-Tested)'), wear: 0.23141592 }],
  },
];
const traderKey = (name: string) => `demo-${name.toLowerCase()}-api-key`;

/** Every demo account in creation order: the traders with their documented keys, the admins with `admins`' keys. */
export function demoAccounts(admins: DemoAdmin[]): DemoAccount[] {
  return USERS.map(([name, , admin], n) => ({
    name,
    platformId: platformIdOf(n),
    apiKey: admin ? admins.find((a) => a.name === name)!.apiKey : traderKey(name),
    admin,
  }));
}

/** A small seeded PRNG (mulberry32): the demo must not change between runs with one clock. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// The float range of each CS exterior (wear value).
const WEAR: Record<string, [number, number]> = {
  'Factory New': [0, 0.07],
  'Minimal Wear': [0.07, 0.15],
  'Field-Tested': [0.15, 0.38],
};

/** Writes the demo data into `tx` as of `now`; `adminKey` gives each admin account its API key. */
export function buildDemoData(tx: Tx, now: number, adminKey: () => string): DemoAdmin[] {
  const random = seededRandom(440_730);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const cents = (price: number) => Math.min(5_000_000, Math.max(1, Math.round(price)));

  const admins: DemoAdmin[] = [];
  USERS.forEach(([name, balance, admin, shorturl, age], n) => {
    const id = platformIdOf(n);
    const email = `${name.toLowerCase()}@example.com`;
    const apiKey = admin ? adminKey() : traderKey(name);
    if (admin) admins.push({ name, platformId: id, apiKey });
    const user = createUser(tx, { name, balance, admin, email }, apiKey, id, now - age * DAY);
    if (shorturl) tx.put('users', id, { ...user, shorturl });
  });
  const traders = USERS.flatMap(([, , admin], n) => (admin ? [] : [platformIdOf(n)]));

  const items = DEMO_CATALOG.map((fields) => putItem(tx, fields));
  const market = items.filter((i) => i.game !== 753); // community items are never listed (seed: Games)
  for (const item of market) listAssets(item);
  // Alice's standing bid on keys, as in the first demo, and enough other key bids for seven price
  // tiers (two of them shared), so GET /item/buyorderList/1 shows five tiers and `more`.
  placeOrder(tx, { owner: platformIdOf(0), itemId: 1, price: 195, amount: 3, now });
  [192, 190, 190, 188, 185, 180, 175].forEach((price, i) => {
    placeOrder(tx, { owner: traders[i + 1]!, itemId: 1, price, amount: int(1, 10), now: now - i * DAY });
  });
  // Then bids on about three items of four.
  for (const item of market) {
    if (random() < 0.25) continue;
    for (let i = int(1, 4); i > 0; i--) {
      const price = cents(item.deal * (0.7 + random() * 0.25));
      const amount = item.deal > 10_000 ? 1 : int(1, 6);
      // A buyer who already bids on the item or cannot afford it is skipped, as the API would refuse.
      placeOrder(tx, { owner: pick(traders), itemId: item.id, price, amount, now: now - int(0, 60) * DAY });
    }
  }
  recordSales(market);
  recordActivity();
  return admins;

  function listAssets(item: Item): void {
    const wear = WEAR[item.exterior];
    for (let i = int(3, 7); i > 0; i--) {
      const killstreak = item.name.startsWith('Professional Killstreak');
      putAsset(
        tx,
        {
          owner: pick(traders),
          itemId: item.id,
          state: 1,
          price: cents(item.deal * (1 + random() * 0.25)),
          wear: wear ? Number((wear[0] + random() * (wear[1] - wear[0])).toFixed(8)) : null,
          // Old listings carry the trailing separators the backpack details strip (seed: Listing).
          sheen: killstreak ? pick(['Team Shine', 'Hot Rod;', 'Manndarin ']) : '',
          killstreaker: killstreak ? pick(['Fire Horns', 'Tornado', 'Singularity']) : '',
          values: item.game === 730 ? { paintseed: int(1, 1000), stickers: [] } : null,
        },
        now - int(0, 30 * DAY),
      );
    }
    if (random() < 0.3) putAsset(tx, { owner: pick(traders.slice(0, 2)), itemId: item.id }, now - int(0, 90 * DAY));
  }

  // A year of sales per item, cheaper items trading more, on a price trend ending at `deal`.
  function recordSales(list: Item[]): void {
    const sales: Omit<Sale, 'id'>[] = [];
    for (const item of list) {
      const trend = 0.75 + random() * 0.5; // the price a year ago, relative to today's
      for (let i = item.deal < 1_000 ? int(60, 120) : int(15, 60); i > 0; i--) {
        const age = random();
        const seller = pick(traders);
        const buyer = pick(traders.filter((t) => t !== seller));
        const price = cents(item.deal * (1 + (trend - 1) * age) * (0.92 + random() * 0.16));
        const assetId = String(20_000_000_000 + sales.length);
        sales.push({
          item_id: item.id,
          assetId,
          price,
          fee: saleFee(price),
          seller,
          buyer,
          timestamp: now - Math.floor(age * 365 * DAY),
        });
      }
    }
    sales.sort((a, b) => a.timestamp - b.timestamp);
    for (const sale of sales) {
      const id = tx.nextId('sales');
      tx.put('sales', id, { id, ...sale });
    }
  }

  // Something in every other area a frontend shows, made through the engine's own commands so the
  // rules and the money invariant hold: Alice's cart, her cashouts (one completed and reviewed, one
  // pending for two days: past the cooldown), a support ticket an admin answered, a withdrawal
  // waiting for her on the platform, a deposit of hers the platform completed, Bob's public
  // giveaway with entries and a comment, and a withdrawal of Bob's the platform failed, which
  // waits for an admin to revert it.
  function recordActivity(): void {
    const [alice, bob, admin] = [platformIdOf(0), platformIdOf(1), platformIdOf(2)];
    const mine = (owner: string, state: number) => assetsOf(tx, owner, state).filter((a) => a.game === 440);

    const keys = market.find((i) => i.id === 1)!;
    must(addBulk(tx, alice, { itemId: keys.id, count: 2, now: now - 2 * 3600 }), 'the cart');

    must(linkMethod(tx, alice, 'provider_a', 'alice@example.com', now - 30 * DAY), 'linking a payout method');
    const paid = must(
      requestCashout(tx, { user: alice, amount: 10_000, method: 'provider_a', now: now - 10 * DAY }),
      'a cashout',
    );
    must(applyPayment(tx, paid.cashoutId, 'processing', 'PA-DEMO-0001', now - 10 * DAY + 3600), 'a payment');
    must(applyPayment(tx, paid.cashoutId, 'completed', 'PA-DEMO-0001', now - 8 * DAY), 'a payment');
    addNotification(
      tx,
      alice,
      'paymentReview',
      `Cashout #${paid.cashoutId} of $100.00 to provider_a was reviewed and paid (PA-DEMO-0001).`,
      { cashoutId: paid.cashoutId },
      now - 8 * DAY,
    );
    must(requestCashout(tx, { user: alice, amount: 5_000, method: 'provider_a', now: now - 2 * DAY }), 'a cashout');

    const ticket = must(
      createTicket(tx, {
        user: alice,
        subject: 'Withdrawal not received',
        description: 'I accepted the trade offer yesterday but the item is not in my platform inventory.',
        topic: 'trades',
        concern: 'withdrawal',
        now: now - 2 * DAY,
      }),
      'a support ticket',
    );
    const answer = 'The platform delayed the trade; it has now gone through. Sorry for the wait!';
    must(answerTicket(tx, { admin, user: alice, ticket: ticket.ticket, content: answer, now: now - DAY }), 'an answer');

    const kept = mine(alice, 0)[0] ?? mine(alice, 1)[0];
    if (kept) must(withdraw(tx, alice, kept.assetId, now - 600), 'a withdrawal');

    const pool = mine(bob, 1).slice(0, 2);
    const giveaway = must(
      createGiveaway(tx, {
        owner: bob,
        name: 'Demo week giveaway',
        maxEntries: 100,
        type: 0,
        descriptionBefore: 'Two items from my backpack: join before Sunday!',
        descriptionAfter: 'Thanks for joining, and congratulations to the winner.',
        duration: 7 * DAY,
        items: pool.map((a) => a.assetId),
        url: 'de0000000001',
        serverSeed: Array.from({ length: 64 }, () => Math.floor(random() * 16).toString(16)).join(''),
        now: now - DAY,
      }),
      'a giveaway',
    );
    for (const entrant of traders.filter((t) => t !== bob).slice(0, 4))
      must(join(tx, giveaway.url, entrant, now - DAY + 3600), 'a giveaway entry');
    must(
      postComment(tx, { url: giveaway.url, user: alice, comment: 'Good luck everyone!', now: now - 3600 }),
      'a comment',
    );

    // Alice deposited her Earbuds from the platform five days ago; accepted, they are listed at her price.
    const earbuds = { assetId: '11234567880', itemId: itemId('Earbuds') };
    const secret = 'demo'; // the check is createDeposit's own: the keys only have to match it here
    const deposit = must(
      createDeposit(tx, {
        user: alice,
        game: 440,
        prices: { [earbuds.assetId]: 5_600 },
        keys: depositKeys(secret, alice, [earbuds.assetId]),
        platform: [earbuds],
        secret,
        now: now - 5 * DAY,
      }),
      'a deposit',
    );
    settleDeposit(tx, tx.get('trades', deposit.id)!, true, now - 5 * DAY + 900);

    const unlucky = mine(bob, 1)[0]!;
    const failed = must(withdraw(tx, bob, unlucky.assetId, now - 3 * DAY), 'a withdrawal');
    settleWithdrawal(tx, tx.get('trades', failed.trade)!, 'fail', now - 3 * DAY + 600);
  }
}

/** The value of a command the demo relies on: a refusal means the demo no longer follows the rules. */
function must<T>(result: Result<T>, what: string): T {
  if (!result.ok) throw new Error(`demo data: ${what} was refused: ${JSON.stringify(result.error)}`);
  return result.value;
}

/**
 * Seeds the demo data into the store (a new or emptied store only; see server.ts); the admins' keys:
 * new random ones unless `adminKeys` gives them (a sandbox seeded again after a reset keeps its keys).
 */
export async function seedDemoData(deps: ServerDeps, adminKeys?: string[]): Promise<DemoAdmin[]> {
  const tx = new Tx(deps.store.state);
  const given = adminKeys?.values();
  const admins = buildDemoData(tx, deps.clock.now(), () => given?.next().value ?? deps.random.hex(16));
  await deps.store.commit(tx);
  for (const { owner, game, assets } of DEMO_PLATFORM_INVENTORY) deps.platform.setInventory(owner, game, assets);
  await deps.world.flush();
  return admins;
}
