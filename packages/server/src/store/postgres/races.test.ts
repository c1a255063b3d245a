// Concurrent commands on two instances of one database (issue 14, ADR 0019) keep every rule one
// process keeps: one sale per asset, one fill of an order of amount 1, no negative balance, one
// open cashout. Each race fires its requests at both instances at once; afterwards the database's
// state (not an instance's memory) passes the money audit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Postgres, postgresMissing, startPostgres } from '../../../../../scripts/postgres.ts';
import { auditMoney } from '../../domain/audit.ts';
import { BUY_ORDERS, CART, CASHOUT } from '../../domain/messages.ts';
import {
  type Client,
  clientOf,
  contentOf,
  type Instances,
  messageOf,
  type Session,
  startInstances,
} from './instances.fixture.ts';
import { loadPostgresState } from './postgres-store.ts';

const missing = postgresMissing();
let cluster: Postgres;
let databases = 0;

/** Two fresh instances on a fresh database; `use` gets a client of each. */
async function onTwoInstances(use: (a: Client, b: Client, db: string, instances: Instances) => Promise<void>) {
  const db = await cluster.createDatabase(`races_${++databases}`);
  const instances = await startInstances(db, 2);
  try {
    await use(clientOf(instances.urls[0]!), clientOf(instances.urls[1]!), db, instances);
  } catch (error) {
    (error as Error).message += `\n--- instance 0:\n${instances.output(0)}\n--- instance 1:\n${instances.output(1)}`;
    throw error;
  } finally {
    await instances.stopAll();
  }
}

/** The money invariant on what the database holds. */
async function auditDatabase(db: string) {
  const state = await loadPostgresState(db);
  expect(auditMoney(state).problems).toEqual([]);
  return state;
}

/** floor(price x 0.95): a seller's proceeds (seed: 5 percent fee). */
const proceeds = (price: number) => Math.floor(price * 0.95);
/** Distinct client addresses, so per-IP login limits of a loaded machine do not decide a race. */
const ipOf = (i: number) => `198.51.100.${10 + i}`;

