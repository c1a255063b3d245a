// The explorer's HTTP client: every exchange of a run is kept in order (what it did, to print the
// shrunk sequence as curl lines and write it as a workflow), and every answer of a public route is
// checked with the suite's own contract check (contract.ts) before anything reads it.

import { curlLine } from '../kit/http.ts';
import { checkResponse, errorMessage } from '../oracle/contract.ts';
import { findHelper, findOperation } from '../oracle/document.ts';

/** Why the exchange was sent: preparing the run, a step of the sequence, or reading the state. */
export type Phase = 'setup' | 'step' | 'observe';

/** One request of an exploration and its answer, kept in the run's log in order. */
export interface ExplorerCall {
  phase: Phase;
  /** The step of the run it belongs to (0: the set-up). */
  step: number;
  method: 'GET' | 'POST';
  /** Path with its query string, as sent. */
  path: string;
  /** The document operation (`POST /inventory/price`), or the test helper path. */
  operation: string;
  token?: string;
  ip?: string;
  json?: unknown;
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field and checked by the contract first
  body: any;
  message: unknown;
  curl: string;
}

/** A check of the run failed: which invariant or promise, and the exchanges that show it. */
export class Violation extends Error {
  /** A short stable name (`money is conserved`): shrinking keeps only failures of the same kind. */
  readonly kind: string;
  readonly evidence: ExplorerCall[];
  constructor(kind: string, message: string, evidence: ExplorerCall[] = []) {
    super(`${kind}: ${message}`);
    this.kind = kind;
    this.evidence = evidence;
  }
}

export interface Client {
  base: string;
  log: ExplorerCall[];
  /** The step the next exchanges belong to. */
  label: number;
  send(
    phase: Phase,
    method: 'GET' | 'POST',
    path: string,
    opts?: { json?: unknown; token?: string; ip?: string; query?: Record<string, string | number> },
  ): Promise<ExplorerCall>;
}

/** A client of `base` keeping its exchanges in `log`. */
export function client(base: string): Client {
  const log: ExplorerCall[] = [];
  return {
    base,
    log,
    label: 0,
    async send(phase, method, path, opts = {}) {
      const url = new URL(path, base);
      for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
      const headers: Record<string, string> = {};
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      if (opts.ip) headers['x-forwarded-for'] = opts.ip;
      let body: string | undefined;
      if (opts.json !== undefined || method === 'POST') {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(opts.json ?? {});
      }
      const res = await fetch(url, { method, headers, body });
      const text = await res.text();
      const contentType = res.headers.get('content-type') ?? '';
      let parsed: unknown = text;
      if (contentType.includes('json'))
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      const curl = curlLine(method, url, headers, body);
      const exchange: ExplorerCall = {
        phase,
        step: this.label,
        method,
        path: `${url.pathname}${url.search}`,
        operation:
          findOperation(method, url.pathname)?.name ??
          findHelper(method, url.pathname)?.name ??
          `${method} ${url.pathname}`,
        token: opts.token,
        ip: opts.ip,
        json: opts.json,
        status: res.status,
        body: parsed,
        message: res.status >= 300 ? errorMessage(parsed) : undefined,
        curl,
      };
      log.push(exchange);
      // A 404 is "not implemented" whatever its body (a framework's page): never a contract failure.
      if (!url.pathname.startsWith('/test_helpers/') && res.status !== 404) {
        const violations = checkResponse({
          method,
          url: url.toString(),
          status: res.status,
          headers: Object.fromEntries(res.headers.entries()),
          body: parsed,
          contentType,
        });
        if (violations.length)
          throw new Violation(
            'the answer conforms to the document',
            `${exchange.operation}: ${violations.join('; ')}`,
            [exchange],
          );
      }
      return exchange;
    },
  };
}

/** A one-line picture of an answer: status and message, or the start of the body. */
export function received(x: ExplorerCall): string {
  if (x.message !== undefined) return `${x.status} ${JSON.stringify(x.message)}`;
  const text = typeof x.body === 'string' ? x.body : JSON.stringify(x.body);
  return `${x.status} ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}
