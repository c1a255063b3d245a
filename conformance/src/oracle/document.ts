// The bundled document as the suite reads it: every operation with its permission level, messages
// and responses, and the lookup of a concrete request path to its operation (literal segments win
// over parameters, as in `/user/disconnectSession/all` against `/user/disconnectSession/{id}`).
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
  return (method: string, pathname: string): T | undefined =>
    compiled.find((c) => c.o.method === method.toUpperCase() && c.re.test(pathname))?.o;
}

/** The operation a request addresses, if the document has it. */
export const findOperation = pathMatcher(operations);

/** A character that continues a path template: a name followed by one names a longer path. */
const PATH_GOES_ON = /[\w{/]/;

/**
 * The first operation a text (a test's name) states, by exact template: `POST /item/buyorder/update`
 * names that operation, never `POST /item/buyorder`, whose template it extends.
 */
export function namedOperation(text: string): Operation | undefined {
  let first: { o: Operation; at: number } | undefined;
  for (const o of operations)
    for (let at = text.indexOf(o.name); at >= 0; at = text.indexOf(o.name, at + 1)) {
      if (PATH_GOES_ON.test(text[at + o.name.length] ?? '') || /\w/.test(text[at - 1] ?? '')) continue;
      if (!first || at < first.at) first = { o, at };
      break;
    }
  return first?.o;
}

/** Follows local `$ref`s. */
export function deref(node: Json): Json {
  let at = node;
  for (let i = 0; typeof at?.$ref === 'string' && i < 20; i += 1) {
    at = at.$ref
      .slice(2)
      .split('/')
      .reduce((n: Json, k: string) => n?.[k.replaceAll('~1', '/').replaceAll('~0', '~')], document);
  }
  return at;
}

/** Messages valid on every operation (`x-global-error-messages`). */
export const globalMessages: { message: string }[] = document['x-global-error-messages'] ?? [];

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
