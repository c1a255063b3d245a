// Many isolated sandboxes on one reference server (issue 25, test-helpers document "Sandboxes"):
// `POST /sandboxes` composes a whole server of its own (test mode: its own state, test clock,
// rate-limit windows, caches, outbox and simulators) and every request under
// `/sandboxes/{id}` goes to it with that prefix taken off, so every route and test helper works
// there unchanged and sees only that world. On a memory or file store, sandboxes live in this
// process's memory only; on PostgreSQL each has its world in a schema of its own and a row in the
// registry, so every instance serves it and it survives restarts (ADR 25).
import { randomBytes } from 'node:crypto';
import { getHeapStatistics } from 'node:v8';
import { sendError, sendOk } from '@marketplace/contract';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { SandboxLimits } from './config.ts';
import type { DemoAccount } from './demo-data.ts';
import { NOT_FOUND } from './domain/messages.ts';
import type { SandboxUser } from './sandbox.ts';

/** The refusal when `max` sandboxes exist (HTTP 503 with Retry-After). */
export const sandboxesFull = (max: number) => `Sandboxes are full: at most ${max} at once`;
/** The refusal when the process's heap is over the sandboxes' memory budget (HTTP 503 with Retry-After). */
export const SANDBOX_MEMORY_FULL = 'Sandboxes are full: the server is out of sandbox memory';
/** The refusal of a `demo` that is not a boolean (HTTP 300). */
export const INVALID_DEMO = 'Invalid demo parameter: true or false';
/** Users a new sandbox may be given (the population answer lists the first 100 keys). */
export const SANDBOX_USERS_MAX = 100;

/** A sandbox's server: what the composition root builds for it. */
export interface SandboxServer {
  handle: (req: Request, res: Response, next: NextFunction) => void;
  /** Creates the population users of the new world (`POST /test_helpers/population` in-process). */
  populate(users: number, balance: number): Promise<SandboxUser[]>;
  /** Seeds the demo world of `npm start` into the new world; its accounts, admins with new random keys. */
  seedDemo(): Promise<DemoAccount[]>;
  close(): Promise<void>;
}

interface Held {
  server: SandboxServer;
  lastUsed: number;
  /**
   * Requests (and the creation's set-up) in flight. The idle sweep never closes a sandbox while one
   * runs: on a loaded machine one request can outlast the idle time, and its sandbox must not go
   * from under it.
   */
  busy: number;
  /** When this instance last wrote `last_used` to the registry. */
  touched: number;
}

/**
 * Where the sandboxes of a service are registered beyond this process (PostgreSQL: every
 * instance's, store/postgres/sandbox-registry.ts). Without one, sandboxes live in this process only.
 */
export interface SandboxRegistry {
  /** Registers `id` unless `max` exist already (then false). */
  claim(id: string, max: number, users: number, balance: number): Promise<boolean>;
  exists(id: string): Promise<boolean>;
  /** Marks `id` as used; false when it is no longer registered. */
  touch(id: string): Promise<boolean>;
  /** Deletes `id` and its world; false when there was none. */
  drop(id: string): Promise<boolean>;
  /** Deletes the sandboxes not used for `idleSeconds`; their IDs. */
  removeIdle(idleSeconds: number): Promise<string[]>;
}

/**
 * Composes sandbox `id`'s server. With a registry, `gone` says whether the sandbox was deleted
 * (through another instance, its world dropped under this copy) and then closes this copy: its
 * server asks it when its store fails, to answer 404 as for an unknown sandbox instead of 500.
 */
export type Compose = (id: string, gone: (() => Promise<boolean>) | undefined) => Promise<SandboxServer>;

/** A sandbox created (`users` as its population answered, the demo accounts when asked for) or why none was. */
export type Creation = { id: string; users: SandboxUser[]; demoAccounts?: DemoAccount[] } | { refusal: string };

/**
 * The sandboxes this process holds, bounded in number and memory, closed when idle. With a
 * registry, the number is the service's, any instance opens a sandbox it is asked for, and an idle
 * one is deleted with its world by whichever instance sweeps first.
 */
export class Sandboxes {
  readonly #held = new Map<string, Held>();
  /** Sandboxes being opened from the registry: requests arriving meanwhile wait for the same opening. */
  readonly #opening = new Map<string, Promise<SandboxServer | undefined>>();
  readonly #limits: SandboxLimits;
  readonly #compose: Compose;
  readonly #registry: SandboxRegistry | undefined;
  readonly #now: () => number;
  /** Milliseconds between two writes of a held sandbox's `last_used` (often enough for the idle sweep). */
  readonly #touchEvery: number;
  #sweeper: NodeJS.Timeout | undefined;

  constructor(
    limits: SandboxLimits,
    compose: Compose,
    { registry, now = Date.now }: { registry?: SandboxRegistry; now?: () => number } = {},
  ) {
    this.#limits = limits;
    this.#compose = compose;
    this.#registry = registry;
    this.#now = now;
    this.#touchEvery = Math.min(60_000, (limits.idleSeconds * 1000) / 4);
  }

