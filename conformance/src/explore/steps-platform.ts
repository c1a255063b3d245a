// The steps that go through the external platform (deposits and withdrawals, settled with the
// platform test helpers): trade offers, their outcomes, and what each does to the model.
import fc from 'fast-check';
import { Violation } from './client.ts';
import { helper, type Model, type PlatformAsset } from './model.ts';
import {
  ANSWER,
  as,
  bestOrder,
  choice,
  expectAnswer,
  held,
  notImplemented,
  pick,
  type StepKind,
  user,
} from './step-kit.ts';

export const PLATFORM_STEPS: Record<string, StepKind> = {
  depositTrade: {
    needs: ['POST /test_helpers/platform/inventory', 'GET /deposit/{game}', 'POST /deposit/trade'],
    args: fc.record({ user, item: choice, price: fc.integer({ min: 100, max: 4_000 }) }),
    check: () => true,
    run: async (m, r, a) => {
      const u = Number(a.user);
      const itemId = pick(m.items, a.item)!;
      const me = r.actors[u]!;
      m.seq += 1;
      const fresh: PlatformAsset = { assetId: String(880_000_000 + m.seq), owner: u, itemId };
      const holds = [...m.platform.filter((p) => p.owner === u), fresh];
      await helper(r, 'step', '/platform/inventory', {
        platformId: me.platformId,
        game: 440,
        assets: holds.map((p) => ({ assetId: p.assetId, itemId: p.itemId })),
      });
      m.platform.push(fresh);
      const list = await r.api.send('step', 'GET', '/deposit/440', as(r, u));
      if (notImplemented(m, list)) return;
      expectAnswer(list, [{ status: 200 }], `user ${u + 1} reads what they can deposit`);
      const key = list.body.content.depositkey?.[fresh.assetId];
      const price = Number(a.price);
      const x = await r.api.send('step', 'POST', '/deposit/trade', {
        json: { value: { [fresh.assetId]: price }, depositKeys: { [fresh.assetId]: key }, game: 440 },
        ...as(r, u),
      });
      if (notImplemented(m, x)) return;
      expectAnswer(x, [{ status: 200 }], `user ${u + 1} deposits platform asset ${fresh.assetId} at ${price}`);
      fresh.offered = price;
      m.deposits.push({ owner: u, id: Number(x.body.content.id) });
    },
  },
  settleDeposit: {
    needs: ['GET /test_helpers/platform/offers', 'POST /test_helpers/platform/offers/{tradeId}'],
    args: fc.record({ asset: choice, outcome: fc.constantFrom('accept', 'decline', 'fail') }),
    // Whether an accepted deposit sells into a standing buy order is not in the seed: not generated then.
    check: (m, a) => depositsToSettle(m, a.outcome === 'accept').length > 0,
    run: async (m, r, a) => {
      const deposit = pick(depositsToSettle(m, a.outcome === 'accept'), a.asset)!;
      const owner = r.actors[deposit.owner]!.platformId;
      const offers = await r.api.send('step', 'GET', '/test_helpers/platform/offers', { query: { platformId: owner } });
      if (notImplemented(m, offers)) return;
      const offer = (offers.body?.content?.offers ?? []).find(
        (o: { kind: string; assetIds: string[]; status: number }) =>
          o.kind === 'deposit' && o.status === 0 && o.assetIds.map(String).includes(deposit.assetId),
      );
      if (!offer)
        throw new Violation('a deposit sends one offer', `no pending deposit offer holds asset ${deposit.assetId}`, [
          offers,
        ]);
      await helper(r, 'step', `/platform/offers/${encodeURIComponent(offer.tradeId)}`, { outcome: a.outcome });
      if (a.outcome !== 'accept') {
        delete deposit.offered;
        return;
      }
      m.platform.splice(m.platform.indexOf(deposit), 1);
      const { assetId, itemId } = deposit;
      m.assets.push({ assetId, owner: deposit.owner, itemId, place: 'sale', price: deposit.offered });
    },
  },
  withdraw: {
    needs: ['POST /inventory/withdraw'],
    args: fc.record({ user, asset: choice }),
    check: (m, a) => held(m, Number(a.user)).length > 0,
    run: async (m, r, a) => {
      const u = Number(a.user);
      const asset = pick(held(m, u), a.asset)!;
      const x = await r.api.send('step', 'POST', '/inventory/withdraw', { json: { ids: asset.assetId }, ...as(r, u) });
      if (notImplemented(m, x)) return;
      expectAnswer(x, [{ status: 200 }], `user ${u + 1} withdraws their asset ${asset.assetId}`);
      if (x.body.content.updated !== 1)
        throw new Violation(ANSWER, `POST /inventory/withdraw: one asset in state 0 or 1 is counted in updated`, [x]);
      Object.assign(asset, { place: 'withdrawing', price: undefined });
    },
  },
  settleWithdrawal: {
    needs: ['GET /test_helpers/platform/offers', 'POST /test_helpers/platform/offers/{tradeId}'],
    args: fc.record({ asset: choice, outcome: fc.constantFrom('accept', 'decline', 'fail') }),
    check: (m) => m.assets.some((s) => s.place === 'withdrawing'),
    run: async (m, r, a) => {
      const asset = pick(
        m.assets.filter((s) => s.place === 'withdrawing'),
        a.asset,
      )!;
      const owner = r.actors[asset.owner]!.platformId;
      const offers = await r.api.send('step', 'GET', '/test_helpers/platform/offers', { query: { platformId: owner } });
      if (notImplemented(m, offers)) return;
      const offer = (offers.body?.content?.offers ?? []).find(
        (o: { kind: string; assetIds: string[]; status: number }) =>
          o.kind === 'withdraw' && o.status === 0 && o.assetIds.map(String).includes(asset.assetId),
      );
      if (!offer)
        throw new Violation('a withdrawal sends one offer', `no pending withdraw offer holds asset ${asset.assetId}`, [
          offers,
        ]);
      await helper(r, 'step', `/platform/offers/${encodeURIComponent(offer.tradeId)}`, { outcome: a.outcome });
      asset.place = a.outcome === 'accept' ? 'gone' : 'held';
    },
  },
};

/** Pending deposits; to be accepted, only those no buy order of another user would buy at once. */
function depositsToSettle(m: Model, accepting: boolean) {
  return m.platform.filter(
    (p) => p.offered !== undefined && !(accepting && bestOrder(m, p.itemId, p.owner, p.offered)),
  );
}
