// What the tool files (tools.ts) share: every operation in the order a reader meets them (the
// document's tag order, the login first), with the request its example values make and the answers
// it documents.
import { STATUS_CODES } from 'node:http';
import { type Json, resolveRef } from '../packages/contract/src/document.ts';
import { exampleBody, exampleUrl } from './code-samples.ts';
import { decorate } from './docs.ts';
import { DEMO_REQUESTS, RUN_BEFORE } from './tools-demo.ts';

/** The operation that logs in: its answer's `content.jwt` becomes the `jwt` variable. */
export const LOGIN = 'postUserLogin';

/**
 * The operations that end the caller's session (`GET /user/disconnectSession/{id}` too: its
 * example ID is the first session's, the login's own on a fresh sandbox): the collections keep
 * them in a folder of their own, run last, so that running a whole collection after the login is
 * not refused from there on.
 */
export const SESSION_END = ['getUserDisconnectSessionId', 'getUserDisconnect'];
const LAST_FOLDER = 'Log out (run last: it ends the session)';

/**
 * Where each target listens by default (`npm run mock`, `npm run sandbox`), the key it takes, and an
 * admin's key for the admin operations: the demo admins' keys are random, printed when the demo world
 * is made (`npm start`) and answered by a demo sandbox (`demoAccounts`), so the sandbox's is set at run time.
 */
export const TARGETS = [
  {
    id: 'mock',
    name: 'Item Marketplace mock',
    baseUrl: 'http://127.0.0.1:4010',
    apiKey: 'any-key',
    adminApiKey: 'any-admin-key',
  },
  {
    id: 'sandbox',
    name: 'Item Marketplace sandbox',
    baseUrl: 'http://127.0.0.1:8080',
    apiKey: 'demo-alice-api-key',
    adminApiKey: '',
  },
] as const;

export interface ToolExample {
  status: number;
  statusText: string;
  name: string;
  contentType: string;
  /** The body as sent: JSON text, or the text of a non-JSON example. */
  body: string;
}

export interface ToolOperation {
  operationId: string;
  method: 'GET' | 'POST';
  path: string;
  tag: string;
  /** Its folder in the collections: its tag, or the last folder for SESSION_END. */
  folder: string;
  summary: string;
  /** The operation with the docs page's additions (permission, messages, samples: scripts/docs.ts). */
  op: Json;
  /** The path with the example values of its path and required query parameters (the demo world's: tools-demo.ts). */
  url: string;
  /** The example body (the login's API key as `{{apiKey}}`; the demo world's: tools-demo.ts), if the operation takes one. */
  body?: unknown;
  /** Sends `Authorization: Bearer {{jwt}}`: every operation whose permission is not None. */
  bearer: boolean;
  /** An admin operation: its bearer is `{{adminJwt}}`, from a login with `{{adminApiKey}}`. */
  admin: boolean;
  /** Every status the operation documents. */
  statuses: number[];
  /** The first documented success example. */
  example?: ToolExample;
}

/** The first named example (or `example`) of the first 2xx response. */
function successExample(doc: Json, op: Json): ToolExample | undefined {
  for (const [status, raw] of Object.entries(op.responses ?? {})) {
    if (!/^2\d\d$/.test(status)) continue;
    for (const [contentType, media] of Object.entries(resolveRef(doc, raw)?.content ?? {}) as [string, Json][]) {
      const [name, example] = (Object.entries(media.examples ?? {})[0] ?? ['example', { value: media.example }]) as [
        string,
        Json,
      ];
      const value = resolveRef(doc, example)?.value;
      if (value === undefined) continue;
      const body = typeof value === 'string' && !contentType.includes('json') ? value : JSON.stringify(value, null, 2);
      return { status: Number(status), statusText: STATUS_CODES[Number(status)] ?? '', name, contentType, body };
    }
  }
  return undefined;
}

/** Every operation of the document, by tag in the document's tag order, the login first, SESSION_END last. */
export function toolOperations(doc: Json): ToolOperation[] {
  const decorated = decorate(doc);
  const tags: string[] = (doc.tags ?? []).map((t: Json) => t.name);
  const out: ToolOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json))
    for (const method of ['get', 'post'] as const) {
      const op = (item as Json)[method];
      if (!op?.operationId) continue;
      const demo = DEMO_REQUESTS[op.operationId] ?? {};
      const body = op.operationId === LOGIN ? { apiKey: '{{apiKey}}' } : (demo.body ?? exampleBody(op));
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase() as 'GET' | 'POST',
        path,
        tag: op.tags?.[0] ?? 'Other',
        folder: SESSION_END.includes(op.operationId) ? LAST_FOLDER : (op.tags?.[0] ?? 'Other'),
        summary: op.summary ?? op.operationId,
        op: decorated.paths[path][method],
        url: demo.url ?? exampleUrl(doc, path, op),
        body: body ?? (op.requestBody?.required ? {} : undefined),
        bearer: op['x-permission'] !== 'None',
        admin: op['x-permission'] === 'admin',
        statuses: Object.keys(op.responses ?? {})
          .filter((s) => /^\d{3}$/.test(s))
          .map(Number),
        example: successExample(doc, op),
      });
    }
  const rank = (o: ToolOperation) =>
    o.operationId === LOGIN
      ? -1
      : o.folder === LAST_FOLDER
        ? tags.length + 2
        : tags.indexOf(o.tag) + 1 || tags.length + 1;
  // The session's end in SESSION_END's order: the session ID one first, the log-out last.
  const within = (o: ToolOperation, i: number) => (o.folder === LAST_FOLDER ? SESSION_END.indexOf(o.operationId) : i);
  const sorted = out
    .map((o, i) => ({ o, i }))
    .sort((a, b) => rank(a.o) - rank(b.o) || within(a.o, a.i) - within(b.o, b.i))
    .map(({ o }) => o);
  // RUN_BEFORE: an operation moves into the folder of the one it precedes, just before it.
  for (const [first, second] of Object.entries(RUN_BEFORE)) {
    if (!sorted.some((o) => o.operationId === first) || !sorted.some((o) => o.operationId === second))
      throw new Error(`RUN_BEFORE names an operation the document does not have: ${first}, ${second}`);
    const moved = sorted.splice(
      sorted.findIndex((o) => o.operationId === first),
      1,
    )[0]!;
    const at = sorted.findIndex((o) => o.operationId === second);
    sorted.splice(at, 0, { ...moved, folder: sorted[at]!.folder });
  }
  return sorted;
}
