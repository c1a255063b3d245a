// What the steps share: the answer check, picking by index, the seed's matching and sale.
import fc from 'fast-check';
import { notImplementedReason } from '../kit/not-implemented.ts';
import { messageText } from '../oracle/contract.ts';
import { type ExplorerCall, received, Violation } from './client.ts';
import {
  type AssetModel,
  availableOf,
  cashoutFee,
  type Model,
  type OrderModel,
  type Real,
  sellerShare,
  USERS,
} from './model.ts';

export type Args = Record<string, number | string>;

/** A day in seconds, the clock's unit. */
export const DAY = 86_400;

/**
 * The refusals the seed gives user `u`'s cashout of `amount` by `method` now (Limits: one pending or
 * processing cashout at a time, 24 hours between two, the balance covers amount and fee), each
 * `certain` when the model knows it applies: the free balance it counts may be understated, so
 * `Insufficient balance` is certain only past the user's whole wealth.
 */
export function cashoutRefusals(
  m: Model,
  u: number,
  amount: number,
  method: 'provider_a' | 'provider_b',
): { message: string; certain: boolean }[] {
  const refusals: { message: string; certain: boolean }[] = [];
  if (m.cashouts.some((c) => c.owner === u && (c.status === 'pending' || c.status === 'processing')))
    refusals.push({ message: 'Pending cashout exists', certain: true });
  const last = m.lastCashout[u];
  if (last !== undefined && m.now - last < DAY) refusals.push({ message: 'Cooldown period', certain: true });
  const cost = amount + cashoutFee(amount, method);
  if (cost > availableOf(m, u)) refusals.push({ message: 'Insufficient balance', certain: cost > m.wealth[u]! });
  return refusals;
}

export interface StepKind {
  /** The operations and test helpers the step sends (not generated once one answered 404). */
  needs: string[];
  args: fc.Arbitrary<Args>;
  check: (m: Model, a: Args) => boolean;
  run: (m: Model, r: Real, a: Args) => Promise<void>;
}

export const ANSWER = 'the answer is the one the seed rules give';

/** Fails unless the answer's status (and message, if given) is one of `allowed`. */
export function expectAnswer(x: ExplorerCall, allowed: { status: number; message?: string }[], why: string): void {
  const hit = allowed.some(
    (a) => a.status === x.status && (a.message === undefined || a.message === messageText(x.message)),
  );
  if (!hit) {
    const want = allowed.map((a) => `${a.status}${a.message ? ` "${a.message}"` : ''}`).join(' or ');
    throw new Violation(ANSWER, `${x.operation}: ${why}\n  expected: ${want}\n  received: ${received(x)}`, [x]);
  }
}

export const pick = <T>(xs: T[], k: number | string | undefined): T | undefined =>
  xs.length ? xs[Number(k ?? 0) % xs.length] : undefined;
export const held = (m: Model, u: number) =>
  m.assets.filter((a) => a.owner === u && (a.place === 'inventory' || a.place === 'sale'));
export const user = fc.integer({ min: 0, max: USERS - 1 });
export const choice = fc.nat({ max: 999 });
export const as = (r: Real, u: number) => ({ token: r.actors[u]!.token, ip: r.actors[u]!.ip });

/** A 404: the target does not implement the operation; nothing changed (recorded in `m.missing`). */
export function notImplemented(m: Model, x: ExplorerCall): boolean {
  if (x.status !== 404) return false;
  m.missing.add(x.operation);
  return true;
}

/** The steps left out because an operation they need answered 404, each with the suite's skip reason. */
export function leftOutSteps(steps: Record<string, StepKind>, missing: ReadonlySet<string>) {
  return Object.entries(steps).flatMap(([step, kind]) => {
    const gone = kind.needs.find((n) => missing.has(n));
    return gone ? [{ step, reason: notImplementedReason(gone, `run the step ${step}`) }] : [];
  });
}

/** The best buy order an asset of `itemId` offered by `seller` at `price` sells into (seed, States: matching). */
export function bestOrder(m: Model, itemId: number, seller: number, price: number): OrderModel | undefined {
  return m.orders
    .filter((o) => o.itemId === itemId && o.owner !== seller && o.price >= price)
    .sort((a, b) => b.price - a.price || a.seq - b.seq)[0];
}

/** A sale at `price`: the buyer pays the price, the seller gets 95 percent rounded down, the asset moves. */
export function sell(m: Model, asset: AssetModel, buyer: number, price: number, order?: OrderModel): void {
  m.wealth[asset.owner]! += sellerShare(price);
  m.fees += price - sellerShare(price);
  m.wealth[buyer]! -= price;
  if (order) {
    order.amount -= 1;
    if (order.amount === 0) m.orders.splice(m.orders.indexOf(order), 1);
  }
  Object.assign(asset, { owner: buyer, place: 'inventory', price: undefined });
  m.sales += 1;
}

/** A user other than `u`, picked by `k`. */
export const other = (u: number, k: number | string | undefined): number =>
  (u + 1 + (Number(k ?? 0) % (USERS - 1))) % USERS;

/** Assets held (in the inventory or on sale) by users other than `u`. */
const theirs = (m: Model, u: number): AssetModel[] =>
  m.assets.filter((a) => a.owner !== u && (a.place === 'inventory' || a.place === 'sale'));

/** Sends `u`'s request, which must be refused (300) with one of `messages`; a 404: not implemented. */
export async function refused(
  m: Model,
  r: Real,
  u: number,
  request: { method?: 'GET' | 'POST'; path: string; json?: unknown },
  messages: string[],
  why: string,
): Promise<void> {
  const x = await r.api.send('step', request.method ?? 'POST', request.path, { json: request.json, ...as(r, u) });
  if (notImplemented(m, x)) return;
  expectAnswer(
    x,
    messages.map((message) => ({ status: 300, message })),
    `${why}: refused, nothing changes`,
  );
}

/**
 * A step of a user on an asset another user holds (arguments `user`, `asset` and `more`), which
 * must be refused with one of the `messages` that `send` gives with its request.
 */
export const onTheirAsset = (
  operation: string,
  more: Record<string, fc.Arbitrary<number | string>>,
  send: (
    u: number,
    asset: AssetModel,
    a: Args,
    m: Model,
  ) => { request: { method?: 'GET' | 'POST'; path: string; json?: unknown }; messages: string[]; why: string },
): StepKind => ({
  needs: [operation],
  args: fc.record({ user, asset: choice, ...more }),
  check: (m, a) => theirs(m, Number(a.user)).length > 0,
  run: (m, r, a) => {
    const u = Number(a.user);
    const { request, messages, why } = send(u, pick(theirs(m, u), a.asset)!, a, m);
    return refused(m, r, u, request, messages, why);
  },
});
