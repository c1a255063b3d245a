// The document's OpenAPI links, followed as a generic stateful tool follows them (ADR 22): from an
// exchange, a link names the next operation and gives some of its inputs as runtime expressions
// (`$response.body#/content/cartId`, `$request.path.item`, `Bearer {$response.body#/content/jwt}`);
// every other input is the document's own example, as for any request the suite builds. Nothing
// here knows an operation: the expressions are resolved against what was sent and received. The
// JWT comes from the login's links (`header.Authorization`); after that it stays the walk's
// credential, as a stateful tool keeps its auth setting: a link cannot pass it on, since a link may
// only read a header the source operation declares, and `Authorization` is never declared.

import { type Answer, call } from '../kit/http.ts';
import { buildRequest } from '../kit/requests.ts';
import { deref, document, type Json, type Operation, operations } from '../oracle/document.ts';

/** One hop of a links walk: a request and its answer, with what a runtime expression can read of the request. */
export interface Hop {
  operation: Operation;
  request: {
    path: Record<string, string>;
    query: Record<string, string>;
    headers: Record<string, string>;
    body?: unknown;
  };
  answer: Pick<Answer, 'status' | 'headers' | 'body' | 'url' | 'method'>;
}

/** The value at a JSON pointer (`/content/cart/0/cartId`), or undefined. */
export function atPointer(value: unknown, pointer: string): unknown {
  let at = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

const header = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];

/** Evaluates one runtime expression of the OpenAPI specification against an exchange. */
export function evaluate(expression: string, x: Hop): unknown {
  const [source = '', pointer] = expression.split('#');
  if (source === '$url') return x.answer.url;
  if (source === '$method') return x.answer.method;
  if (source === '$statusCode') return x.answer.status;
  if (source === '$request.body') return pointer === undefined ? x.request.body : atPointer(x.request.body, pointer);
  if (source === '$response.body') return pointer === undefined ? x.answer.body : atPointer(x.answer.body, pointer);
  const m = /^\$(request|response)\.(path|query|header)\.(.+)$/.exec(source);
  if (!m) throw new Error(`not a runtime expression: ${expression}`);
  if (m[1] === 'response') return m[2] === 'header' ? header(x.answer.headers, m[3]!) : undefined;
  if (m[2] === 'header') return header(x.request.headers, m[3]!);
  return x.request[m[2] as 'path' | 'query'][m[3]!];
}

/** A missing value: the link cannot be followed from this exchange. */
class Unresolved extends Error {}

/** A link value with its expressions resolved: a whole-string expression keeps its type, `{$...}` parts are text. */
export function resolveValue(value: unknown, x: Hop): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveValue(v, x));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveValue(v, x)]));
  if (typeof value !== 'string') return value;
  if (value.startsWith('$')) {
    const whole = evaluate(value, x);
    if (whole === undefined) throw new Unresolved(value);
    return whole;
  }
  return value.replace(/\{(\$[^}]+)\}/g, (_m, e: string) => {
    const v = evaluate(e, x);
    if (v === undefined) throw new Unresolved(e);
    return String(v);
  });
}

/** The links of the answer's operation for the status it got (a `$ref` to `components/links` followed). */
export function linksFrom(x: Hop): Record<string, Json> {
  const links = deref(x.operation.op.responses?.[String(x.answer.status)])?.links ?? {};
  return Object.fromEntries(Object.entries(links).map(([name, link]) => [name, deref(link)]));
}

/** Whether an operation needs or accepts a bearer JWT (its own security, else the document's). */
const takesJwt = (o: Operation): boolean =>
  (o.op.security ?? document.security ?? []).some((s: Json) => 'bearerAuth' in s);

export interface LinkedRequest {
  operation: Operation;
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * The request a link makes from an exchange: the target's documented request (its examples),
 * with the link's parameters (`path.x`, `query.x`, `header.x` or a bare parameter name) and body
 * in place. Undefined when an expression finds nothing (a list that came back empty).
 */
export function linkedRequest(link: Json, x: Hop): LinkedRequest | undefined {
  const operation = operations.find((o) => o.id === link.operationId);
  if (!operation) throw new Error(`link to unknown operation ${link.operationId}`);
  const base = buildRequest(operation);
  const params: Json[] = [...(document.paths[operation.path].parameters ?? []), ...(operation.op.parameters ?? [])].map(
    deref,
  );
  const path: Record<string, string> = {};
  for (const p of params.filter((p) => p.in === 'path'))
    path[p.name] = decodeURIComponent(base.path.split('/')[operation.path.split('/').indexOf(`{${p.name}}`)]!);
  const request: LinkedRequest = { operation, path, query: { ...base.query }, headers: {}, body: base.json };
  try {
    for (const [key, raw] of Object.entries(link.parameters ?? {})) {
      const [where, name] = key.includes('.') ? (key.split('.', 2) as [string, string]) : [undefined, key];
      const place = where ?? params.find((p) => p.name === name)?.in;
      const value = String(resolveValue(raw, x));
      if (place === 'path') request.path[name] = value;
      else if (place === 'query') request.query[name] = value;
      else if (place === 'header') request.headers[name] = value;
    }
    if (link.requestBody !== undefined) request.body = resolveValue(link.requestBody, x);
  } catch (error) {
    if (error instanceof Unresolved) return undefined;
    throw error;
  }
  const credential = header(x.request.headers, 'authorization');
  if (credential && !header(request.headers, 'authorization') && takesJwt(operation))
    request.headers.Authorization = credential;
  return request;
}

/** Sends a request the suite's way and keeps what the next link may read. */
export async function send(r: LinkedRequest, ip?: string): Promise<Hop> {
  const path = r.operation.path.replace(/\{(\w+)\}/g, (_m, n: string) => encodeURIComponent(r.path[n] ?? ''));
  const answer = await call(r.operation.method, path, {
    query: r.query,
    headers: r.headers,
    ...(r.body === undefined ? {} : { json: r.body }),
    ...(ip ? { ip } : {}),
    record: false,
  });
  return { operation: r.operation, request: r, answer };
}

/** Follows the link of `x` to `operationId` (the first one when several lead there). */
export async function follow(x: Hop, operationId: string, ip?: string): Promise<Hop> {
  const link = Object.values(linksFrom(x)).find((l: Json) => l.operationId === operationId);
  if (!link) throw new Error(`${x.operation.id} (${x.answer.status}) has no link to ${operationId}`);
  const request = linkedRequest(link, x);
  if (!request)
    throw new Error(`the link ${x.operation.id} → ${operationId} finds nothing in ${JSON.stringify(x.answer.body)}`);
  return send(request, ip);
}