describe.skipIf(missing)(`races across two instances${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('a change on one instance is seen by the next request on the other, through either instance', async () => {
    await onTwoInstances(async (a, b) => {
      const me = await a.session({ balance: 1_000 });
      expect(await b.balanceOf(me)).toBe(1_000);
      const item = await b.helper<{ id: number }>('/items', { name: 'Seen Key', game: 440 });
      const placed = await b.post(me, '/item/buyorder', { itemid: item.id, value: 300, amount: 2 });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      expect(await a.balanceOf(me)).toBe(400);
      // A log-out on one instance ends the session on every instance.
      expect((await a.get(me, '/user/disconnect')).status).toBe(200);
      expect((await b.get(me, '/user/balance')).status).toBe(403);
    });
  }, 120_000);

  it('ten sellers on two instances pricing into one buy order of amount 1: one sale, one payment', async () => {
    await onTwoInstances(async (a, b, db) => {
      const on = (i: number) => (i % 2 === 0 ? a : b);
      const item = await a.helper<{ id: number }>('/items', { name: 'Contested Key', game: 440 });
      const buyer = await a.session({ balance: 1_000 }, ipOf(0));
      expect((await b.post(buyer, '/item/buyorder', { itemid: item.id, value: 1_000, amount: 1 })).status).toBe(200);
      const sellers = await Promise.all(Array.from({ length: 10 }, (_, i) => on(i).session({}, ipOf(i + 1))));
      const assets = await Promise.all(
        sellers.map((s, i) => on(i).helper<{ assetId: string }>('/assets', { owner: s.platformId, itemId: item.id })),
      );
      const answers = await Promise.all(
        sellers.map((s, i) => on(i).post(s, '/inventory/price', { ids: assets[i]!.assetId, price: 900 })),
      );
      expect(answers.map((x) => x.status)).toEqual(Array(10).fill(200));
      // Balances read on the other instance than the one that sold.
      const balances = await Promise.all(sellers.map((s, i) => on(i + 1).balanceOf(s)));
      expect(balances.filter((x) => x !== 0)).toEqual([proceeds(900)]);
      expect(await a.balanceOf(buyer)).toBe(100);
      expect(await b.balanceOf(buyer)).toBe(100);
      expect(contentOf(await a.call('GET', `/item/listing/${item.id}`))).toHaveLength(9);
      const state = await auditDatabase(db);
      expect(Object.values(state.sales).filter((s) => s.item_id === item.id)).toHaveLength(1);
      expect(
        Object.values(state.buyOrders)
          .filter((o) => o.itemid === item.id)
          .map((o) => o.amount),
      ).toEqual([0]);
    });
  }, 180_000);

  it('ten buyers on two instances checking out one listing: one sale', async () => {
    await onTwoInstances(async (a, b, db) => {
      const on = (i: number) => (i % 2 === 0 ? a : b);
      const item = await a.helper<{ id: number }>('/items', { name: 'Contested Unusual', game: 440 });
      const seller = await b.session({}, ipOf(0));
      const asset = await a.helper<{ assetId: string }>('/assets', {
        owner: seller.platformId,
        itemId: item.id,
        state: 1,
        price: 1_000,
      });
      const buyers: Session[] = [];
      for (let i = 0; i < 10; i++) {
        const buyer = await on(i).session({ balance: 1_500 }, ipOf(i + 1));
        expect((await on(i + 1).post(buyer, '/cart/add', { assetId: asset.assetId })).status).toBe(200);
        buyers.push(buyer);
      }
      const answers = await Promise.all(buyers.map((x, i) => on(i).post(x, '/cart/checkout')));
      expect(answers.filter((x) => x.status === 200)).toHaveLength(1);
      for (const x of answers) if (x.status !== 200) expect(messageOf(x)).toBe(CART.integrityFailed);
      const balances = await Promise.all(buyers.map((x, i) => on(i + 1).balanceOf(x)));
      expect(balances.toSorted((x, y) => x - y)).toEqual([500, ...Array(9).fill(1_500)]);
      expect(await a.balanceOf(seller)).toBe(proceeds(1_000));
      const state = await auditDatabase(db);
      const sales = Object.values(state.sales).filter((s) => s.item_id === item.id);
      expect(sales).toHaveLength(1);
      expect(sales[0]!.buyer).toBe(buyers[balances.indexOf(500)]!.platformId);
    });
  }, 180_000);

  it('one user spending one balance on two instances at once: never negative, never more than it holds', async () => {
    await onTwoInstances(async (a, b, db) => {
      const on = (i: number) => (i % 2 === 0 ? a : b);
      const me = await a.session({ balance: 1_000 });
      const items = await Promise.all(
        Array.from({ length: 10 }, (_, i) => on(i).helper<{ id: number }>('/items', { name: `Spent ${i}`, game: 440 })),
      );
      // Ten orders of 300 each: the balance of 1000 holds exactly three.
      const answers = await Promise.all(
        items.map((item, i) => on(i).post(me, '/item/buyorder', { itemid: item.id, value: 300, amount: 1 })),
      );
      const placed = answers.filter((x) => x.status === 200);
      expect(placed).toHaveLength(3);
      for (const x of answers) if (x.status !== 200) expect(messageOf(x)).toBe(BUY_ORDERS.notEnoughBalance);
      expect(await a.balanceOf(me)).toBe(100);
      expect(await b.balanceOf(me)).toBe(100);

      // The same user's cashouts at once on both instances: one open request, paid from one balance.
      const cashier = await b.session({ balance: 12_000, paymentMethods: ['provider_a'], email: 'race@example.com' });
      const cashouts = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          on(i).post(cashier, '/cashout/process', { amount: 5_000, method: 'provider_a' }),
        ),
      );
      expect(cashouts.filter((x) => x.status === 200)).toHaveLength(1);
      for (const x of cashouts)
        if (x.status !== 200) expect([CASHOUT.pendingExists, CASHOUT.insufficientBalance]).toContain(messageOf(x));
      const left = await a.balanceOf(cashier);
      expect(left).toBeGreaterThanOrEqual(0);
      expect(left).toBe(12_000 - 5_000 - Math.ceil(5_000 * 0.02));

      const state = await auditDatabase(db);
      expect(state.users[me.platformId]).toMatchObject({ balance: 100, reserved: 900 });
      expect(Object.values(state.cashouts).filter((c) => c.user === cashier.platformId)).toHaveLength(1);
    });
  }, 180_000);
});
