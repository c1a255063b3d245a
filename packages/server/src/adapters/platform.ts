// The external game platform: users' own inventories (what a deposit can offer) and the trade
// offers the service's bots send. The simulator holds both as documents of the shared world (kind
// `inventory` keyed `platformId:game`, kind `offer` keyed by trade ID), so every instance sees them;
// the test helpers set inventories and settle offers (accept, decline, fail). An offer stays
// pending (status 0) until it is settled: accepted is 3, declined or failed -1 (seed: Trade statuses).
import { deleteKinds, MemoryWorld, type SharedWorld } from '../world.ts';

export interface PlatformAsset {
  assetId: string;
  itemId: number;
  [attribute: string]: unknown;
}

export type OfferKind = 'deposit' | 'withdraw' | 'instant_sell';
export type OfferOutcome = 'accept' | 'decline' | 'fail';

export interface Offer {
  tradeId: string;
  kind: OfferKind;
  platformId: string;
  assetIds: string[];
  /** Pending (0) until settled: accepted 3, declined or failed -1. */
  status: 0 | 3 | -1;
}

export interface Platform {
  inventory(platformId: string, game: number): PlatformAsset[];
  /** Sends an offer; `tradeId` is the engine's when it names the trade record first. */
  sendOffer(offer: Omit<Offer, 'tradeId' | 'status'> & { tradeId?: string }): Offer;
  offers(platformId?: string): Offer[];
  offer(tradeId: string): Offer | undefined;
}

const INVENTORY = 'inventory';
const OFFER = 'offer';

export class PlatformSimulator implements Platform {
  readonly #world: SharedWorld;
  #next = 7000;

  constructor(world: SharedWorld = new MemoryWorld()) {
    this.#world = world;
  }

  inventory(platformId: string, game: number): PlatformAsset[] {
    return this.#world.get<PlatformAsset[]>(INVENTORY, `${platformId}:${game}`) ?? [];
  }

  setInventory(platformId: string, game: number, assets: PlatformAsset[]): void {
    this.#world.put(INVENTORY, `${platformId}:${game}`, assets);
  }

  sendOffer(offer: Omit<Offer, 'tradeId' | 'status'> & { tradeId?: string }): Offer {
    // The engine always names the trade; a numbered ID of our own is for callers that do not.
    let tradeId = offer.tradeId;
    if (tradeId === undefined)
      do tradeId = String(++this.#next);
      while (this.#world.get(OFFER, tradeId));
    const sent: Offer = { ...offer, assetIds: [...offer.assetIds], tradeId, status: 0 };
    this.#world.put(OFFER, tradeId, sent);
    return { ...sent };
  }

  /** Offers, oldest first, optionally of one user (copies: settle is the only way to change one). */
  offers(platformId?: string): Offer[] {
    return this.#world
      .list<Offer>(OFFER)
      .filter(({ doc: o }) => !platformId || o.platformId === platformId)
      .map(({ doc }) => ({ ...doc }));
  }

  offer(tradeId: string): Offer | undefined {
    const found = this.#world.get<Offer>(OFFER, tradeId);
    return found && { ...found };
  }

  /**
   * Settles a pending offer; undefined when there is no pending offer with that ID. Items the
   * user gives away (deposit, instant sell) leave their platform inventory when accepted.
   */
  settle(tradeId: string, outcome: OfferOutcome): Offer | undefined {
    const found = this.#world.get<Offer>(OFFER, tradeId);
    if (found?.status !== 0) return undefined;
    const offer: Offer = { ...found, status: outcome === 'accept' ? 3 : -1 };
    this.#world.put(OFFER, tradeId, offer);
    if (offer.status === 3 && offer.kind !== 'withdraw') {
      const given = new Set(offer.assetIds);
      for (const { key, doc: assets } of this.#world.list<PlatformAsset[]>(INVENTORY))
        if (key.startsWith(`${offer.platformId}:`) && assets.some((a) => given.has(a.assetId)))
          this.#world.put(
            INVENTORY,
            key,
            assets.filter((a) => !given.has(a.assetId)),
          );
    }
    return { ...offer };
  }

  clear(): void {
    deleteKinds(this.#world, INVENTORY, OFFER);
  }
}
