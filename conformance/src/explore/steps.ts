// The steps a run is made of, each a fast-check command: what it needs of the model to be valid
// (`check`), the request it sends, the answer the seed's rules give (checked), and what it changes
// in the model. A step's arguments are plain numbers and strings (indices resolved against the
// model when it runs), so a shrunk sequence stays valid and is written to a file as it is.
import fc from 'fast-check';
import { Violation } from './client.ts';
import { checkInvariants } from './invariants.ts';
import {
  type AssetModel,
  availableOf,
  cashoutFee,
  giveAsset,
  helper,
  login,
  Missing,
  type Model,
  type Real,
} from './model.ts';
import {
  ANSWER,
  type Args,
  as,
  bestOrder,
  cashoutRefusals,
  choice,
  DAY,
  expectAnswer,
  held,
  notImplemented,
  pick,
  type StepKind,
  sell,
  user,
} from './step-kit.ts';
import { GIVEAWAY_STEPS } from './steps-giveaways.ts';
import { PLATFORM_STEPS } from './steps-platform.ts';
import { STRANGER_STEPS } from './steps-stranger.ts';

/** Clock moves: none close to the 24-hour cooldown, which the real clock (seconds of the run) could tip. */
const ADVANCES = [60, 3_600, 43_200, 90_000];
const MAX_ADVANCE = 20 * DAY; // JWTs live about 31 days (seed, JWT claims): a run stays well inside

