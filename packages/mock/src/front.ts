// The mock's front door (ADR 0017): the API's request flow (`createApi`, the one the reference
// server mounts too: @marketplace/contract, ADR 0026) with Prism as its terminal, so the API's
// conventions apply before Prism answers: an unknown route is the API's 404, a refused bearer 403
// `forbidden`, a request that breaks the document the operation's documented 300. An unknown
// example name in `Prefer` gets the operation's list of names. What passes goes to Prism, whose
// own error answers are rewritten the same way (prism-answer.ts).
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import {
  corsLayer,
  createApi,
  INTERNAL_ERROR,
  type OnPurposeOptions,
  type OperationInfo,
  onPurpose,
  operationOf,
  sendError,
} from '@marketplace/contract';
import type express from 'express';
import type { Request, Response } from 'express';
import type { AnswerCache } from './answer-cache.ts';
import { mockCaller } from './bearer.ts';
import type { Json } from './document.ts';
import { checkPrefer, documentExamples } from './examples.ts';
import { rewritePrismProblem } from './prism-answer.ts';

export interface FrontOptions {
  document: Json;
  /** Where Prism listens. */
  prism: string;
  /** Where faults worth a look are reported (Prism's internal errors, answers that break the document). */
  log: (line: string) => void;
  /** Unix seconds, for the expiry of bearer tokens. */
  now?: () => number;
  /** Per-run latency and failures (`--latency`, `--fail-rate`, `--seed`); `Prefer: delay=`, `code=429|500` work without. */
  onPurpose?: OnPurposeOptions;
  /** Where Prism's deterministic answers are kept for reuse (answer-cache.ts); none: every request goes to Prism. */
  cache?: AnswerCache;
}

// Hop-by-hop headers belong to one connection: neither forwarded to Prism nor copied back.
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'host', 'content-length', 'upgrade'];

const withoutHopByHop = (headers: IncomingHttpHeaders): IncomingHttpHeaders =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.includes(name)));

/**
 * On every answer of the mock: `examples` (the value the conformance suite recognises a mock by; a
 * mock in front of a real server said `proxy` until that mode went to `marketplace-conformance
 * proxy`, ADR 0026).
 */
export const MOCK_HEADER = 'x-marketplace-mock';

/** Builds the front; it forwards what passes its checks to Prism at `options.prism`. */
export function createFront(options: FrontOptions): express.Express {
  const { document, log } = options;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const examples = new Map(documentExamples(document).map((e) => [`${e.method} ${e.path}`, e]));
  const agent = new Agent({ keepAlive: true });
  // Slow and failing on purpose (issue 25): Prefer: delay / code=429 / code=500, and per run.
  const slowAndFailing = onPurpose({ ...options.onPurpose, prefer: true, now });
  /** `Prefer` naming a documented answer; otherwise refused with 400. */
  const checkedPrefer = (req: Request, res: Response, op: OperationInfo): boolean => {
    const prefer = checkPrefer(req.get('prefer'), examples.get(`${op.method} ${op.path}`)!);
    if (!prefer.ok) {
      sendError(res, 'A', prefer.message, 400);
      return false;
    }
    if (prefer.prefer) req.headers.prefer = prefer.prefer;
    return true;
  };
  /** Sends the request to Prism and streams its answer back, rewriting Prism's own errors. */
  function forward(req: Request, res: Response): void {
    const headers = withoutHopByHop(req.headers);
    let body: Buffer | undefined;
    if (req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD') {
      // The body was parsed (and a form body typed) for validation: it goes on as JSON, which
      // every operation of the document accepts.
      body = Buffer.from(JSON.stringify(req.body));
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(body.length);
    }
    const op = operationOf(res);
    const key = op && options.cache?.keyOf(op.method, op.path, headers);
    const cached = key === undefined ? undefined : options.cache?.get(key);
    if (cached) {
      res.writeHead(cached.status, cached.headers);
      res.end(cached.body);
      return;
    }
    const outgoing = httpRequest(new URL(req.originalUrl, options.prism), { method: req.method, headers, agent });
    outgoing.on('response', (answer) => {
      const status = answer.statusCode ?? 500;
      const violations = answer.headers['sl-violations'];
      if (violations) log(`${req.method} ${req.originalUrl}: the answer breaks the document: ${violations}`);
      if (!String(answer.headers['content-type'] ?? '').includes('problem+json')) {
        res.writeHead(status, withoutHopByHop(answer.headers));
        if (key !== undefined) {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => options.cache?.keep(key, status, answer.headers, Buffer.concat(chunks)));
        }
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        let problem: Json = {};
        try {
          problem = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {}
        const rewritten = rewritePrismProblem(status, problem, operationOf(res));
        if (rewritten.unexpected)
          log(
            `${req.method} ${req.originalUrl}: Prism answered ${status}: ${problem.title ?? ''} ${problem.detail ?? ''}`,
          );
        sendError(res, rewritten.envelope, rewritten.content, rewritten.status);
      });
    });
    outgoing.on('error', (e) => {
      log(`${req.method} ${req.originalUrl}: Prism did not answer: ${e.message}`);
      if (!res.headersSent) sendError(res, 'A', INTERNAL_ERROR, 500);
    });
    outgoing.end(body);
  }

  return createApi({
    document,
    identify: (req) => mockCaller(req.get('authorization'), now()),
    // Says what answers, for tools that adapt to a mock (the conformance suite asks for examples by
    // name only where this says `examples`).
    answerHeaders: { [MOCK_HEADER]: 'examples' },
    // CORS as the reference server does it, for every origin (a mock holds nothing to protect): a
    // preflight is answered here, and every answer, the front's own refusals too, is readable.
    before: [corsLayer(['*'])!],
    // The mock counts nothing. Here a request is slow or fails on purpose (issue 25: Prefer: delay,
    // code=429 / code=500, and per run), and a `Prefer` naming no documented answer is refused.
    admit: (req, res, op) =>
      new Promise<boolean>((done) => {
        res.once('close', () => done(false)); // answered on purpose, or the client went away
        slowAndFailing(req, res, () => done(checkedPrefer(req, res, op)));
      }),
    forward,
    unexpected: (err, req) => log(`${req.method} ${req.originalUrl}: ${(err as Error)?.stack ?? String(err)}`),
  });
}
