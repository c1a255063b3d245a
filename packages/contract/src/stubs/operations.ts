// The operations of a document as the stub generator sees them: what each stub's comment quotes
// (summary, permission, rate limits, documented messages), the file of its tag, and a revision: a
// hash of everything the operation declares, its `$ref`s followed, so that a changed field of a
// schema it uses changes the revision of every operation that reads or answers it.
import { createHash } from 'node:crypto';
import { type Json, resolveRef } from '../document.ts';
import { type ErrorMessage, indexOperations, type Permission, type RateLimitRule } from '../operation-index.ts';

export interface StubOperation {
  operationId: string;
  method: string;
  path: string;
  tag: string;
  summary: string;
  permission: Permission;
  rateLimits: RateLimitRule[];
  errorMessages: ErrorMessage[];
  /** Eight hex digits of the operation's resolved declaration: a handler is stamped with it. */
  revision: string;
}

/** The tag of operations the document leaves untagged. */
export const UNTAGGED = 'Other';

/** `node` with every local `$ref` replaced by its target (a reference back into itself stays a `$ref`). */
export function dereference(doc: Json, node: Json, open: ReadonlySet<string> = new Set()): Json {
  if (Array.isArray(node)) return node.map((n) => dereference(doc, n, open));
  if (!node || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') {
    if (open.has(node.$ref)) return { $ref: node.$ref };
    return dereference(doc, resolveRef(doc, { $ref: node.$ref }), new Set([...open, node.$ref]));
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, dereference(doc, v, open)]));
}

/** The revision of one operation of `doc`: its path item's parameters and the operation, resolved. */
export function revisionOf(doc: Json, path: string, method: string): string {
  const item = doc.paths[path];
  const declared = { method, path, parameters: item.parameters ?? [], operation: item[method.toLowerCase()] };
  return createHash('sha256')
    .update(JSON.stringify(dereference(doc, declared)))
    .digest('hex')
    .slice(0, 8);
}

/** Every operation of `doc`, in the document's order. */
export function stubOperations(doc: Json): StubOperation[] {
  return [...indexOperations(doc).values()].map((info) => {
    const op = doc.paths[info.path][info.method.toLowerCase()];
    return {
      operationId: info.operationId,
      method: info.method,
      path: info.path,
      tag: op.tags?.[0] ?? UNTAGGED,
      summary: op.summary ?? '',
      permission: info.permission,
      rateLimits: info.rateLimits,
      errorMessages: info.errorMessages,
      revision: revisionOf(doc, info.path, info.method),
    };
  });
}

/** The file of a tag's handlers (`E-mail change` → `e-mail-change`). */
export const tagFileName = (tag: string): string =>
  tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'other';
