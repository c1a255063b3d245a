// What a command asks the outside world to do once its changes are durable: send an e-mail, post
// a notice to the moderation channel, register an affiliate click, send or settle a trade offer.
// The engine stays pure: a command records effects on its unit of work (`tx.emit`), and the HTTP
// layer performs them after the journal write (`http/effects.ts`). A command that fails emits
// nothing, so no e-mail announces a change that did not happen.
import type { Mail } from '../adapters/mail.ts';
import type { OfferKind } from '../adapters/platform.ts';
import type { PayoutMethod } from './money.ts';

export type Effect =
  | { kind: 'mail'; mail: Mail }
  | { kind: 'moderation'; notice: string; text: string; data: Record<string, unknown> }
  | { kind: 'affiliate'; code: string; user: string | undefined; ip: string }
  /** A trade offer from a bot; `tradeId` is chosen by the engine so the trade record can name it. */
  | { kind: 'offer'; tradeId: string; offer: OfferKind; platformId: string; assetIds: string[] }
  /** A cashout handed to its payment provider. */
  | { kind: 'payout'; cashoutId: number; provider: PayoutMethod; amount: number; email: string };
