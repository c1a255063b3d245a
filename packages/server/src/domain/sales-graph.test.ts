import { describe, expect, it } from 'vitest';
import { DAY } from './dates.ts';
import { dailyRows, type Period, periodStart, salesGraph, weeklyRows } from './sales-graph.ts';
import { testState } from './test-state.fixture.ts';

const at = (iso: string) => Date.parse(`${iso}Z`) / 1000;
const sale = (iso: string, price: number) => ({ timestamp: at(iso), price });

describe('dailyRows', () => {
  it('sums each UTC day, oldest first, days without sales left out', () => {
    const rows = dailyRows([
      sale('2024-05-15T23:59:59', 300),
      sale('2024-05-13T10:00:00', 100),
      sale('2024-05-15T00:00:00', 200),
      sale('2024-05-16T00:00:00', 50),
    ]);
    expect(rows).toEqual([
      { date: '2024-05-13 00:00:00', price: 100, nb: 1 },
      { date: '2024-05-15 00:00:00', price: 500, nb: 2 },
      { date: '2024-05-16 00:00:00', price: 50, nb: 1 },
    ]);
  });
});

describe('weeklyRows', () => {
  it.each([
    [
      'Monday to Sunday is one week',
      [sale('2024-05-13T00:00:00', 10), sale('2024-05-19T23:59:59', 20)],
      [{ first_date: '2024-05-13', week: '202420', total_price: 30, total_nb: 2 }],
    ],
    [
      'Sunday and the next Monday are two weeks',
      [sale('2024-05-19T12:00:00', 10), sale('2024-05-20T12:00:00', 20)],
      [
        { first_date: '2024-05-13', week: '202420', total_price: 10, total_nb: 1 },
        { first_date: '2024-05-20', week: '202421', total_price: 20, total_nb: 1 },
      ],
    ],
    [
      'early January in the previous ISO year',
      [sale('2021-01-02T12:00:00', 5)],
      [{ first_date: '2020-12-28', week: '202053', total_price: 5, total_nb: 1 }],
    ],
    [
      'late December in the next ISO year',
      [sale('2024-12-31T12:00:00', 5)],
      [{ first_date: '2024-12-30', week: '202501', total_price: 5, total_nb: 1 }],
    ],
    [
      'single-digit weeks are zero-padded',
      [sale('2024-01-10T12:00:00', 5)],
      [{ first_date: '2024-01-08', week: '202402', total_price: 5, total_nb: 1 }],
    ],
  ])('%s', (_name, given, want) => {
    expect(weeklyRows(given)).toEqual(want);
  });
});

describe('periodStart', () => {
  const now = at('2024-05-15T15:00:00'); // a Wednesday
  it.each([
    ['1M: the 30 days ending today', '1M', '2024-04-16T00:00:00'],
    ['1Y: the 365 days ending today', '1Y', '2023-05-17T00:00:00'],
    ['5Y: back to the Monday of the first week', '5Y', '2019-05-13T00:00:00'],
  ] as [string, Period, string][])('%s', (_name, period, want) => {
    expect(periodStart(period, now)).toBe(at(want));
  });

  it('ALL has no start', () => {
    expect(periodStart('ALL', now)).toBe(Number.NEGATIVE_INFINITY);
  });
});

describe('salesGraph', () => {
  it('keeps the sales of the item inside the period and picks daily or weekly rows', () => {
    const s = testState(at('2024-05-15T15:00:00'));
    const item = s.item();
    s.sale({ item_id: item.id, price: 100, timestamp: at('2024-05-15T09:00:00') });
    s.sale({ item_id: item.id, price: 40, timestamp: at('2024-04-16T00:00:00') }); // first second of 1M
    s.sale({ item_id: item.id, price: 999, timestamp: at('2024-04-15T23:59:59') }); // just before it
    s.sale({ item_id: item.id, price: 7, timestamp: s.now + DAY }); // after now
    s.sale({ item_id: s.item().id, price: 5, timestamp: at('2024-05-15T09:00:00') }); // another item
    expect(salesGraph(s.tx, item.id, '1M', s.now)).toEqual([
      { date: '2024-04-16 00:00:00', price: 40, nb: 1 },
      { date: '2024-05-15 00:00:00', price: 100, nb: 1 },
    ]);
    expect(salesGraph(s.tx, item.id, 'ALL', s.now)).toEqual([
      { first_date: '2024-04-15', week: '202416', total_price: 1039, total_nb: 2 },
      { first_date: '2024-05-13', week: '202420', total_price: 100, total_nb: 1 },
    ]);
    expect(salesGraph(s.tx, 999, '1Y', s.now)).toEqual([]);
  });
});
