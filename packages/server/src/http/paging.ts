// Page sizes the seed accepts under several names (`count`, `perPage`, `perpage`, `limit`). The
// validator fills every absent parameter with its documented default, so `ctx.query` has all of
// them and cannot tell which one the client chose: the client's own query string decides.
import type { BaseCtx } from './context.ts';

/**
 * The page size under the first of `names` the client sent (validated value), else `fallback`.
 * `names` are the operation's own query parameters: only those its query type has.
 */
export function pageSize<Query extends object>(
  ctx: Pick<BaseCtx, 'req'> & { query: Query },
  names: (keyof Query & string)[],
  fallback = 10,
): number {
  const sent = new URLSearchParams(ctx.req.originalUrl.split('?')[1] ?? '');
  const name = names.find((n) => sent.has(n));
  return name === undefined ? fallback : Number(ctx.query[name]);
}
