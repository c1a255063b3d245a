// Work the clock makes due: giveaways past their end are drawn and their pools handed over. There
// are no background jobs (ADR 0007), so every API request first does what came due, as a unit of
// work of its own (a request that is then refused does not undo it). Any route that shows assets
// (inventories, listings, item details) therefore already sees a due giveaway ended.
import { anyDue, endDue } from '../domain/giveaways.ts';
import { ok } from '../domain/tx.ts';
import type { BaseCtx } from './context.ts';

/** Does the work that came due; a promise only when there was some (nothing to wait for otherwise). */
export function doDueWork(ctx: Pick<BaseCtx, 'read' | 'run' | 'now'>): Promise<void> | undefined {
  if (!ctx.read((tx) => anyDue(tx, ctx.now))) return undefined;
  return ctx.run((tx) => ok(endDue(tx, ctx.now))).then(() => undefined);
}
