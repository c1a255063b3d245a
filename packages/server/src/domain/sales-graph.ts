// The sales graph of an item (seed: "Resources and their fields > Sales graph rows",
// GET /item/salesGraph/{item}): daily rows for 1M/3M/6M/1Y, weekly rows for 5Y/ALL, built from
// the recorded sales. Rows are in UTC, oldest first, and only days or weeks with a sale appear
// (both left open by the seed; ADR 0004).
import type { components } from '@marketplace/types';
import { DAY, dayStart, formatDate, formatDateTime, isoWeek, weekStart } from './dates.ts';
import type { Sale } from './state.ts';
import type { Tx } from './tx.ts';

type DailyRow = components['schemas']['SalesGraphDailyRow'];
type WeeklyRow = components['schemas']['SalesGraphWeeklyRow'];
export type Period = '1M' | '3M' | '6M' | '1Y' | '5Y' | 'ALL';

/** Days covered by each period, today included; ALL has no start. */
export const PERIOD_DAYS: Record<Period, number | null> = {
  '1M': 30,
  '3M': 90,
  '6M': 180,
  '1Y': 365,
  '5Y': 5 * 365 + 1, // five years hold at least one 29 February
  ALL: null,
};

/** Periods drawn week by week (seed: "Weekly (periods 5Y, ALL)"). */
export const isWeekly = (period: Period): boolean => period === '5Y' || period === 'ALL';

/** Sums sales into buckets keyed by the bucket's start (Unix), oldest bucket first. */
function bucket(sales: readonly Pick<Sale, 'price' | 'timestamp'>[], startOf: (unix: number) => number) {
  const sums = new Map<number, { price: number; nb: number }>();
  for (const s of sales) {
    const key = startOf(s.timestamp);
    const sum = sums.get(key) ?? sums.set(key, { price: 0, nb: 0 }).get(key)!;
    sum.price += s.price;
    sum.nb += 1;
  }
  return [...sums].sort(([a], [b]) => a - b);
}

/** Daily rows: `date` is the day at midnight, `YYYY-MM-DD 00:00:00`. */
export const dailyRows = (sales: readonly Pick<Sale, 'price' | 'timestamp'>[]): DailyRow[] =>
  bucket(sales, dayStart).map(([day, { price, nb }]) => ({ date: formatDateTime(day), price, nb }));

/** Weekly rows: `first_date` is the ISO week's Monday (`YYYY-MM-DD`), `week` its ISO `YYYYWW`. */
export const weeklyRows = (sales: readonly Pick<Sale, 'price' | 'timestamp'>[]): WeeklyRow[] =>
  bucket(sales, weekStart).map(([monday, { price, nb }]) => {
    const { year, week } = isoWeek(monday);
    return {
      first_date: formatDate(monday),
      week: `${year}${String(week).padStart(2, '0')}`,
      total_price: price,
      total_nb: nb,
    };
  });

/**
 * The first second a period covers at `now`: the start of the day `days - 1` days ago, moved back
 * to that week's Monday for weekly periods so the first week is whole.
 */
export function periodStart(period: Period, now: number): number {
  const days = PERIOD_DAYS[period];
  if (days === null) return Number.NEGATIVE_INFINITY;
  const first = dayStart(now) - (days - 1) * DAY;
  return isWeekly(period) ? weekStart(first) : first;
}

/** The sales graph of an item over a period (an unknown item has no sales, so no rows). */
export function salesGraph(tx: Tx, itemId: number, period: Period, now: number): DailyRow[] | WeeklyRow[] {
  const start = periodStart(period, now);
  // The item's sales latest first, from `now` back to the period's start.
  const sales = [];
  for (const s of tx.ordered('salesByItem', String(itemId), { timestamp: now, id: Number.MAX_SAFE_INTEGER })) {
    if (s.timestamp < start) break;
    sales.push(s);
  }
  return isWeekly(period) ? weeklyRows(sales) : dailyRows(sales);
}
