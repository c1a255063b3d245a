// Resolves a client IP to an ISO country code (blocked countries are refused at login). The
// simulator answers from a table the test helpers fill; unknown IPs resolve to US.

export interface GeoIp {
  country(ip: string): string;
}

export class GeoIpTable implements GeoIp {
  #table = new Map<string, string>();

  country(ip: string): string {
    return this.#table.get(ip) ?? 'US';
  }

  set(ip: string, country: string): void {
    this.#table.set(ip, country.toUpperCase());
  }

  clear(): void {
    this.#table.clear();
  }
}
