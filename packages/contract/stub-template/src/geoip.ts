// The country of a client IP, which decides `Country blocked` at login (settings.ts lists the
// blocked ones). A table the test helpers fill (`POST /test_helpers/geoip`); every other IP is `US`,
// as the test-helpers document says. Put a GeoIP database behind `countryOf` for production.
export class GeoIp {
  private readonly countries = new Map<string, string>();

  /** The two-letter country of `ip`. */
  countryOf(ip: string): string {
    return this.countries.get(ip) ?? 'US';
  }

  set(ip: string, country: string): void {
    this.countries.set(ip, country.toUpperCase());
  }

  /** Forgets every mapping (test helpers: reset). */
  clear(): void {
    this.countries.clear();
  }
}
