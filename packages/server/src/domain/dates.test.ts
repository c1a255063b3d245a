import { describe, expect, it } from 'vitest';
import { dayStart, formatDate, formatDateTime, isoWeek, weekStart } from './dates.ts';

const at = (iso: string) => Date.parse(`${iso}Z`) / 1000;

describe('formatDateTime', () => {
  it.each([
    ['epoch', 0, '1970-01-01 00:00:00'],
    ['pads every part', at('2024-03-05T07:08:09'), '2024-03-05 07:08:09'],
    ['last second of a year', at('2025-12-31T23:59:59'), '2025-12-31 23:59:59'],
  ])('%s', (_name, unix, want) => {
    expect(formatDateTime(unix)).toBe(want);
    expect(formatDate(unix)).toBe(want.slice(0, 10));
  });
});

describe('dayStart and weekStart', () => {
  it.each([
    ['a Wednesday afternoon', '2024-05-15T15:30:00', '2024-05-15', '2024-05-13'],
    ['a Monday at midnight is its own week start', '2024-05-13T00:00:00', '2024-05-13', '2024-05-13'],
    ['a Sunday belongs to the week of the Monday before', '2024-05-19T23:59:59', '2024-05-19', '2024-05-13'],
    ['across a year boundary', '2025-01-01T12:00:00', '2025-01-01', '2024-12-30'],
  ])('%s', (_name, iso, day, monday) => {
    expect(formatDate(dayStart(at(iso)))).toBe(day);
    expect(formatDateTime(weekStart(at(iso)))).toBe(`${monday} 00:00:00`);
  });
});

describe('isoWeek', () => {
  it.each([
    ['first Thursday of 2024 is in week 1 (Jan 1 is a Monday)', '2024-01-01', 2024, 1],
    ['Dec 30 2024 starts week 1 of 2025', '2024-12-30', 2025, 1],
    ['Jan 1 2021 (a Friday) is week 53 of 2020', '2021-01-01', 2020, 53],
    ['Jan 3 2021 (a Sunday) is still week 53 of 2020', '2021-01-03', 2020, 53],
    ['Jan 4 2021 starts week 1', '2021-01-04', 2021, 1],
    ['Dec 28 is always in the last week', '2026-12-28', 2026, 53],
    ['mid-year', '2024-07-15', 2024, 29],
  ])('%s', (_name, day, year, week) => {
    expect(isoWeek(at(`${day}T12:00:00`))).toEqual({ year, week });
  });
});
