// Page sizes the seed accepts under several names (`count`, `perPage`, `perpage`, `limit`). The
// validator fills every absent parameter with its documented default, so `ctx.query` has all of
// them and cannot tell which one the client chose: the client's own query string decides.
import type { Ctx } from './context.ts';

/** The page size under the first of `names` the client sent (validated value), else `fallback`. */
export function pageSize(ctx: Pick<Ctx, 'req' | 'query'>, names: string[], fallback = 10): number {
  const sent = new URLSearchParams(ctx.req.originalUrl.split('?')[1] ?? '');
  const name = names.find((n) => sent.has(n));
  return name === undefined ? fallback : Number(ctx.query[name]);
}
