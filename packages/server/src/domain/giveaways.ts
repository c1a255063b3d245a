// Giveaways (seed: "Endpoints > Giveaways", "Limits", "Backpack / listing state"; the document's
// giveaway schemas and GiveawayFairness). A creator moves up to 50 inventory assets into a pool
// (state POOL_STATE, negative: reserved), users join and leave, and past `endsAt` the giveaway
// ends: the winner is drawn from a seed committed at creation, the pool goes to the winner (back
// to the creator when nobody joined) in state 0. There are no background jobs: every giveaway
// route first ends the giveaways that are due (`endDue`), see ADR 0007.
import { createHash, createHmac } from 'node:crypto';
import type { Schema } from '@marketplace/types';
import { ownAsset } from './inventory.ts';
import { GIVEAWAYS } from './messages.ts';
import type { Giveaway, GiveawayComment } from './records.ts';
import type { Asset } from './state.ts';
import { type Failure, fail, ok, type Result, type Tx } from './tx.ts';

/** Seed Limits: giveaways. */
export const GIVEAWAY_LIMITS = {
  createEvery: 3600,
  maxItems: 50,
  publicMinimum: 100,
  privateMinimum: 2,
  commentEvery: 600,
  commentsPerPage: 10,
  /** The document's page size of the giveaway lists. */
  listPage: 20,
} as const;

/** The backpack state of an asset in a giveaway pool (seed: negative, reserved). */
export const POOL_STATE = -1;

export type GiveawaySummary = Schema<'GiveawaySummary'>;
export type GiveawayView = Schema<'Giveaway'>;
export type GiveawayUser = Schema<'GiveawayUser'>;
export type CommentView = Schema<'GiveawayComment'>;
type List = Schema<'GiveawayList'>;

// ---- The draw (GiveawayFairness) ----

/** SHA-256 of the seed's 64 hex characters as UTF-8 text, in hex: the commitment shown at creation. */
export const seedHash = (serverSeed: string): string => createHash('sha256').update(serverSeed, 'utf8').digest('hex');

/**
 * The winner's index among `count` participants sorted by join time: the first 8 hex digits of
 * HMAC-SHA256(key = the seed's 64 characters, message = the giveaway URL), modulo `count`.
 */
export function drawIndex(serverSeed: string, url: string, count: number): number {
  if (count < 1) throw new Error('a draw needs at least one participant');
  const digest = createHmac('sha256', serverSeed).update(url, 'utf8').digest('hex');
  return Number.parseInt(digest.slice(0, 8), 16) % count;
}

// ---- Views ----

export function userView(tx: Tx, platformId: string): GiveawayUser {
  const user = tx.get('users', platformId);
  return { platformId, name: user?.name ?? '', image: user?.image ?? '' };
}

function itemsView(tx: Tx, g: Giveaway): GiveawaySummary['items'] {
  return g.assetIds.flatMap((id) => {
    const asset = tx.get('assets', id);
    if (!asset) return [];
    const item = tx.get('items', asset.item_id);
    return [{ assetId: asset.assetId, item_id: asset.item_id, name: item?.name ?? '', image: item?.image ?? '' }];
  });
}

export function summaryView(tx: Tx, g: Giveaway): GiveawaySummary {
  return {
    url: g.url,
    name: g.name,
    type: g.type,
    maxEntries: g.maxEntries,
    entries: g.participants.length,
    creator: userView(tx, g.owner),
    items: itemsView(tx, g),
    created: g.created,
    endsAt: g.endsAt,
    ended: g.ended,
    winner: g.winner === null ? null : userView(tx, g.winner),
  };
}

export function giveawayView(tx: Tx, g: Giveaway): GiveawayView {
  return {
    ...summaryView(tx, g),
    descriptionBefore: g.descriptionBefore,
    descriptionAfter: g.descriptionAfter,
    chatVerification: g.requireChatVerification,
    fairness: {
      serverSeedHash: seedHash(g.serverSeed),
      serverSeed: g.ended ? g.serverSeed : null,
      winnerIndex: g.winnerIndex,
    },
  };
}

const commentView = (tx: Tx, c: GiveawayComment): CommentView => ({
  id: c.id,
  user: userView(tx, c.user),
  comment: c.content,
  timestamp: c.timestamp,
});

// ---- The ending ----

const isDue = (g: Giveaway, now: number) => !g.ended && g.endsAt <= now;

