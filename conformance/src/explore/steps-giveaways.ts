// Giveaways in a run (seed: Giveaways, Limits; the document's giveaway routes): a user pools one of
// their assets into a private giveaway of 2 entries, others join and leave it; and what a stranger
// would try with it: pooling another user's asset, leaving a giveaway they are not in, joining their
// own or joining twice. Creating needs 2FA, which the run's sessions pass: they are API JWTs (the
// document: "an API JWT satisfies the filter"). A giveaway lasts 30 days, longer than a run moves
// the clock (MAX_ADVANCE), so none ends and draws during a run: its asset stays in the pool.
import fc from 'fast-check';
import { Violation } from './client.ts';
import type { GiveawayModel, Model, Real } from './model.ts';
import {
  ANSWER,
  as,
  choice,
  DAY,
  expectAnswer,
  held,
  notImplemented,
  onTheirAsset,
  pick,
  refused,
  type StepKind,
  user,
} from './step-kit.ts';

const HOUR = 3600;
/** Seed, Limits: one giveaway created per hour per user. */
const recentlyCreated = (m: Model, u: number) => m.lastGiveaway[u] !== undefined && m.now - m.lastGiveaway[u]! < HOUR;
const body = (assetId: string) => ({
  name: 'Explorer giveaway',
  type: 1,
  maxEntries: 2,
  duration: 30 * DAY,
  items: [assetId],
});

const NOT_FOUND = 'Items not found or too many items (max 50)';
const RATE_LIMITED = 'Rate limit exceeded. Maximum 1 giveaway per hour';
const CANNOT_JOIN = 'Cannot join this raffle';
const NOT_IN = 'Not in this giveaway';

/** Giveaways `u` may join: another's, not joined yet, not full (2 entries). */
const joinable = (m: Model, u: number) =>
  m.giveaways.filter((g) => g.creator !== u && !g.entrants.includes(u) && g.entrants.length < 2);

/** Giveaways `u` joined. */
const joined = (m: Model, u: number) => m.giveaways.filter((g) => g.entrants.includes(u));

/** A step of a user on one of the giveaways `which` gives them (generated when there is one). */
const onGiveaway = (
  operation: string,
  which: (m: Model, u: number) => GiveawayModel[],
  run: (m: Model, r: Real, u: number, g: GiveawayModel) => Promise<void>,
): StepKind => ({
  needs: [operation],
  args: fc.record({ user, giveaway: choice }),
  check: (m, a) => which(m, Number(a.user)).length > 0,
  run: (m, r, a) => run(m, r, Number(a.user), pick(which(m, Number(a.user)), a.giveaway)!),
});

export const GIVEAWAY_STEPS: Record<string, StepKind> = {
  // Only generated an hour or more (on the model's clock) after the user's last giveaway: the real
  // seconds of the run only add to that, so the hourly limit cannot refuse it.
  giveaway: {
    needs: ['POST /giveaways/create'],
    args: fc.record({ user, asset: choice }),
    check: (m, a) => held(m, Number(a.user)).length > 0 && !recentlyCreated(m, Number(a.user)),
    run: async (m, r, a) => {
      const u = Number(a.user);
      const asset = pick(held(m, u), a.asset)!;
      const x = await r.api.send('step', 'POST', '/giveaways/create', { json: body(asset.assetId), ...as(r, u) });
      if (notImplemented(m, x)) return;
      expectAnswer(x, [{ status: 200 }], `user ${u + 1} pools their asset ${asset.assetId} into a giveaway`);
      const url = x.body?.data?.giveaway?.url;
      if (typeof url !== 'string')
        throw new Violation(ANSWER, 'POST /giveaways/create: the created giveaway carries its url', [x]);
      Object.assign(asset, { place: 'giveaway', price: undefined });
      m.giveaways.push({ url, creator: u, assetId: asset.assetId, entrants: [] });
      m.lastGiveaway[u] = m.now;
    },
  },
  joinGiveaway: onGiveaway('POST /giveaways/join/{url}', joinable, async (m, r, u, g) => {
    const x = await r.api.send('step', 'POST', `/giveaways/join/${g.url}`, { json: {}, ...as(r, u) });
    if (notImplemented(m, x)) return;
    expectAnswer(x, [{ status: 200 }], `user ${u + 1} joins giveaway ${g.url} of user ${g.creator + 1}`);
    g.entrants.push(u);
  }),
  leaveGiveaway: onGiveaway('POST /giveaways/leave/{url}', joined, async (m, r, u, g) => {
    const x = await r.api.send('step', 'POST', `/giveaways/leave/${g.url}`, { json: {}, ...as(r, u) });
    if (notImplemented(m, x)) return;
    expectAnswer(x, [{ status: 200 }], `user ${u + 1} leaves giveaway ${g.url}`);
    g.entrants.splice(g.entrants.indexOf(u), 1);
  }),
  // A stranger's steps: each refused, changing nothing (the pooled asset and the entrants stay).
  // Which refusal comes first when both apply is not in the document: each is accepted.
  giveawayTheirAsset: onTheirAsset('POST /giveaways/create', {}, (u, asset, _, m) => ({
    request: { path: '/giveaways/create', json: body(asset.assetId) },
    messages: recentlyCreated(m, u) ? [NOT_FOUND, RATE_LIMITED] : [NOT_FOUND],
    why: `user ${u + 1} pools asset ${asset.assetId} of user ${asset.owner + 1} into a giveaway`,
  })),
  leaveNotJoined: onGiveaway(
    'POST /giveaways/leave/{url}',
    (m, u) => m.giveaways.filter((g) => !g.entrants.includes(u)),
    (m, r, u, g) =>
      refused(
        m,
        r,
        u,
        { path: `/giveaways/leave/${g.url}`, json: {} },
        [NOT_IN],
        `user ${u + 1} leaves giveaway ${g.url} of user ${g.creator + 1}, which they did not join (${entrantsOf(g)})`,
      ),
  ),
  joinOwnOrAgain: onGiveaway(
    'POST /giveaways/join/{url}',
    (m, u) => m.giveaways.filter((g) => g.creator === u || g.entrants.includes(u)),
    (m, r, u, g) =>
      refused(
        m,
        r,
        u,
        { path: `/giveaways/join/${g.url}`, json: {} },
        [CANNOT_JOIN],
        `user ${u + 1} joins giveaway ${g.url} ${g.creator === u ? 'that they created' : 'again'}`,
      ),
  ),
};

const entrantsOf = (g: GiveawayModel) =>
  g.entrants.length ? `joined by ${g.entrants.map((e) => `user ${e + 1}`).join(', ')}` : 'nobody joined';
