// What the service sends to the outside world in test mode (and logs otherwise): e-mails,
// moderation-channel notices and affiliate clicks. GET /test_helpers/outbox reads it. Messages are
// documents of the shared world (kind `mail`), so every instance on one database lists the same
// ones; a message's id is its order there: unique and increasing service-wide.
import { randomBytes } from 'node:crypto';
import { deleteKinds, MemoryWorld, type SharedWorld } from '../world.ts';

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

/** Messages kept; the oldest go first past it. */
const KEPT = 10_000;
const KIND = 'mail';

export class Outbox {
  readonly #world: SharedWorld;
  // Keys only have to be unique: this instance's prefix and a counter (the id is the world's order).
  readonly #prefix = randomBytes(6).toString('hex');
  #next = 0;

  constructor(world: SharedWorld = new MemoryWorld()) {
    this.#world = world;
  }

  add(message: Omit<OutboxMessage, 'id'>): OutboxMessage {
    const id = this.#world.put(KIND, `${this.#prefix}:${++this.#next}`, message);
    if (this.#world.size(KIND) > KEPT) this.#world.delete(KIND, this.#world.list(KIND)[0]!.key);
    return { id, ...message };
  }

  /** Messages of a channel (optionally to one recipient), oldest first. */
  list(filter: { channel?: Channel; to?: string } = {}): OutboxMessage[] {
    return this.#world
      .list<Omit<OutboxMessage, 'id'>>(KIND)
      .filter(({ doc: m }) => (!filter.channel || m.channel === filter.channel) && (!filter.to || m.to === filter.to))
      .map(({ doc, order }) => ({ id: order, ...doc }));
  }

  clear(): void {
    deleteKinds(this.#world, KIND);
  }
}
