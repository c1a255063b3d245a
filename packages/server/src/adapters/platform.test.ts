import { describe, expect, it } from 'vitest';
import { type OfferKind, type OfferOutcome, PlatformSimulator } from './platform.ts';

const ALICE = '76561190000000001';
const BOB = '76561190000000002';

describe('the platform simulator', () => {
  it('keeps inventories per user and game', () => {
    const platform = new PlatformSimulator();
    platform.setInventory(ALICE, 440, [{ assetId: 'a1', itemId: 1 }]);
    expect(platform.inventory(ALICE, 440)).toEqual([{ assetId: 'a1', itemId: 1 }]);
    expect(platform.inventory(ALICE, 730)).toEqual([]);
    expect(platform.inventory(BOB, 440)).toEqual([]);
  });

  it('sends offers that stay pending, listed oldest first and per user', () => {
    const platform = new PlatformSimulator();
    const first = platform.sendOffer({ kind: 'deposit', platformId: ALICE, assetIds: ['a1'] });
    const second = platform.sendOffer({ kind: 'withdraw', platformId: BOB, assetIds: ['7'] });
    expect(first.status).toBe(0);
    expect(second.tradeId).not.toBe(first.tradeId);
    expect(platform.offers().map((o) => o.tradeId)).toEqual([first.tradeId, second.tradeId]);
    expect(platform.offers(BOB)).toEqual([second]);
    expect(platform.offer(first.tradeId)).toEqual(first);
  });

  it.each<[OfferKind, OfferOutcome, number, string[]]>([
    ['deposit', 'accept', 3, ['a2']],
    ['deposit', 'decline', -1, ['a1', 'a2']],
    ['deposit', 'fail', -1, ['a1', 'a2']],
    ['instant_sell', 'accept', 3, ['a2']],
    ['withdraw', 'accept', 3, ['a1', 'a2']],
  ])('settles a %s offer on %s with status %i; the platform inventory keeps %j', (kind, outcome, status, kept) => {
    const platform = new PlatformSimulator();
    platform.setInventory(ALICE, 440, [
      { assetId: 'a1', itemId: 1 },
      { assetId: 'a2', itemId: 1 },
    ]);
    const { tradeId } = platform.sendOffer({ kind, platformId: ALICE, assetIds: ['a1'] });
    expect(platform.settle(tradeId, outcome)).toMatchObject({ tradeId, status });
    expect(platform.offer(tradeId)?.status).toBe(status);
    expect(platform.inventory(ALICE, 440).map((a) => a.assetId)).toEqual(kept);
  });

  it('settles an offer once, and never an unknown one', () => {
    const platform = new PlatformSimulator();
    const { tradeId } = platform.sendOffer({ kind: 'deposit', platformId: ALICE, assetIds: ['a1'] });
    platform.settle(tradeId, 'decline');
    expect(platform.settle(tradeId, 'accept')).toBeUndefined();
    expect(platform.offer(tradeId)?.status).toBe(-1);
    expect(platform.settle('404', 'accept')).toBeUndefined();
  });

  it('hands out copies: an offer changes only through settle', () => {
    const platform = new PlatformSimulator();
    const sent = platform.sendOffer({ kind: 'deposit', platformId: ALICE, assetIds: ['a1'] });
    sent.status = 3;
    platform.offers()[0]!.status = 3;
    expect(platform.offer(sent.tradeId)?.status).toBe(0);
  });

  it('forgets everything on clear', () => {
    const platform = new PlatformSimulator();
    platform.setInventory(ALICE, 440, [{ assetId: 'a1', itemId: 1 }]);
    platform.sendOffer({ kind: 'deposit', platformId: ALICE, assetIds: ['a1'] });
    platform.clear();
    expect([platform.inventory(ALICE, 440), platform.offers()]).toEqual([[], []]);
  });
});
