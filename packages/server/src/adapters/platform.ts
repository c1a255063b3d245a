// The external game platform: users' own inventories (what a deposit can offer) and the trade
// offers the service's bots send. The simulator holds both in memory; the test helpers set
// inventories and settle offers (accept, decline, fail).

export interface PlatformAsset {
  assetId: string;
  itemId: number;
  [attribute: string]: unknown;
}

export type OfferKind = 'deposit' | 'withdraw' | 'instant_sell';

export interface Offer {
  tradeId: string;
  kind: OfferKind;
  platformId: string;
  assetIds: string[];
  status: number;
}

export interface Platform {
  inventory(platformId: string, game: number): PlatformAsset[];
  sendOffer(offer: Omit<Offer, 'tradeId' | 'status'>): Offer;
  offers(platformId?: string): Offer[];
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

  sendOffer(offer: Omit<Offer, 'tradeId' | 'status'>): Offer {
    this.#next += 1;
    const sent = { ...offer, tradeId: String(this.#next), status: 0 };
    this.#offers.push(sent);
    return sent;
  }

  offers(platformId?: string): Offer[] {
    return this.#offers.filter((o) => !platformId || o.platformId === platformId);
  }

  offer(tradeId: string): Offer | undefined {
    return this.#offers.find((o) => o.tradeId === tradeId);
  }

  clear(): void {
    this.#inventories.clear();
    this.#offers = [];
  }
}
