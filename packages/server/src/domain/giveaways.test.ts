import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CreateInput,
  createGiveaway,
  deleteComment,
  drawIndex,
  endDue,
  GIVEAWAY_LIMITS,
  join,
  leave,
  listComments,
  listGiveaways,
  POOL_STATE,
  postComment,
  seedHash,
} from './giveaways.ts';
import { GIVEAWAYS } from './messages.ts';
import type { Giveaway } from './records.ts';
import { testState } from './test-state.fixture.ts';
import type { Tx } from './tx.ts';

const SEED = '9c4e2a7b1d8f30562e1a4b7c9d0f83a1e6b25c4d7f90a13b8e2c6d41f5a7b903';
const HOUR = 3600;

/** A creator with `count` assets in the inventory, and a create input naming them. */
function setUp(count = 2) {
  const s = testState();
  const creator = s.user();
  const item = s.item();
  const assets = Array.from({ length: count }, () => s.asset({ owner: creator.platformId, itemId: item.id }));
  let urls = 0;
  const input = (more: Partial<CreateInput> = {}): CreateInput => ({
    owner: creator.platformId,
    name: 'Test',
    maxEntries: 5,
    type: 1,
    duration: HOUR,
    items: assets.map((a) => a.assetId),
    url: (++urls).toString(16).padStart(12, '0'),
    serverSeed: SEED,
    now: s.now,
    ...more,
  });
  return { ...s, creator, item, assets, input };
}

