// The bundled documents as the suite reads them, each read here once: the API's, with every operation's
// permission level, messages and responses, and the test helpers' (shared/test-helpers.md); and the
// lookup of a concrete request path to its operation or helper (literal segments win over
// parameters, as in `/user/disconnectSession/all` against `/user/disconnectSession/{id}`).
// Read here, not through @marketplace/contract's readDocument/resolveRef/RouteMatcher, which every
// other package and script uses: the suite is an independent oracle (ADR 0026), so a mistake in the
// contract's reading of the document cannot hide in the suite's checks too.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// biome-ignore lint/suspicious/noExplicitAny: the bundled OpenAPI document is plain JSON
export type Json = any;

/** The document of the @marketplace/openapi package: the contract version the suite was released with. */
export const DOCUMENT_PATH = createRequire(import.meta.url).resolve('@marketplace/openapi/openapi.json');
export const document: Json = JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8'));

export interface Operation {
  method: 'GET' | 'POST';
  path: string;
  id: string;
  permission: string;
  op: Json;
  /** `METHOD /path`, how reports name it. */
  name: string;
}

export const operations: Operation[] = Object.entries(document.paths as Json).flatMap(([path, item]) =>
  (['get', 'post'] as const)
    .filter((m) => (item as Json)[m])
    .map((m) => {
      const op = (item as Json)[m];
      return {
        method: m.toUpperCase() as 'GET' | 'POST',
        path,
        id: op.operationId,
        permission: op['x-permission'],
        op,
        name: `${m.toUpperCase()} ${path}`,
      };
    }),
);

/** A lookup of concrete request paths among `ops`, literal segments winning over parameters. */
export function pathMatcher<T extends { method: string; path: string }>(ops: T[]) {
  const compiled = ops
    .map((o) => {
      const segments = o.path.split('/').filter(Boolean);
      const source = segments
        .map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      return { o, re: new RegExp(`^/${source}/?$`), literals: segments.filter((s) => !s.startsWith('{')).length };
    })
    .sort((a, b) => b.literals - a.literals);
  // Each request is looked up twice or more (the client, the contract check, the reports), most on
  // paths met before: remembered, a lookup is one Map read instead of up to one regex per operation.
  const seen = new Map<string, T | undefined>();
  return (method: string, pathname: string): T | undefined => {
    const key = `${method.toUpperCase()} ${pathname}`;
    if (seen.has(key)) return seen.get(key);
    const found = compiled.find((c) => c.o.method === method.toUpperCase() && c.re.test(pathname))?.o;
    if (seen.size < 10_000) seen.set(key, found);
    return found;
  };
}

/** The operation a request addresses, if the document has it. */
export const findOperation = pathMatcher(operations);

export interface HelperOperation {
  method: 'GET' | 'POST';
  path: string;
  id: string;
  /** `METHOD /test_helpers/...`, how reports name it. */
  name: string;
  /** What the helper does, in the words of its summary (`Move the clock`). */
  summary: string;
}

/** The test helpers of shared/test-helpers.md, from the test-helpers document the suite ships with (@marketplace/openapi). */
export const helperDocument: Json = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('@marketplace/openapi/test-helpers.json'), 'utf8'),
);
export const helperOperations: HelperOperation[] = Object.entries(helperDocument.paths as Json).flatMap(
  ([path, item]) =>
    (['get', 'post'] as const)
      .filter((m) => (item as Json)[m])
      .map((m) => {
        const op = (item as Json)[m];
        const method = m.toUpperCase() as 'GET' | 'POST';
        return { method, path, id: op.operationId, name: `${method} ${path}`, summary: op.summary ?? 'set up state' };
      }),
);

/** The test helper a request addresses, if the test-helpers document has it. */
export const findHelper = pathMatcher(helperOperations);

/** `METHOD /path` as a text writes it, or a shorthand `/path` continuing a list (`, /update`, ` and /validate`). */
const NAME = /(?<![\w/])(GET|POST) (\/[^\s,;:()?'"`]*)|(,|;| and) (\/[^\s,;:()?'"`]*)/g;

/**
 * Every operation a text (a test's name) states, in order, by exact template: `POST
 * /item/buyorder/update` names that operation, never `POST /item/buyorder`, whose template it
 * extends. A list goes on with shorthands that keep the method and resolve against the path before
 * them, its end first (`POST /item/buyorder, /update, /remove`; `POST /user/reset2FA/ask and
 * /validate`; `GET /giveaways, /giveaways/history`).
 */
export function namedOperations(text: string): Operation[] {
  const found: Operation[] = [];
  // The operation (or the method and path) the next shorthand continues, and where its name ended.
  let last: { method: string; path: string; end: number } | undefined;
  for (const m of text.matchAll(NAME)) {
    const [, method, full, , short] = m;
    let o: Operation | undefined;
    if (method && full) {
      const path = full.replace(/\.+$/, '');
      o = operations.find((x) => x.method === method && x.path === path);
      last = { method, path, end: m.index + method.length + 1 + path.length };
    } else if (short && last && m.index === last.end) {
      const path = short.replace(/\.+$/, '');
      const before = last.path.split('/').filter(Boolean);
      for (let keep = before.length; keep >= 0 && !o; keep -= 1) {
        const candidate = `/${[...before.slice(0, keep), ...path.split('/').filter(Boolean)].join('/')}`;
        o = operations.find((x) => x.method === last?.method && x.path === candidate);
      }
      last = {
        method: last.method,
        path: o?.path ?? last.path,
        end: m.index + m[0].length - (short.length - path.length),
      };
    } else last = undefined;
    if (o && !found.includes(o)) found.push(o);
  }
  return found;
}

/** The first operation a text (a test's name) states, by exact template (`namedOperations`). */
export const namedOperation = (text: string): Operation | undefined => namedOperations(text)[0];

/** Follows local `$ref`s of the API document. */
export const deref = (node: Json): Json => derefIn(document, node);

/** Follows local `$ref`s of `doc` (the API document or the test helpers'). */
export function derefIn(doc: Json, node: Json): Json {
  let at = node;
  for (let i = 0; typeof at?.$ref === 'string' && i < 20; i += 1) {
    at = at.$ref
      .slice(2)
      .split('/')
      .reduce((n: Json, k: string) => n?.[k.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
  }
  return at;
}

/** Messages valid on every operation (`x-global-error-messages`). */
export const globalMessages: { message: string }[] = document['x-global-error-messages'] ?? [];

/** Answers any request may get before an operation is matched (`x-protocol-errors`): 400, 408, 417, 431. */
export const protocolErrors: { status: number; message: string; condition: string }[] =
  document['x-protocol-errors'] ?? [];

/** Whether an operation needs a session (403 without one). */
export const isConnected = (o: Operation): boolean => !['None', 'API only'].includes(o.permission);

/** Operations that end the caller's session (the `/user/disconnect...` routes). */
export const endsSession = (o: Operation): boolean => o.path.startsWith('/user/disconnect');

/**
 * Whether calling the operation changes state on the target: every POST, and the GETs whose
 * description says they do (log out, resend a trade offer, create a 2FA secret or a CSV token).
 */
export const changesState = (o: Operation): boolean =>
  o.method === 'POST' ||
  endsSession(o) ||
  ['/trades/resend', '/user/2FA/create', '/user/generateCSVToken'].includes(o.path);
