// Bans (seed: "Administration", "Transitions shown", "Events"): POST /admin/ban bans a user for
// `time` seconds or, with 0, unbans them; every call is an entry of the user's ban history and a
// notice to the moderation channel. A banned user can neither log in (domain/sessions.ts) nor use
// a token (http/authenticate.ts): both read `banUntil` through `isBanned`.
import type { PlatformAsset } from '../adapters/platform.ts';
import { ADMIN } from './messages.ts';
import type { Ban } from './records.ts';
import { fail, ok, type Tx } from './tx.ts';

export interface BanInput {
  admin: string;
  platformId: string;
  /** Seconds; 0 unbans. */
  time: number;
  reason: string;
  now: number;
}

export interface BanResult {
  message: string;
  platformId: string;
  bannedUntil: number | null;
}

/** Bans or unbans a user (`Admin user not found` when no account has the ID). */
export function banUser(tx: Tx, input: BanInput) {
  if (!input.platformId || !input.reason || !Number.isSafeInteger(input.time) || input.time < 0)
    return fail(ADMIN.missingBanParameters);
  const user = tx.get('users', input.platformId);
  if (!user) return fail(ADMIN.adminUserNotFound);
  const bannedUntil = input.time > 0 ? input.now + input.time : null;
  const id = tx.nextId('bans');
  tx.put('bans', id, {
    id,
    user: user.platformId,
    admin: input.admin,
    reason: input.reason,
    time: input.time,
    timestamp: input.now,
  });
  tx.put('users', user.platformId, { ...user, banUntil: bannedUntil });
  const what = bannedUntil === null ? 'unbanned' : `banned for ${input.time} seconds`;
  tx.emit({
    kind: 'moderation',
    notice: bannedUntil === null ? 'unban' : 'ban',
    text: `${user.name || user.platformId} (${user.platformId}) ${what} by ${input.admin}: ${input.reason}`,
    data: { platformId: user.platformId, admin: input.admin, time: input.time, reason: input.reason, bannedUntil },
  });
  return ok({
    message: bannedUntil === null ? 'User unbanned' : 'User banned',
    platformId: user.platformId,
    bannedUntil,
  });
}

const newestFirst = (a: Ban, b: Ban) => b.timestamp - a.timestamp || b.id - a.id;

/**
 * A user's ban history, newest first (document: BanEntry). Only the newest entry can be in force:
 * a later ban replaces an earlier one and an unban lifts it.
 */
export function banHistory(tx: Tx, platformId: string, now: number) {
  const bans = tx.find('bansByUser', platformId).sort(newestFirst);
  return bans.map((b, i) => {
    const until = b.time > 0 ? b.timestamp + b.time : null;
    return {
      id: b.id,
      platformId: b.user,
      admin: b.admin,
      reason: b.reason,
      time: b.time,
      created: b.timestamp,
      until,
      active: i === 0 && until !== null && until > now,
    };
  });
}

/** An attribute of a platform asset: a string where the platform sets one (the test helpers' document types them). */
const attribute = (a: PlatformAsset, name: string) => (a[name] === undefined ? null : (a[name] as string | null));

/** The document's PlatformInventoryAsset rows of what a user holds on the platform. */
export function platformInventoryView(tx: Tx, assets: readonly PlatformAsset[]) {
  return assets.map((a) => {
    const item = tx.get('items', a.itemId);
    return {
      assetId: a.assetId,
      itemId: item ? item.id : null,
      name: item?.name ?? String(a.name ?? ''),
      image: item?.image ?? String(a.image ?? ''),
      tradable: a.tradable !== false,
      wear: typeof a.wear === 'number' ? a.wear : null,
      sheen: attribute(a, 'sheen'),
      killstreaker: attribute(a, 'killstreaker'),
      spell: attribute(a, 'spell'),
      parts: attribute(a, 'parts'),
      paint: attribute(a, 'paint'),
    };
  });
}
