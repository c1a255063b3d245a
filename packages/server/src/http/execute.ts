// Runs one engine command: a unit of work over the state, committed and journaled (durable) when
// it succeeds (or when it asked to keep its writes on failure), then its outside effects. Route
// handlers (`ctx.run`) and the test helpers both go through here, so an effect never runs for a
// change that was not made durable first.
import type { Effect } from '../domain/effects.ts';
import { type Failure, type Result, Tx } from '../domain/tx.ts';
import { StoreConflict } from '../store/group-commit.ts';
import type { ServerDeps } from './deps.ts';

/**
 * How often a command runs again after another instance committed first (ADR 0019). Each retry
 * follows a commit that succeeded elsewhere, so the service as a whole always progresses; the bound
 * only keeps one request from waiting forever behind a storm of writes.
 */
export const MAX_CONFLICT_RETRIES = 50;

/** Runs `command` durably; its result comes back with its own failures' types (its messages). */
export async function execute<T, E extends Failure>(
  deps: ServerDeps,
  command: (tx: Tx) => Result<T, E>,
): Promise<Result<T, E>> {
  for (let attempt = 0; ; attempt++) {
    const tx = new Tx(deps.store.state);
    const result = command(tx);
    try {
      if (result.ok || tx.keepsWritesOnFailure) await deps.store.commit(tx);
    } catch (error) {
      if (!(error instanceof StoreConflict) || attempt >= MAX_CONFLICT_RETRIES) throw error;
      await deps.store.sync(); // the newer state, then the same command on it
      continue;
    }
    if (result.ok) await perform(deps, tx.effects);
    return result;
  }
}

/**
 * Performs effects in order. A failing adapter (an SMTP server down) is logged, not answered:
 * the change is already durable and the client must learn that it happened.
 */
export async function perform(deps: ServerDeps, effects: readonly Effect[]): Promise<void> {
  const now = deps.clock.now();
  for (const effect of effects) {
    try {
      switch (effect.kind) {
        case 'mail':
          await deps.mail.send(effect.mail, now);
          break;
        case 'moderation':
          deps.moderation.notify(effect.notice, effect.text, effect.data, now);
          break;
        case 'affiliate':
          deps.affiliates.click(effect.code, effect.user, effect.ip, now);
          break;
        case 'offer':
          deps.platform.sendOffer({
            tradeId: effect.tradeId,
            kind: effect.offer,
            platformId: effect.platformId,
            assetIds: effect.assetIds,
          });
          break;
        case 'payout':
          deps.payments.submit(effect.cashoutId, effect.provider, effect.amount, effect.email);
          break;
      }
    } catch (error) {
      deps.logger.error({ err: error, effect: effect.kind }, 'an outside effect failed after its change was stored');
    }
  }
  // Offers, payments and outbox messages are shared with other instances before the client hears
  // of them. A database that refuses them now is logged, as a failing adapter is: they stay queued.
  if (effects.length > 0)
    await deps.world
      .flush()
      .catch((error) => deps.logger.error({ err: error }, 'the shared world could not be written'));
}
