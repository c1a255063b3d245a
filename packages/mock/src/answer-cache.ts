// Prism's answers, kept for reuse (ADR 0020). Prism picks an example answer from what a request
// asks for (the operation, `Prefer` code and example name, `Accept`); its CORS headers are off (the
// front writes them, issue 34); the path, query and body only feed its validation, which the
// front has already done with the server's rules before a request gets here. So two requests that
// agree on those inputs get the same answer, and all but the first are served from here, sparing
// the hop to Prism and its own routing, validation and negotiation: Prism is still the engine that
// makes every answer. Not cached: dynamic answers (`--dynamic`, `Prefer: dynamic=true`), which vary
// per request by design; Prism's own problem answers, which the front rewrites; answers with
// `sl-violations`, which are logged each time they are seen. The document does not change while
// the mock runs, so nothing invalidates an entry: the bound only keeps the memory small.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { LRUCache } from 'lru-cache';
import { parsePrefer } from './examples.ts';

export interface CachedAnswer {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

export interface AnswerCacheOptions {
  /** Distinct answers kept (least recently used dropped first). */
  maxEntries?: number;
  /** Bytes of bodies kept at most. */
  maxBytes?: number;
}

// The request headers Prism's answer depends on besides the operation: the example it picks and
// its content type.
const VARYING = ['prefer', 'accept'];

// Headers of one answer that are not the answer's: the date is written fresh by each response.
const NOT_KEPT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** A bounded cache of Prism's deterministic answers, keyed by what they depend on. */
export class AnswerCache {
  readonly #entries: LRUCache<string, CachedAnswer>;

  constructor({ maxEntries = 1_000, maxBytes = 32 * 1024 * 1024 }: AnswerCacheOptions = {}) {
    this.#entries = new LRUCache({ max: maxEntries, maxSize: maxBytes, sizeCalculation: (a) => a.body.length + 1 });
  }

  /**
   * The key of a request to `method path` (the operation's template) with these headers, or
   * undefined when its answer may vary from one request to the next.
   */
  keyOf(method: string, path: string, headers: IncomingHttpHeaders): string | undefined {
    const dynamic = parsePrefer([headers.prefer ?? []].flat().join(', ')).dynamic;
    if (dynamic !== undefined && dynamic !== 'false') return undefined;
    return [method, path, ...VARYING.map((name) => String(headers[name] ?? ''))].join('\n');
  }

  get(key: string): CachedAnswer | undefined {
    return this.#entries.get(key);
  }

  /** Keeps Prism's answer when it is one to reuse (see the file's comment). */
  keep(key: string, status: number, headers: IncomingHttpHeaders, body: Buffer): void {
    if (headers['sl-violations'] || String(headers['content-type'] ?? '').includes('problem+json')) return;
    const kept: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(headers))
      if (!NOT_KEPT.has(name) && value !== undefined) kept[name] = value;
    kept['content-length'] = String(body.length);
    this.#entries.set(key, { status, headers: kept, body });
  }

  get size(): number {
    return this.#entries.size;
  }
}