export const STEPS: Record<string, StepKind> = {
  ...PLATFORM_STEPS,
  ...STRANGER_STEPS,
  ...GIVEAWAY_STEPS,
  deposit: {
    needs: ['POST /test_helpers/assets'],
    args: fc.record({ user, item: choice }),
    check: () => true,
    run: (m, r, a) => giveAsset(r, m, 'step', Number(a.user), pick(m.items, a.item)!),
  },
  login: {
    needs: ['POST /user/login'],
    args: fc.record({ user }),
    check: () => true,
    run: async (m, r, a) => {
      await login(r, 'step', r.actors[Number(a.user)]!);
      m.loginAt[Number(a.user)] = m.now;
    },
  },
  price: {
    needs: ['POST /inventory/price'],
    args: fc.record({ user, asset: choice, price: fc.integer({ min: 100, max: 4_000 }) }),
    check: (m, a) => held(m, Number(a.user)).length > 0,
    run: async (m, r, a) => {
      const u = Number(a.user);
      const asset = pick(held(m, u), a.asset)!;
      const price = Number(a.price);
      const x = await r.api.send('step', 'POST', '/inventory/price', {
        json: { ids: asset.assetId, price },
        ...as(r, u),
      });
      if (notImplemented(m, x)) return;
      expectAnswer(x, [{ status: 200 }], `user ${u + 1} prices their own asset ${asset.assetId} at ${price}`);
      const order = bestOrder(m, asset.itemId, u, price);
      if (order) sell(m, asset, order.owner, price, order);
      else Object.assign(asset, { place: 'sale', price });
    },
  },
  buyOrder: {
    needs: ['POST /item/buyorder'],
    args: fc.record({
      user,
      item: choice,
      price: fc.integer({ min: 50, max: 3_000 }),
      amount: fc.integer({ min: 1, max: 3 }),
    }),
    check: (m, a) => {
      const u = Number(a.user);
      const itemId = pick(m.items, a.item)!;
      // Whether a new order buys a listing already at or below its price is not in the seed: not generated.
      const listedBelow = m.assets.some(
        (s) => s.itemId === itemId && s.place === 'sale' && s.owner !== u && s.price! <= Number(a.price),
      );
      return !listedBelow && !m.orders.some((o) => o.owner === u && o.itemId === itemId);
    },
    run: async (m, r, a) => {
      const u = Number(a.user);
      const itemId = pick(m.items, a.item)!;
      const [price, amount] = [Number(a.price), Number(a.amount)];
      const x = await r.api.send('step', 'POST', '/item/buyorder', {
        json: { itemid: itemId, value: price, amount },
        ...as(r, u),
      });
      if (notImplemented(m, x)) return;
      const cost = price * amount;
      // Covered by the free balance: accepted; above everything the user owns: refused; between, the
      // seed's "balance" reads either way (net of reservations or not).
      const allowed =
        cost <= availableOf(m, u)
          ? [{ status: 200 }]
          : cost > m.wealth[u]!
            ? [{ status: 300, message: 'Not enough balance' }]
            : [{ status: 200 }, { status: 300, message: 'Not enough balance' }];
      expectAnswer(x, allowed, `user ${u + 1} orders ${amount} at ${price} with ${availableOf(m, u)} free`);
      if (x.status !== 200) return;
      m.seq += 1;
      m.orders.push({ owner: u, itemId, price, amount, seq: m.seq });
    },
  },
  removeOrder: {
    needs: ['POST /item/buyorder/remove'],
    args: fc.record({ user, order: choice }),
    check: (m, a) => m.orders.some((o) => o.owner === Number(a.user)),
    run: async (m, r, a) => {
      const u = Number(a.user);
      const order = pick(
        m.orders.filter((o) => o.owner === u),
        a.order,
      )!;
      const x = await r.api.send('step', 'POST', '/item/buyorder/remove', {
        json: { itemid: order.itemId },
        ...as(r, u),
      });
      if (notImplemented(m, x)) return;
      expectAnswer(x, [{ status: 200 }], `user ${u + 1} removes their order on item ${order.itemId}`);
      m.orders.splice(m.orders.indexOf(order), 1);
    },
  },
  cartAdd: {
    needs: ['POST /cart/add'],
    args: fc.record({ user, asset: choice }),
    check: (m, a) => cartCandidates(m, Number(a.user)).length > 0,
    run: async (m, r, a) => {
      const u = Number(a.user);
      const asset = pick(cartCandidates(m, u), a.asset)!;
      const x = await r.api.send('step', 'POST', '/cart/add', { json: { assetId: asset.assetId }, ...as(r, u) });
      if (notImplemented(m, x)) return;
      expectAnswer(
        x,
        [{ status: 200 }],
        `user ${u + 1} adds asset ${asset.assetId}, on sale by user ${asset.owner + 1}`,
      );
      m.carts[u]!.push({ assetId: asset.assetId, price: asset.price! });
    },
  },
  cartRemove: {
    needs: ['GET /cart/get', 'POST /cart/remove'],
    args: fc.record({ user, row: choice }),
    check: (m, a) => m.carts[Number(a.user)]!.length > 0,
    run: async (m, r, a) => {
      const u = Number(a.user);
      const cart = await r.api.send('step', 'GET', '/cart/get', as(r, u));
      if (notImplemented(m, cart)) return;
      expectAnswer(cart, [{ status: 200 }], `user ${u + 1} reads their cart`);
      const row = pick(cart.body.content.cart as { cartId: number; assetId: string }[], a.row);
      if (!row) throw new Violation('the cart holds what was added', `user ${u + 1}'s cart is empty`, [cart]);
      const x = await r.api.send('step', 'POST', '/cart/remove', { json: { cartId: row.cartId }, ...as(r, u) });
      if (notImplemented(m, x)) return;
      expectAnswer(x, [{ status: 200 }], `user ${u + 1} removes their cart row ${row.cartId}`);
      m.removedRows.push({ owner: u, cartId: row.cartId });
      const gone = String(row.assetId).split(',');
      m.carts[u] = m.carts[u]!.filter((c) => !gone.includes(c.assetId));
    },
  },
  checkout: {
    needs: ['POST /cart/checkout'],
    args: fc.record({ user }),
    check: (m, a) => m.carts[Number(a.user)]!.length > 0,
    run: async (m, r, a) => {
      const u = Number(a.user);
      const cart = m.carts[u]!;
      const x = await r.api.send('step', 'POST', '/cart/checkout', { json: {}, ...as(r, u) });
      if (notImplemented(m, x)) return;
      const assets = cart.map((c) => m.assets.find((s) => s.assetId === c.assetId)!);
      const intact = cart.every(
        (c, i) => assets[i]!.place === 'sale' && assets[i]!.price === c.price && assets[i]!.owner !== u,
      );
      const total = cart.reduce((n, c) => n + c.price, 0);
      const broke = { status: 300, message: 'Cart integrity check failed' };
      const poor = { status: 300, message: 'Not enough balance' };
      // Which refusal comes first when both apply is not in the document: either is accepted.
      const allowed = !intact
        ? total > availableOf(m, u)
          ? [broke, poor]
          : [broke]
        : total <= availableOf(m, u)
          ? [{ status: 200 }]
          : total <= m.wealth[u]!
            ? [{ status: 200 }, poor]
            : [poor];
      expectAnswer(
        x,
        allowed,
        `user ${u + 1} checks out ${cart.length} assets for ${total} with ${availableOf(m, u)} free${intact ? '' : ', a cart no longer intact'}`,
      );
      if (x.status !== 200) return;
      for (const [i, c] of cart.entries()) sell(m, assets[i]!, u, c.price);
      m.carts[u] = [];
    },
  },
  cashout: {
    needs: ['POST /cashout/process'],
    args: fc.record({
      user,
      amount: fc.integer({ min: 5_000, max: 12_000 }),
      method: fc.constantFrom('provider_a', 'provider_b'),
    }),
    check: () => true,
    run: async (m, r, a) => {
      const u = Number(a.user);
      const [amount, method] = [Number(a.amount), a.method as 'provider_a' | 'provider_b'];
      const x = await r.api.send('step', 'POST', '/cashout/process', { json: { amount, method }, ...as(r, u) });
      if (notImplemented(m, x)) return;
      const fee = cashoutFee(amount, method);
      const known = cashoutRefusals(m, u, amount, method);
      const refusals = known.map(({ message }) => ({ status: 300, message }));
      const certain = known.some((k) => k.certain);
      expectAnswer(
        x,
        certain ? refusals : [...refusals, { status: 200 }],
        `user ${u + 1} cashes out ${amount} + fee ${fee} by ${method} with ${availableOf(m, u)} free`,
      );
      if (x.status !== 200) return;
      const result = x.body.content;
      if (result.fee !== fee || result.amount !== amount || result.status !== 'pending')
        throw new Violation(
          ANSWER,
          `POST /cashout/process: expected amount ${amount}, fee ${fee} (${method}, rounded up), status pending`,
          [x],
        );
      m.cashouts.push({ id: result.cashoutId, owner: u, amount, fee, status: 'pending' });
      m.wealth[u]! -= amount + fee;
      m.lastCashout[u] = m.now;
    },
  },
  payment: {
    needs: ['POST /test_helpers/payments/{cashoutId}'],
    args: fc.record({ cashout: choice, outcome: fc.constantFrom('processing', 'completed', 'failed') }),
    check: (m, a) =>
      m.cashouts.some((c) => c.status === 'pending' || (c.status === 'processing' && a.outcome !== 'processing')),
    run: async (m, r, a) => {
      const c = pick(
        m.cashouts.filter((c) => c.status === 'pending' || (c.status === 'processing' && a.outcome !== 'processing')),
        a.cashout,
      )!;
      await helper(r, 'step', `/payments/${c.id}`, { outcome: a.outcome });
      c.status = a.outcome as 'processing';
      if (a.outcome === 'failed') m.wealth[c.owner]! += c.amount + c.fee;
    },
  },
  clock: {
    needs: ['POST /test_helpers/clock'],
    args: fc.record({ seconds: fc.constantFrom(...ADVANCES) }),
    check: (m, a) => m.now + Number(a.seconds) <= MAX_ADVANCE,
    run: async (m, r, a) => {
      await helper(r, 'step', '/clock', { advance: Number(a.seconds) });
      m.now += Number(a.seconds);
    },
  },
};

