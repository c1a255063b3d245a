// What the HTTP layer needs to know about each operation, read once from the bundled document:
// its permission level, its envelope, its route-specific rate limit and its documented messages.
// The document is the contract, so the server takes these facts from it instead of restating them.

import { bodyLimitOf } from './body-limit.ts';

export type Permission = 'None' | 'API only' | 'Connected + API' | 'Connected + API + 2FA' | 'admin';
export type Envelope = 'A' | 'B';

export interface ErrorMessage {
  message: string;
  condition: string;
  field?: string;
  reason?: 'missing' | 'invalid';
  keyword?: string;
  status?: number;
  type?: string;
}

export interface RateLimitRule {
  limit: number;
  window: number;
  scope: string;
  counts?: string;
  /** What happens beyond the limit: 429, the operation's documented 300, or the cached answer. */
  exceeded: 'reject' | 'business-error' | 'serve-cached';
}

export interface OperationInfo {
  method: string;
  /** The OpenAPI path template (`/item/listing/{item}`). */
  path: string;
  operationId: string;
  permission: Permission;
  envelope: Envelope;
  /** The first of `rateLimits` (most operations have one rule at most). */
  rateLimit?: RateLimitRule;
  /** The operation's own limits: `x-rate-limit`, one rule or a list of them. */
  rateLimits: RateLimitRule[];
  /** Bytes of request body the operation reads at most (body-limit.ts); undefined without a body. */
  bodyLimit?: number;
  errorMessages: ErrorMessage[];
  /** The path parameters whose schema is a number (`{item}`): the matcher hands them over as numbers. */
  numericParams: string[];
}

// biome-ignore lint/suspicious/noExplicitAny: the bundled document is plain JSON
type Json = Record<string, any>;

/** The envelope of an operation's answers: B when its success schema builds on EnvelopeBSuccess. */
function envelopeOf(op: Json, overrides: Record<string, Envelope>): Envelope {
  if (overrides[op.operationId]) return overrides[op.operationId]!;
  const ok = JSON.stringify(op.responses?.['200'] ?? {});
  return ok.includes('EnvelopeBSuccess') && !ok.includes('EnvelopeASuccess') ? 'B' : 'A';
}

/**
 * Indexes every operation of `doc` by `METHOD path`. `envelopeOverrides` settles operations whose
 * success is a oneOf of both envelopes (the seed's variants), by operationId.
 */
export function indexOperations(
  doc: Json,
  envelopeOverrides: Record<string, Envelope> = {},
): Map<string, OperationInfo> {
  const index = new Map<string, OperationInfo>();
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const method of ['get', 'post'] as const) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const rateLimits: RateLimitRule[] = [op['x-rate-limit'] ?? []].flat();
      index.set(`${method.toUpperCase()} ${path}`, {
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        permission: op['x-permission'],
        envelope: envelopeOf(op, envelopeOverrides),
        rateLimit: rateLimits[0],
        rateLimits,
        bodyLimit: bodyLimitOf(doc, op),
        errorMessages: op['x-error-messages'] ?? [],
        numericParams: numericPathParams(doc, [...(item.parameters ?? []), ...(op.parameters ?? [])]),
      });
    }
  }
  return index;
}

/** What a local `$ref` (`#/components/...`) points at, or the value itself. */
function resolved(doc: Json, value: Json): Json {
  let current = value;
  while (current && typeof current.$ref === 'string' && current.$ref.startsWith('#/'))
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce((node: Json, key: string) => node?.[key], doc);
  return current;
}

/** Names of the path parameters typed `integer` or `number` by their schema. */
function numericPathParams(doc: Json, parameters: Json[]): string[] {
  return parameters
    .map((p) => resolved(doc, p))
    .filter((p) => p?.in === 'path' && ['integer', 'number'].includes(resolved(doc, p.schema)?.type))
    .map((p) => p.name);
}
