// The document at run time, in one place: where the bundled document of @marketplace/openapi is,
// reading it, and following its local `$ref`s (the one resolver every rule of this package uses).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// biome-ignore lint/suspicious/noExplicitAny: the bundled OpenAPI document is plain JSON
export type Json = any;

/**
 * The bundled document of the @marketplace/openapi version this package depends on (the
 * repository's openapi/ workspace, or the installed package): the contract version it was built with.
 */
export const BUNDLED_DOCUMENT: string = createRequire(import.meta.url).resolve('@marketplace/openapi/openapi.json');

/** Reads a bundled document (by default the package's). */
export const readDocument = (path: string = BUNDLED_DOCUMENT): Json => JSON.parse(readFileSync(path, 'utf8'));

/**
 * What a node of `doc` is once its local `$ref`s (`#/components/schemas/Name`, JSON-pointer escapes
 * decoded) are followed; undefined for a reference that loops or leads nowhere.
 */
export function resolveRef(doc: Json, node: Json, seen = new Set<string>()): Json {
  if (!node || typeof node.$ref !== 'string') return node;
  if (seen.has(node.$ref) || !node.$ref.startsWith('#/')) return undefined;
  seen.add(node.$ref);
  const target = node.$ref
    .slice(2)
    .split('/')
    .reduce((at: Json, key: string) => at?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
  return resolveRef(doc, target, seen);
}
