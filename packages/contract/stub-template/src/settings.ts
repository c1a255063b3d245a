// The project's settings, read once from the environment. The server and `npm run conformance` both
// read them here, so the suite tests what the server does (`--blocked-country`).

const blocked = process.env.MARKETPLACE_BLOCKED_COUNTRIES ?? 'KP';

/**
 * The countries whose clients the login refuses with `Country blocked` (403): two-letter codes,
 * comma-separated in MARKETPLACE_BLOCKED_COUNTRIES; `KP` when unset, an empty value blocks none.
 */
export const BLOCKED_COUNTRIES: readonly string[] = blocked
  .split(',')
  .map((code) => code.trim().toUpperCase())
  .filter(Boolean);

// A typo here would silently block nobody: stop at start instead.
if (BLOCKED_COUNTRIES.some((code) => !/^[A-Z]{2}$/.test(code)))
  throw new Error(
    `MARKETPLACE_BLOCKED_COUNTRIES: "${blocked}" is not a comma-separated list of two-letter country codes (KP,IR)`,
  );