  /** Sandboxes held by this process. */
  get size(): number {
    return this.#held.size;
  }

  /** Whether the heap is over the budget (default: 70% of the heap limit). */
  overMemory(): boolean {
    const budget = this.#limits.memoryMb
      ? this.#limits.memoryMb * 1024 * 1024
      : getHeapStatistics().heap_size_limit * 0.7;
    return process.memoryUsage().heapUsed >= budget;
  }

  /** Creates a sandbox with `users` of `balance` cents (after the demo world with `demo`), unless a bound refuses it. */
  async create(users: number, balance: number, demo = false): Promise<Creation> {
    const { max } = this.#limits;
    if (!this.#registry && this.#held.size + this.#opening.size >= max) return { refusal: sandboxesFull(max) };
    if (this.overMemory()) return { refusal: SANDBOX_MEMORY_FULL };
    const id = randomBytes(8).toString('hex');
    if (this.#registry && !(await this.#registry.claim(id, max, users, balance)))
      return { refusal: sandboxesFull(max) };
    const opening = this.#composeOne(id);
    this.#opening.set(id, opening);
    let server: SandboxServer;
    try {
      server = await opening;
    } catch (error) {
      await this.#registry?.drop(id);
      throw error;
    } finally {
      this.#opening.delete(id);
    }
    this.#hold(id, server);
    const release = this.inUse(id);
    try {
      // The demo world first: its accounts keep the IDs `npm start` gives them, the population's come after.
      const demoAccounts = demo ? await server.seedDemo() : undefined;
      return { id, users: users > 0 ? await server.populate(users, balance) : [], demoAccounts };
    } finally {
      release();
    }
  }

  /**
   * The sandbox's server, marked as used now; undefined when there is none (or no more). With a
   * registry, a sandbox this process does not hold is opened when registered.
   */
  async use(id: string): Promise<SandboxServer | undefined> {
    const held = this.#held.get(id);
    if (held) {
      held.lastUsed = this.#now();
      if (this.#registry && held.lastUsed - held.touched >= this.#touchEvery) {
        held.touched = held.lastUsed;
        // Deleted through another instance (or idle there): this copy goes too, its world is gone.
        // A failed write is retried at the next use.
        if (!(await this.#registry.touch(id).catch(() => true))) {
          await this.#forget(id);
          return undefined;
        }
      }
      return held.server;
    }
    if (!this.#registry) return undefined;
    let opening = this.#opening.get(id);
    if (!opening) {
      opening = this.#open(id, this.#registry);
      this.#opening.set(id, opening);
      const done = () => this.#opening.delete(id);
      opening.then(done, done);
    }
    return opening;
  }

  #composeOne(id: string): Promise<SandboxServer> {
    const registry = this.#registry;
    return this.#compose(id, registry && (() => this.#gone(id, registry)));
  }

  /**
   * Whether sandbox `id` is no longer registered (deleted through another instance, or idle
   * there): then this process's copy is closed too. Asked only when its store failed, so a request
   * costs no registry query in the common case.
   */
  async #gone(id: string, registry: SandboxRegistry): Promise<boolean> {
    if (await registry.exists(id)) return false;
    await this.#forget(id);
    return true;
  }

  async #open(id: string, registry: SandboxRegistry): Promise<SandboxServer | undefined> {
    if (!(await registry.exists(id))) return undefined;
    let server: SandboxServer;
    try {
      server = await this.#composeOne(id);
    } catch (error) {
      if (!(await registry.exists(id))) return undefined; // deleted while it was being opened
      throw error;
    }
    await registry.touch(id);
    this.#hold(id, server);
    return server;
  }

  /** Deletes a sandbox (with a registry: for every instance, its world dropped). */
  async remove(id: string): Promise<boolean> {
    const held = this.#held.has(id);
    await this.#forget(id);
    return this.#registry ? this.#registry.drop(id) : held;
  }

  /**
   * Marks sandbox `id` busy until the returned release is called, which counts as its last use: a
   * request's idle time starts when its answer ends, not when it arrived.
   */
  inUse(id: string): () => void {
    const held = this.#held.get(id);
    if (!held) return () => {};
    held.busy += 1;
    return () => {
      held.busy -= 1;
      held.lastUsed = this.#now();
    };
  }

  /**
   * Closes every sandbox this process has not used for the idle time; with a registry, also
   * deletes every sandbox no instance has used for that long.
   */
  async removeIdle(): Promise<void> {
    const oldest = this.#now() - this.#limits.idleSeconds * 1000;
    for (const [id, held] of this.#held) if (held.busy === 0 && held.lastUsed <= oldest) await this.#forget(id);
    for (const id of (await this.#registry?.removeIdle(this.#limits.idleSeconds)) ?? []) await this.#forget(id);
  }

  /** Closes the sandboxes of this process (with a registry, they stay registered for the others). */
  async close(): Promise<void> {
    this.#stopSweeping();
    for (const id of [...this.#held.keys()]) await this.#forget(id);
  }

  #hold(id: string, server: SandboxServer): void {
    const now = this.#now();
    this.#held.set(id, { server, lastUsed: now, touched: now, busy: 0 });
    this.#sweep();
  }

  /** Closes this process's copy of a sandbox, if it holds one. */
  async #forget(id: string): Promise<void> {
    const held = this.#held.get(id);
    if (!held) return;
    this.#held.delete(id);
    await held.server.close();
    if (this.#held.size === 0) this.#stopSweeping();
  }

  /** Checks for idle sandboxes while there are any, a few times per idle time (at most every minute). */
  #sweep(): void {
    if (this.#sweeper) return;
    const every = Math.min(60_000, Math.max(250, (this.#limits.idleSeconds * 1000) / 4));
    let last = performance.now();
    this.#sweeper = setInterval(() => {
      // A tick later than two periods means the process stalled (a busy machine, a long GC): the
      // requests that arrived meanwhile are still unread (timers run before I/O), and judging
      // idleness now would close a sandbox they are about to use. The next tick judges it.
      const now = performance.now();
      const stalled = now - last > 2 * every;
      last = now;
      if (!stalled) void this.removeIdle().catch(() => {});
    }, every);
    this.#sweeper.unref(); // an idle sandbox never keeps the process alive
  }

  #stopSweeping(): void {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }
}

const isInt = (v: unknown): v is number => Number.isSafeInteger(v);

/**
 * `POST /sandboxes`, `DELETE /sandboxes/{id}` and every request under `/sandboxes/{id}`. Bodies
 * and answers as the test helpers' (envelope A, HTTP 300 with a message for a bad request). A new
 * sandbox holds the demo world when its request asks, by default when the server has demo data
 * (`MARKETPLACE_DEMO=1`, `--demo`): `demo`.
 */
export function sandboxesRouter(sandboxes: Sandboxes, idleSeconds: number, demo: boolean): express.Router {
  const router = express.Router();
  const retryAfter = String(Math.min(idleSeconds, 60));
  router.post('/sandboxes', express.json({ limit: '16kb' }), async (req, res) => {
    const body = (req.body ?? {}) as { users?: unknown; balance?: unknown; demo?: unknown };
    const withDemo = body.demo ?? demo;
    // The demo world has its own accounts: population users only when asked for.
    const users = body.users ?? (withDemo === true ? 0 : 2);
    const balance = body.balance ?? 1_000_000;
    if (typeof withDemo !== 'boolean') return sendError(res, 'A', INVALID_DEMO, 300);
    if (!isInt(users) || users < 0 || users > SANDBOX_USERS_MAX)
      return sendError(res, 'A', `Invalid users parameter: an integer from 0 to ${SANDBOX_USERS_MAX}`, 300);
    if (!isInt(balance) || balance < 0 || balance > 10_000_000_000)
      return sendError(res, 'A', 'Invalid balance parameter: an integer from 0 to 10000000000', 300);
    await sandboxes.removeIdle();
    const created = await sandboxes.create(users, balance, withDemo);
    if ('refusal' in created) {
      res.set('Retry-After', retryAfter);
      return sendError(res, 'A', created.refusal, 503);
    }
    const { id } = created;
    const path = `/sandboxes/${id}`;
    sendOk(res, 'A', {
      id,
      path,
      url: `${req.protocol}://${req.get('host')}${path}`,
      users: created.users,
      ...(created.demoAccounts && { demoAccounts: created.demoAccounts }),
      idleSeconds,
    });
  });
  router.delete('/sandboxes/:id', async (req, res) => {
    if (!(await sandboxes.remove(req.params.id))) return sendError(res, 'A', NOT_FOUND, 404);
    sendOk(res, 'A', { ok: true });
  });
  // Every other request under a sandbox's base URL is that sandbox's (Express takes the prefix off).
  router.use('/sandboxes/:id', async (req, res, next) => {
    const id = req.params.id as string;
    const server = await sandboxes.use(id);
    if (!server) return sendError(res, 'A', NOT_FOUND, 404);
    res.once('close', sandboxes.inUse(id));
    // A population grows a world by up to millions of records: refused while memory is short.
    if (req.method === 'POST' && req.path === '/test_helpers/population' && sandboxes.overMemory()) {
      res.set('Retry-After', retryAfter);
      return sendError(res, 'A', SANDBOX_MEMORY_FULL, 503);
    }
    // The sandbox's server sees the request as if it came to its own root: the document's
    // validator finds the operation by the original URL, not by the path Express has cut.
    req.originalUrl = req.url;
    req.baseUrl = '';
    server.handle(req, res, next);
  });
  return router;
}