/** Whether a giveaway is past its end and not yet ended (asked before every API request). */
export const anyDue = (tx: Tx, now: number): boolean => {
  const soonest = tx.first('giveawaysRunning', '');
  return soonest !== undefined && isDue(soonest, now);
};

/**
 * Ends one giveaway: draws the winner (none without participants), moves every pool asset to the
 * winner or back to the creator in state 0, and reveals the seed.
 */
export function endGiveaway(tx: Tx, g: Giveaway, now: number): Giveaway {
  const winnerIndex = g.participants.length ? drawIndex(g.serverSeed, g.url, g.participants.length) : null;
  const winner = winnerIndex === null ? null : g.participants[winnerIndex]!.user;
  for (const id of g.assetIds) {
    const asset = tx.get('assets', id);
    if (!asset) continue;
    tx.put('assets', id, { ...asset, user: winner ?? g.owner, state: 0, price: null, lastupdate: now });
  }
  return tx.put('giveaways', g.id, { ...g, ended: true, winner, winnerIndex });
}

/** Ends every giveaway past its `endsAt`, oldest end first; returns how many ended. */
export function endDue(tx: Tx, now: number): number {
  // Running giveaways soonest end first: the due ones are the head (read before any is ended).
  const due: Giveaway[] = [];
  for (const g of tx.ordered('giveawaysRunning', '')) {
    if (!isDue(g, now)) break;
    due.push(g);
  }
  for (const g of due) endGiveaway(tx, g, now);
  return due.length;
}

// ---- Creation ----

export interface CreateInput {
  owner: string;
  name: string;
  maxEntries: number;
  type: 0 | 1;
  descriptionBefore?: string;
  descriptionAfter?: string;
  duration: number;
  items: string[];
  chatVerification?: boolean;
  /** 12 lowercase hex characters, unused by any other giveaway (the route draws it). */
  url: string;
  /** 64 lowercase hex characters (the route draws 32 random bytes). */
  serverSeed: string;
  now: number;
}

/** The caller's assets named by asset ID, when every one is in the inventory (state 0 or 1). */
function poolAssets(tx: Tx, owner: string, assetIds: string[]): Asset[] | undefined {
  const wanted = [...new Set(assetIds)];
  const found = wanted.map((id) => ownAsset(tx, owner, id, (a) => a.state === 0 || a.state === 1));
  return found.every((a) => a !== undefined) ? (found as Asset[]) : undefined;
}

export function createGiveaway(tx: Tx, input: CreateInput) {
  const { owner, now } = input;
  const last = tx
    .find('giveawaysByOwner', owner)
    .reduce((latest, g) => Math.max(latest, g.created), Number.NEGATIVE_INFINITY);
  if (now - last < GIVEAWAY_LIMITS.createEvery) return fail(GIVEAWAYS.createRateLimited);
  if (input.items.length === 0) return fail(GIVEAWAYS.itemsRequired);
  if (input.items.length > GIVEAWAY_LIMITS.maxItems) return fail(GIVEAWAYS.itemsNotFound);
  const assets = poolAssets(tx, owner, input.items);
  if (!assets) return fail(GIVEAWAYS.itemsNotFound);
  if (input.type === 0 && input.maxEntries < GIVEAWAY_LIMITS.publicMinimum) return fail(GIVEAWAYS.publicMinimum);
  if (input.maxEntries < GIVEAWAY_LIMITS.privateMinimum) return fail(GIVEAWAYS.privateMinimum);
  for (const a of assets) tx.put('assets', a.id, { ...a, state: POOL_STATE, price: null, lastupdate: now });
  const id = tx.nextId('giveaways');
  const giveaway = tx.put('giveaways', id, {
    id,
    url: input.url,
    owner,
    name: input.name,
    maxEntries: input.maxEntries,
    type: input.type,
    descriptionBefore: input.descriptionBefore ?? '',
    descriptionAfter: input.descriptionAfter ?? '',
    requireChatVerification: input.chatVerification ?? false,
    assetIds: assets.map((a) => a.id),
    participants: [],
    created: now,
    endsAt: now + input.duration,
    serverSeed: input.serverSeed,
    ended: false,
    winner: null,
    winnerIndex: null,
  });
  return ok(giveawayView(tx, giveaway));
}

// ---- Lookups and lists ----

export const byUrl = (tx: Tx, url: string): Giveaway | undefined => tx.findOne('giveawaysByUrl', url);

function found<T, E extends Failure>(tx: Tx, url: string, then: (g: Giveaway) => Result<T, E>) {
  const g = byUrl(tx, url);
  return g ? then(g) : fail(GIVEAWAYS.notFound);
}

