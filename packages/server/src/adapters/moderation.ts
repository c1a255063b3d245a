// The internal moderation chat channel (seed: Events): POST /admin/ban and POST /admin/support/post
// each send it a notice. The simulator records notices in the outbox (channel `moderation`).
import type { Outbox } from './outbox.ts';

export interface Moderation {
  notify(kind: string, text: string, data: Record<string, unknown>, now: number): void;
}

export function outboxModeration(outbox: Outbox): Moderation {
  return {
    notify: (kind, text, data, now) => {
      outbox.add({ channel: 'moderation', to: 'moderation', kind, subject: kind, body: text, data, timestamp: now });
    },
  };
}
