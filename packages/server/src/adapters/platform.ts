// The external game platform: users' own inventories (what a deposit can offer) and the trade
// offers the service's bots send. The simulator holds both in memory; the test helpers set
// inventories and settle offers (accept, decline, fail). An offer stays pending (status 0) until
// it is settled: accepted is 3, declined or failed -1 (seed: Trade statuses).

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
  status: number;
}

export interface Platform {
  inventory(platformId: string, game: number): PlatformAsset[];
  /** Sends an offer; `tradeId` is the engine's when it names the trade record first. */
  sendOffer(offer: Omit<Offer, 'tradeId' | 'status'> & { tradeId?: string }): Offer;
  offers(platformId?: string): Offer[];
  offer(tradeId: string): Offer | undefined;
}

export class PlatformSimulator implements Platform {
  #inventories = new Map<string, PlatformAsset[]>();
  #offers: Offer[] = [];
  #next = 7000;

  inventory(platformId: string, game: number): PlatformAsset[] {
    return this.#inventories.get(`${platformId}:${game}`) ?? [];
  }

  setInventory(platformId: string, game: number, assets: PlatformAsset[]): void {
    this.#inventories.set(`${platformId}:${game}`, assets);
  }

  sendOffer(offer: Omit<Offer, 'tradeId' | 'status'> & { tradeId?: string }): Offer {
    this.#next += 1;
    const sent = { ...offer, assetIds: [...offer.assetIds], tradeId: offer.tradeId ?? String(this.#next), status: 0 };
    this.#offers.push(sent);
    return { ...sent };
  }

  /** Offers, oldest first, optionally of one user (copies: settle is the only way to change one). */
  offers(platformId?: string): Offer[] {
    return this.#offers.filter((o) => !platformId || o.platformId === platformId).map((o) => ({ ...o }));
  }

  offer(tradeId: string): Offer | undefined {
    const found = this.#offers.find((o) => o.tradeId === tradeId);
    return found && { ...found };
  }

  /**
   * Settles a pending offer; undefined when there is no pending offer with that ID. Items the
   * user gives away (deposit, instant sell) leave their platform inventory when accepted.
   */
  settle(tradeId: string, outcome: OfferOutcome): Offer | undefined {
    const offer = this.#offers.find((o) => o.tradeId === tradeId);
    if (offer?.status !== 0) return undefined;
    offer.status = outcome === 'accept' ? 3 : -1;
    if (offer.status === 3 && offer.kind !== 'withdraw') {
      const given = new Set(offer.assetIds);
      for (const [key, assets] of this.#inventories)
        if (key.startsWith(`${offer.platformId}:`))
          this.#inventories.set(
            key,
            assets.filter((a) => !given.has(a.assetId)),
          );
    }
    return { ...offer };
  }

  clear(): void {
    this.#inventories.clear();
    this.#offers = [];
  }
}
