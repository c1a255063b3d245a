// Many isolated sandboxes on one reference server (issue 25, test-helpers document "Sandboxes"):
// `POST /sandboxes` composes a whole server of its own (memory store, test mode: its own state,
// test clock, rate-limit windows, caches, outbox and simulators) and every request under
// `/sandboxes/{id}` goes to it with that prefix taken off, so every route and test helper works
// there unchanged and sees only that world. Sandboxes live in this process's memory only: on
// several PostgreSQL instances a sandbox is served by the instance that created it (ADR 25).
import { randomBytes } from 'node:crypto';
import { getHeapStatistics } from 'node:v8';
import { sendError, sendOk } from '@marketplace/contract';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { SandboxLimits } from './config.ts';
import { NOT_FOUND } from './domain/messages.ts';
import type { SandboxUser } from './sandbox.ts';

/** The refusal when `max` sandboxes exist (HTTP 503 with Retry-After). */
export const sandboxesFull = (max: number) => `Sandboxes are full: at most ${max} at once`;
/** The refusal when the process's heap is over the sandboxes' memory budget (HTTP 503 with Retry-After). */
export const SANDBOX_MEMORY_FULL = 'Sandboxes are full: the server is out of sandbox memory';
/** Users a new sandbox may be given (the population answer lists the first 100 keys). */
export const SANDBOX_USERS_MAX = 100;

/** A sandbox's server: what the composition root builds for it. */
export interface SandboxServer {
  handle: (req: Request, res: Response, next: NextFunction) => void;
  /** Creates the population users of the new world (`POST /test_helpers/population` in-process). */
  populate(users: number, balance: number): Promise<SandboxUser[]>;
  close(): Promise<void>;
}

interface Held {
  server: SandboxServer;
  lastUsed: number;
}

/** The sandboxes of this process, bounded in number and memory, removed when idle. */
export class Sandboxes {
  readonly #held = new Map<string, Held>();
  readonly #limits: SandboxLimits;
  readonly #compose: () => Promise<SandboxServer>;
  readonly #now: () => number;
  #sweeper: NodeJS.Timeout | undefined;

  constructor(limits: SandboxLimits, compose: () => Promise<SandboxServer>, now: () => number = Date.now) {
    this.#limits = limits;
    this.#compose = compose;
    this.#now = now;
  }

  get size(): number {
    return this.#held.size;
  }

  /** Why no more sandbox fits, or undefined when one does. */
  refusal(): string | undefined {
    if (this.#held.size >= this.#limits.max) return sandboxesFull(this.#limits.max);
    if (this.overMemory()) return SANDBOX_MEMORY_FULL;
    return undefined;
  }

  /** Whether the heap is over the budget (default: 70% of the heap limit). */
  overMemory(): boolean {
    const budget = this.#limits.memoryMb
      ? this.#limits.memoryMb * 1024 * 1024
      : getHeapStatistics().heap_size_limit * 0.7;
    return process.memoryUsage().heapUsed >= budget;
  }

  async create(users: number, balance: number): Promise<{ id: string; users: SandboxUser[] }> {
    const server = await this.#compose();
    const id = randomBytes(8).toString('hex');
    this.#held.set(id, { server, lastUsed: this.#now() });
    this.#sweep();
    return { id, users: users > 0 ? await server.populate(users, balance) : [] };
  }

  /** The sandbox's server, marked as used now; undefined when there is none (or no more). */
  use(id: string): SandboxServer | undefined {
    const held = this.#held.get(id);
    if (!held) return undefined;
    held.lastUsed = this.#now();
    return held.server;
  }

  async remove(id: string): Promise<boolean> {
    const held = this.#held.get(id);
    if (!held) return false;
    this.#held.delete(id);
    await held.server.close();
    if (this.#held.size === 0) this.#stopSweeping();
    return true;
  }

  /** Removes every sandbox idle for the configured time. */
  async removeIdle(): Promise<void> {
    const oldest = this.#now() - this.#limits.idleSeconds * 1000;
    for (const [id, held] of this.#held) if (held.lastUsed <= oldest) await this.remove(id);
  }

  async close(): Promise<void> {
    this.#stopSweeping();
    for (const id of [...this.#held.keys()]) await this.remove(id);
  }

  /** Checks for idle sandboxes while there are any, a few times per idle time (at most every minute). */
  #sweep(): void {
    if (this.#sweeper) return;
    const every = Math.min(60_000, Math.max(250, (this.#limits.idleSeconds * 1000) / 4));
    this.#sweeper = setInterval(() => void this.removeIdle(), every);
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
 * and answers as the test helpers' (envelope A, HTTP 300 with a message for a bad request).
 */
export function sandboxesRouter(sandboxes: Sandboxes, idleSeconds: number): express.Router {
  const router = express.Router();
  const retryAfter = String(Math.min(idleSeconds, 60));
  router.post('/sandboxes', express.json({ limit: '16kb' }), async (req, res) => {
    const body = (req.body ?? {}) as { users?: unknown; balance?: unknown };
    const users = body.users ?? 2;
    const balance = body.balance ?? 1_000_000;
    if (!isInt(users) || users < 0 || users > SANDBOX_USERS_MAX)
      return sendError(res, 'A', `Invalid users parameter: an integer from 0 to ${SANDBOX_USERS_MAX}`, 300);
    if (!isInt(balance) || balance < 0 || balance > 10_000_000_000)
      return sendError(res, 'A', 'Invalid balance parameter: an integer from 0 to 10000000000', 300);
    await sandboxes.removeIdle();
    const full = sandboxes.refusal();
    if (full) {
      res.set('Retry-After', retryAfter);
      return sendError(res, 'A', full, 503);
    }
    const { id, users: created } = await sandboxes.create(users, balance);
    const path = `/sandboxes/${id}`;
    sendOk(res, 'A', { id, path, url: `${req.protocol}://${req.get('host')}${path}`, users: created, idleSeconds });
  });
  router.delete('/sandboxes/:id', async (req, res) => {
    if (!(await sandboxes.remove(req.params.id))) return sendError(res, 'A', NOT_FOUND, 404);
    sendOk(res, 'A', { ok: true });
  });
  // Every other request under a sandbox's base URL is that sandbox's (Express takes the prefix off).
  router.use('/sandboxes/:id', (req, res, next) => {
    const server = sandboxes.use(req.params.id as string);
    if (!server) return sendError(res, 'A', NOT_FOUND, 404);
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
