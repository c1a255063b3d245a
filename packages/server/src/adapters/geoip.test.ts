import { describe, expect, it } from 'vitest';
import { GeoIpTable } from './geoip.ts';

describe('the GeoIP table', () => {
  it.each([
    ['an unknown address resolves to US', '203.0.113.9', 'US'],
    ['a set address resolves to its country, upper-cased', '198.51.100.7', 'FR'],
  ])('%s', (_name, ip, country) => {
    const geoip = new GeoIpTable();
    geoip.set('198.51.100.7', 'fr');
    expect(geoip.country(ip)).toBe(country);
  });

  it('forgets what was set on clear', () => {
    const geoip = new GeoIpTable();
    geoip.set('198.51.100.7', 'KP');
    geoip.clear();
    expect(geoip.country('198.51.100.7')).toBe('US');
  });
});