const giveawayOf = (tx: Tx, url: string): Giveaway => tx.all('giveaways').find((g) => g.url === url)!;
const value = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.error)}`);
  return r.value;
};

describe('the draw (GiveawayFairness)', () => {
  it("reproduces the document's example: the seed hash, and index 15 of 42 for url 3fa85f6457b2", () => {
    expect(seedHash(SEED)).toBe('11a8fcd63f02d4d6199c3777857ee3ff9eb40f4ab72a313d88f304fb29af0d05');
    expect(drawIndex(SEED, '3fa85f6457b2', 42)).toBe(15);
  });

  it('is deterministic given the seed, and the URL changes it', () => {
    const indexes = Array.from({ length: 5 }, () => drawIndex(SEED, '3fa85f6457b2', 1000));
    expect(new Set(indexes).size).toBe(1);
    const others = ['000000000001', '000000000002', '000000000003'].map((url) => drawIndex(SEED, url, 1000));
    expect(new Set([...others, indexes[0]]).size).toBeGreaterThan(1);
  });

  it('refuses a draw without participants', () => {
    expect(() => drawIndex(SEED, '3fa85f6457b2', 0)).toThrow();
  });

  it('property: the index is always within the participants', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9a-f]{64}$/),
        fc.stringMatching(/^[0-9a-f]{12}$/),
        fc.integer({ min: 1, max: 100_000 }),
        (seed, url, count) => {
          const index = drawIndex(seed, url, count);
          return Number.isInteger(index) && index >= 0 && index < count;
        },
      ),
    );
  });

  it('property: an ended giveaway with participants has one of them as its winner, who holds every pool asset', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{64}$/), fc.integer({ min: 1, max: 30 }), (serverSeed, people) => {
        const s = setUp(3);
        const { url } = value(createGiveaway(s.tx, s.input({ serverSeed, maxEntries: 100 })));
        const users = Array.from({ length: people }, () => s.user().platformId);
        for (const [i, u] of users.entries()) value(join(s.tx, url, u, s.now + i));
        expect(endDue(s.tx, s.now + HOUR)).toBe(1);
        const g = giveawayOf(s.tx, url);
        expect(g.winnerIndex).toBe(drawIndex(serverSeed, url, people));
        expect(users).toContain(g.winner);
        expect(g.winner).toBe(users[g.winnerIndex!]);
        for (const a of s.assets) expect(s.tx.get('assets', a.id)).toMatchObject({ user: g.winner, state: 0 });
      }),
      { numRuns: 50 },
    );
  });
});

describe('createGiveaway', () => {
  it('moves the assets into the pool (state -1, no price) and commits to the seed without showing it', () => {
    const s = setUp(2);
    const listed = s.asset({ owner: s.creator.platformId, itemId: s.item.id, state: 1, price: 500 });
    const view = value(createGiveaway(s.tx, s.input({ items: [...s.assets.map((a) => a.assetId), listed.assetId] })));
    expect(view.items.map((i) => i.assetId)).toEqual([...s.assets, listed].map((a) => a.assetId));
    expect(view.fairness).toEqual({ serverSeedHash: seedHash(SEED), serverSeed: null, winnerIndex: null });
    expect(view.endsAt).toBe(s.now + HOUR);
    for (const a of [...s.assets, listed])
      expect(s.tx.get('assets', a.id)).toMatchObject({ state: POOL_STATE, price: null });
  });

  it('allows one giveaway per hour', () => {
    const s = setUp(2);
    value(createGiveaway(s.tx, s.input({ items: [s.assets[0]!.assetId] })));
    const again = (now: number) => createGiveaway(s.tx, s.input({ items: [s.assets[1]!.assetId], now }));
    expect(again(s.now + HOUR - 1)).toEqual({ ok: false, error: GIVEAWAYS.createRateLimited });
    expect(again(s.now + HOUR).ok).toBe(true);
  });

  it.each([
    ['no items', { items: [] }, GIVEAWAYS.itemsRequired],
    ['51 items', { items: Array.from({ length: 51 }, (_, i) => String(i)) }, GIVEAWAYS.itemsNotFound],
    ['an unknown asset', { items: ['424242'] }, GIVEAWAYS.itemsNotFound],
    ['a public giveaway under 100 entries', { type: 0 as const, maxEntries: 99 }, GIVEAWAYS.publicMinimum],
    ['a private giveaway under 2 entries', { maxEntries: 1 }, GIVEAWAYS.privateMinimum],
  ])('refuses %s', (_what, more, message) => {
    const s = setUp(1);
    expect(createGiveaway(s.tx, s.input(more))).toEqual({ ok: false, error: message });
  });

  it("refuses another user's asset and one not in the inventory (state 2)", () => {
    const s = setUp(1);
    const other = s.asset({ owner: s.user().platformId, itemId: s.item.id });
    const held = s.asset({ owner: s.creator.platformId, itemId: s.item.id, state: 2 });
    for (const a of [other, held])
      expect(createGiveaway(s.tx, s.input({ items: [a.assetId] }))).toEqual({
        ok: false,
        error: GIVEAWAYS.itemsNotFound,
      });
  });

  it(`accepts exactly ${GIVEAWAY_LIMITS.maxItems} items`, () => {
    const s = setUp(GIVEAWAY_LIMITS.maxItems);
    expect(value(createGiveaway(s.tx, s.input())).items).toHaveLength(GIVEAWAY_LIMITS.maxItems);
  });
});

describe('join and leave', () => {
  it('refuses the creator, a second join, a full giveaway and an ended one; leaving frees a place', () => {
    const s = setUp(1);
    const { url } = value(createGiveaway(s.tx, s.input({ maxEntries: 2 })));
    const [a, b, c] = [s.user(), s.user(), s.user()].map((u) => u.platformId);
    const refused = { ok: false, error: GIVEAWAYS.cannotJoin };
    expect(join(s.tx, url, s.creator.platformId, s.now)).toEqual(refused);
    expect(value(join(s.tx, url, a!, s.now)).entries).toBe(1);
    expect(join(s.tx, url, a!, s.now)).toEqual(refused);
    value(join(s.tx, url, b!, s.now));
    expect(join(s.tx, url, c!, s.now)).toEqual(refused);
    expect(value(leave(s.tx, url, a!, s.now)).entries).toBe(1);
    expect(leave(s.tx, url, a!, s.now)).toEqual({ ok: false, error: GIVEAWAYS.notJoined });
    expect(join(s.tx, url, c!, s.now + HOUR)).toEqual(refused);
    expect(leave(s.tx, url, b!, s.now + HOUR)).toEqual({ ok: false, error: GIVEAWAYS.notJoined });
    expect(leave(s.tx, 'ffffffffffff', b!, s.now)).toEqual({ ok: false, error: GIVEAWAYS.notFound });
  });

  it('refuses every join when chat-account verification is required (no account has one)', () => {
    const s = setUp(1);
    const { url } = value(createGiveaway(s.tx, s.input({ chatVerification: true })));
    expect(join(s.tx, url, s.user().platformId, s.now)).toEqual({ ok: false, error: GIVEAWAYS.cannotJoin });
  });
});

describe('endDue', () => {
  it('leaves running giveaways alone and gives the pool back to the creator when nobody joined', () => {
    const s = setUp(2);
    const { url } = value(createGiveaway(s.tx, s.input()));
    expect(endDue(s.tx, s.now + HOUR - 1)).toBe(0);
    expect(endDue(s.tx, s.now + HOUR)).toBe(1);
    const g = giveawayOf(s.tx, url);
    expect(g).toMatchObject({ ended: true, winner: null, winnerIndex: null });
    for (const a of s.assets) expect(s.tx.get('assets', a.id)).toMatchObject({ user: s.creator.platformId, state: 0 });
    expect(endDue(s.tx, s.now + 2 * HOUR)).toBe(0);
  });

  it('moves an ended giveaway from the active lists to the histories', () => {
    const s = setUp(1);
    const { url } = value(createGiveaway(s.tx, s.input({ type: 0, maxEntries: 100 })));
    const me = s.creator.platformId;
    expect(listGiveaways(s.tx, 'public', me, 0).list.map((g) => g.url)).toEqual([url]);
    endDue(s.tx, s.now + HOUR);
    expect(listGiveaways(s.tx, 'public', me, 0).count).toBe(0);
    expect(listGiveaways(s.tx, 'mine', me, 0).count).toBe(0);
    expect(listGiveaways(s.tx, 'publicHistory', me, 0).list.map((g) => g.url)).toEqual([url]);
    expect(listGiveaways(s.tx, 'myHistory', me, 0).list[0]).toMatchObject({ url, ended: true, winner: null });
  });
});

describe('comments', () => {
  it('allows one comment per 10 minutes per user and pages them 10 at a time, newest first', () => {
    const s = setUp(1);
    const { url } = value(createGiveaway(s.tx, s.input()));
    const me = s.user().platformId;
    const say = (now: number, user = me) => postComment(s.tx, { url, user, comment: `at ${now}`, now });
    value(say(s.now));
    expect(say(s.now + 599)).toEqual({ ok: false, error: GIVEAWAYS.commentCooldown });
    value(say(s.now + 600));
    for (let i = 1; i <= 10; i++) value(say(s.now + 600 + i, s.user().platformId));
    const page0 = value(listComments(s.tx, url, 0));
    expect(page0.count).toBe(12);
    expect(page0.comments.map((c) => c.comment)).toEqual(Array.from({ length: 10 }, (_, i) => `at ${s.now + 610 - i}`));
    expect(value(listComments(s.tx, url, 1)).comments.map((c) => c.comment)).toEqual([
      `at ${s.now + 600}`,
      `at ${s.now}`,
    ]);
    expect(postComment(s.tx, { url: 'ffffffffffff', user: me, comment: 'x', now: s.now + 9999 })).toEqual({
      ok: false,
      error: GIVEAWAYS.notFound,
    });
    const first = page0.comments[0]!.id;
    expect(value(deleteComment(s.tx, first)).message).toBe('Comment deleted');
    expect(deleteComment(s.tx, first)).toEqual({ ok: false, error: GIVEAWAYS.commentNotFound });
    expect(value(listComments(s.tx, url, 0)).count).toBe(11);
  });
});
