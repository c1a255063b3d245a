import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { anonymize, publicSales } from './public-sales.ts';
import { testState } from './test-state.fixture.ts';

describe('anonymize', () => {
  it('is the first 8 hex characters of SHA-256 of the platform ID', () => {
    const id = '76561198000000001';
    expect(anonymize(id)).toBe(createHash('sha256').update(id).digest('hex').slice(0, 8));
    expect(anonymize(id)).toMatch(/^[0-9a-f]{8}$/);
    expect(anonymize('76561198000000002')).not.toBe(anonymize(id));
  });
});

describe('publicSales', () => {
  function feed() {
    const s = testState();
    const tf2 = s.item({ name: 'Key', game: 440 });
    const cs = s.item({ name: 'Case', game: 730 });
    const card = s.item({ name: 'Card', game: 753 });
    const sale = (item: { id: number }, price: number, ago: number) =>
      s.sale({
        item_id: item.id,
        price,
        timestamp: s.now - ago,
        seller: '76561198000000001',
        buyer: '76561198000000002',
      });
    const sales = [
      sale(tf2, 200, 300),
      sale(cs, 500, 100),
      sale(tf2, 210, 200),
      sale(card, 9, 50),
      sale(tf2, 220, 100),
    ];
    s.sale({ item_id: tf2.id, price: 1, timestamp: s.now + 5 }); // not yet happened
    return { s, sales };
  }

  it.each([
    ['newest first, same second by ID, game 753 left out', {}, [220, 500, 210, 200]],
    ['one game', { game: 730 }, [500]],
    ['a limit', { limit: 2 }, [220, 500]],
    ['only after `since` (the third sale, 200 s ago)', { afterThird: true }, [220, 500]],
  ] as [string, { game?: number; limit?: number; afterThird?: boolean }, number[]][])('%s', (_name, given, prices) => {
    const { s, sales } = feed();
    const { afterThird, ...query } = given;
    const out = publicSales(s.tx, {
      limit: 100,
      now: s.now,
      ...query,
      since: afterThird ? sales[2]!.timestamp : undefined,
    });
    expect(out.sales.map((x) => x.price)).toEqual(prices);
    expect(out.count).toBe(prices.length);
    expect(out.lastUpdate).toBe(s.now);
  });

  it('names the item and anonymizes both parties', () => {
    const { s } = feed();
    const [first] = publicSales(s.tx, { limit: 1, now: s.now }).sales;
    expect(first).toEqual({
      itemId: 1,
      itemName: 'Key',
      game: 440,
      price: 220,
      timestamp: s.now - 100,
      seller: anonymize('76561198000000001'),
      buyer: anonymize('76561198000000002'),
    });
  });
});
