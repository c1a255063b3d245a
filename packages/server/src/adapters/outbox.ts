// What the service sends to the outside world in test mode (and logs otherwise): e-mails,
// moderation-channel notices and affiliate clicks. GET /test_helpers/outbox reads it.

export type Channel = 'email' | 'moderation' | 'affiliate';

export interface OutboxMessage {
  id: number;
  channel: Channel;
  to: string;
  kind: string;
  subject: string;
  body: string;
  data: Record<string, unknown>;
  timestamp: number;
}

export class Outbox {
  #messages: OutboxMessage[] = [];
  #next = 1;

  add(message: Omit<OutboxMessage, 'id'>): OutboxMessage {
    const stored = { id: this.#next++, ...message };
    this.#messages.push(stored);
    if (this.#messages.length > 10_000) this.#messages.shift();
    return stored;
  }

  /** Messages of a channel (optionally to one recipient), oldest first. */
  list(filter: { channel?: Channel; to?: string } = {}): OutboxMessage[] {
    return this.#messages.filter(
      (m) => (!filter.channel || m.channel === filter.channel) && (!filter.to || m.to === filter.to),
    );
  }

  clear(): void {
    this.#messages = [];
  }
}
