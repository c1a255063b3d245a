// The code a failed write or query carries, read through a guard rather than a cast: Node's on a
// system error (`ENOSPC`, `ECONNREFUSED`), PostgreSQL's SQLSTATE on pg's `DatabaseError` (`23505`,
// `42P01`; store/postgres/connection.ts tells those apart). Refusals and errors name it.

/** Whether `error` is an Error with a string `code`. */
export function hasCode(error: unknown): error is Error & { code: string } {
  return error instanceof Error && 'code' in error && typeof error.code === 'string';
}

/** The error's code, else `fallback(error)`: what a refusal or a store error names. */
export function codeOr(error: unknown, fallback: (error: unknown) => string): string {
  return hasCode(error) ? error.code : fallback(error);
}
