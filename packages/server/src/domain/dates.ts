// UTC calendar arithmetic for the market data (seed: "Pricing" `last_updated`, "Sales graph rows").
// Every date the API prints is UTC, so an answer never depends on the server's time zone.

/** Seconds in a day. */
export const DAY = 86_400;

const pad = (n: number) => String(n).padStart(2, '0');

/** `Y-m-d H:i:s` (PHP's notation, as the seed writes it) of a Unix time, in UTC. */
export function formatDateTime(unix: number): string {
  const d = new Date(unix * 1000);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return `${date} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** `YYYY-MM-DD` of a Unix time, in UTC. */
export const formatDate = (unix: number): string => formatDateTime(unix).slice(0, 10);

/** The UTC midnight that starts the day of `unix`. */
export const dayStart = (unix: number): number => Math.floor(unix / DAY) * DAY;

/** The Monday 00:00 UTC that starts the ISO week of `unix`. */
export function weekStart(unix: number): number {
  const day = dayStart(unix);
  const sinceMonday = (new Date(day * 1000).getUTCDay() + 6) % 7;
  return day - sinceMonday * DAY;
}

/**
 * The ISO 8601 week of `unix`: weeks start on Monday and week 1 is the week holding the year's
 * first Thursday, so the first days of January can belong to the previous year's last week.
 */
export function isoWeek(unix: number): { year: number; week: number } {
  const thursday = weekStart(unix) + 3 * DAY;
  const year = new Date(thursday * 1000).getUTCFullYear();
  const january1 = Date.UTC(year, 0, 1) / 1000;
  return { year, week: Math.floor((thursday - january1) / (7 * DAY)) + 1 };
}
