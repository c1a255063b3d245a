// Resolves a client IP to an ISO country code (blocked countries are refused at login). The
// simulator answers from a table the test helpers fill (documents of the shared world, kind
// `geoip`, so every instance answers alike); unknown IPs resolve to US.
import { deleteKinds, MemoryWorld, type SharedWorld } from '../world.ts';

export interface GeoIp {
  country(ip: string): string;
}

const KIND = 'geoip';

export class GeoIpTable implements GeoIp {
  readonly #world: SharedWorld;

  constructor(world: SharedWorld = new MemoryWorld()) {
    this.#world = world;
  }

  country(ip: string): string {
    return this.#world.get<string>(KIND, ip) ?? 'US';
  }

  set(ip: string, country: string): void {
    this.#world.put(KIND, ip, country.toUpperCase());
  }

  clear(): void {
    deleteKinds(this.#world, KIND);
  }
}