/** Assets on sale by others that the user may add to the cart (not already in it). */
function cartCandidates(m: Model, u: number): AssetModel[] {
  return m.assets.filter(
    (s) => s.place === 'sale' && s.owner !== u && !m.carts[u]!.some((c) => c.assetId === s.assetId),
  );
}

export interface StepRecord {
  step: string;
  args: Args;
}

/** One step as a fast-check command: its request and answer check, then every invariant. */
export class Step implements fc.AsyncCommand<Model, Real> {
  readonly step: string;
  readonly args: Args;
  constructor(step: string, args: Args) {
    this.step = step;
    this.args = args;
  }
  check(m: Readonly<Model>): boolean {
    const kind = STEPS[this.step]!;
    return !kind.needs.some((n) => m.missing.has(n)) && kind.check(m as Model, this.args);
  }
  async run(m: Model, r: Real): Promise<void> {
    r.ran.push({ step: this.step, args: this.args });
    r.api.label = r.ran.length;
    try {
      await STEPS[this.step]!.run(m, r, this.args);
    } catch (e) {
      // A test helper the step needs answered 404: the step changed nothing the model holds.
      if (!(e instanceof Missing)) throw e;
      m.missing.add(e.operation);
    }
    await checkInvariants(r, m);
  }
  toString(): string {
    return `${this.step}(${JSON.stringify(this.args)})`;
  }
}

/** The arbitraries of every step, for `fc.commands`. */
export const stepArbitraries = Object.entries(STEPS).map(([name, kind]) =>
  kind.args.map((args) => new Step(name, args)),
);
