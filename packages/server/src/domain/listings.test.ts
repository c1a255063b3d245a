import { describe, expect, it } from 'vitest';
import { activeListings, listingCount, listingPage } from './listings.ts';
import { testState } from './test-state.fixture.ts';

function market() {
  const s = testState();
  const [seller, other] = [s.user(), s.user()];
  const item = s.item();
  // IDs 1..6 in creation order; two share the price 200, one is not listed, one has another item.
  const prices = [300, 200, 100, 200, 250];
  const assets = prices.map((price, i) =>
    s.asset({ owner: i % 2 ? other.platformId : seller.platformId, itemId: item.id, state: 1, price }),
  );
  s.asset({ owner: seller.platformId, itemId: item.id, state: 0, price: 50 });
  s.asset({ owner: seller.platformId, itemId: s.item().id, state: 1, price: 10 });
  return { s, seller, other, item, assets };
}

describe('activeListings', () => {
  it('keeps the listed assets of the item, cheapest first, equal prices by ID', () => {
    const { s, item, assets } = market();
    expect(activeListings(s.tx, item.id).map((a) => a.id)).toEqual([
      assets[2]!.id,
      assets[1]!.id,
      assets[3]!.id,
      assets[4]!.id,
      assets[0]!.id,
    ]);
  });
});

describe('listingPage', () => {
  it.each([
    ['first page', { page: 0, count: 2 }, [100, 200]],
    ['offset is page x count', { page: 1, count: 2 }, [200, 250]],
    ['a partial last page', { page: 2, count: 2 }, [300]],
    ['past the end', { page: 3, count: 2 }, []],
    ['one big page', { page: 0, count: 100 }, [100, 200, 200, 250, 300]],
  ])('%s', (_name, given, want) => {
    const { s, item } = market();
    expect(listingPage(s.tx, { itemId: item.id, admin: false, ...given }).map((l) => l.price)).toEqual(want);
  });

  it('filters by seller', () => {
    const { s, item, other } = market();
    const page = listingPage(s.tx, { itemId: item.id, seller: other.platformId, page: 0, count: 10, admin: true });
    expect(page.map((l) => [l.price, l.user])).toEqual([
      [200, other.platformId],
      [200, other.platformId],
    ]);
  });

  it.each([
    ['hides user and ip from other callers', false, false],
    ['shows user and ip to administrators', true, true],
  ])('%s', (_name, admin, shown) => {
    const { s, item, seller } = market();
    const [first] = listingPage(s.tx, { itemId: item.id, page: 0, count: 1, admin });
    expect('user' in first! && 'ip' in first!).toBe(shown);
    if (shown) expect(first).toMatchObject({ user: seller.platformId, ip: '127.0.0.1' });
  });
});

describe('listingCount', () => {
  it.each([
    ['every seller', undefined, 5],
    ['one seller', 'seller', 3],
    ['a seller without listings', '76561198999999999', 0],
  ])('%s', (_name, who, want) => {
    const { s, item, seller } = market();
    expect(listingCount(s.tx, item.id, who === 'seller' ? seller.platformId : who)).toBe(want);
  });

  it('is 0 for an unknown item', () => {
    expect(listingCount(market().s.tx, 999)).toBe(0);
  });
});