export type ListKind = 'public' | 'publicHistory' | 'mine' | 'myHistory' | 'joined';

const newest = (a: Giveaway, b: Giveaway) => b.created - a.created || b.id - a.id;
const lastEnded = (a: Giveaway, b: Giveaway) => b.endsAt - a.endsAt || b.id - a.id;
const joinedAt = (g: Giveaway, user: string) => g.participants.find((p) => p.user === user)?.joined ?? 0;

/** One page (20) of a giveaway list: which giveaways and their order follow the document. */
export function listGiveaways(tx: Tx, kind: ListKind, user: string, page: number): List {
  const own = () => tx.find('giveawaysByOwner', user);
  const chosen = {
    public: () => tx.find('giveawaysByList', 'public').sort(newest),
    publicHistory: () => tx.find('giveawaysByList', 'publicHistory').sort(lastEnded),
    mine: () =>
      own()
        .filter((g) => !g.ended)
        .sort(newest),
    myHistory: () =>
      own()
        .filter((g) => g.ended)
        .sort(lastEnded),
    joined: () =>
      tx.find('giveawaysByParticipant', user).sort((a, b) => joinedAt(b, user) - joinedAt(a, user) || b.id - a.id),
  }[kind]();
  const size = GIVEAWAY_LIMITS.listPage;
  return { list: chosen.slice(page * size, (page + 1) * size).map((g) => summaryView(tx, g)), count: chosen.length };
}

export function giveawayDetails(tx: Tx, url: string) {
  return found(tx, url, (g) =>
    ok({
      giveaway: giveawayView(tx, g),
      participants: g.participants.map((p) => ({ ...userView(tx, p.user), joined: p.joined })),
    }),
  );
}

export const isIn = (tx: Tx, url: string, user: string) =>
  found(tx, url, (g) => ok({ isIn: g.participants.some((p) => p.user === user) }));

// ---- Joining and leaving ----

export function join(tx: Tx, url: string, user: string, now: number) {
  const g = byUrl(tx, url);
  const refused =
    !g ||
    g.ended ||
    g.endsAt <= now ||
    g.participants.length >= g.maxEntries ||
    g.owner === user ||
    g.participants.some((p) => p.user === user) ||
    // The seed's chat-account verification: no account records one, so nobody passes it.
    g.requireChatVerification;
  if (refused) return fail(GIVEAWAYS.cannotJoin);
  const participants = [...g.participants, { user, joined: now }];
  tx.put('giveaways', g.id, { ...g, participants });
  return ok({ message: 'Joined' as const, entries: participants.length });
}

export function leave(tx: Tx, url: string, user: string, now: number) {
  return found(tx, url, (g) => {
    if (g.ended || g.endsAt <= now || !g.participants.some((p) => p.user === user)) return fail(GIVEAWAYS.notJoined);
    const participants = g.participants.filter((p) => p.user !== user);
    tx.put('giveaways', g.id, { ...g, participants });
    return ok({ message: 'Left' as const, entries: participants.length });
  });
}

// ---- Comments ----

export function postComment(tx: Tx, input: { url: string; user: string; comment: string; now: number }) {
  const { user, now } = input;
  return found(tx, input.url, (g) => {
    const recent = tx.find('commentsByUser', user).some((c) => now - c.timestamp < GIVEAWAY_LIMITS.commentEvery);
    if (recent) return fail(GIVEAWAYS.commentCooldown);
    const id = tx.nextId('giveawayComments');
    const comment = tx.put('giveawayComments', id, {
      id,
      giveaway: g.id,
      user,
      content: input.comment,
      timestamp: now,
    });
    return ok({ message: 'Comment posted' as const, comment: commentView(tx, comment) });
  });
}

export function listComments(tx: Tx, url: string, page: number) {
  return found(tx, url, (g) => {
    const all = tx.find('commentsByGiveaway', String(g.id)).sort((a, b) => b.timestamp - a.timestamp || b.id - a.id);
    const size = GIVEAWAY_LIMITS.commentsPerPage;
    const comments = all.slice(page * size, (page + 1) * size).map((c) => commentView(tx, c));
    return ok({ comments, page, count: all.length });
  });
}

export function deleteComment(tx: Tx, id: number) {
  if (!tx.get('giveawayComments', id)) return fail(GIVEAWAYS.commentNotFound);
  tx.delete('giveawayComments', id);
  return ok({ message: 'Comment deleted' as const });
}
