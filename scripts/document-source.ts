// The hand-maintained document read as one object, for the convention checks that look across
// operations (links, encodings, parameters): every `$ref` (to another file, or `#/...` inside the
// file) replaced by what it points at. The checks run on the sources, so they never read a stale
// bundle; schemas here refer to files, never to themselves, and a cycle is cut at a fixed depth.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import type { Json } from '../packages/contract/src/document.ts';

export type { Json };

/** The document of `file` with every `$ref` resolved in place. */
export function loadDocument(file: string): Json {
  const files = new Map<string, Json>();
  const read = (path: string): Json => {
    if (!files.has(path)) files.set(path, parse(readFileSync(path, 'utf8')));
    return files.get(path);
  };
  const pointer = (root: Json, at: string): Json =>
    at
      .split('/')
      .filter(Boolean)
      .reduce((node, key) => node?.[decodeURIComponent(key).replaceAll('~1', '/').replaceAll('~0', '~')], root);
  const walk = (node: Json, path: string, depth: number): Json => {
    if (Array.isArray(node)) return node.map((item) => walk(item, path, depth));
    if (!node || typeof node !== 'object') return node;
    if (typeof node.$ref === 'string' && depth < 40) {
      const [target = '', at = ''] = node.$ref.split('#');
      const file = target ? resolve(dirname(path), target) : path;
      return walk(pointer(read(file), at), file, depth + 1);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, path, depth)]));
  };
  return walk(read(file), file, 0);
}

export interface SourceOperation {
  method: string;
  path: string;
  id: string;
  op: Json;
}

/** Every operation of a resolved document. */
export function operationsOf(doc: Json): SourceOperation[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method, op]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method) && op)
      .map(([method, op]) => ({ method: method.toUpperCase(), path, id: (op as Json).operationId, op })),
  );
}

/** The JSON types a schema admits, looking through allOf/oneOf/anyOf (`object` for `properties`). */
export function schemaTypes(schema: Json, depth = 0): Set<string> {
  const out = new Set<string>();
  if (!schema || typeof schema !== 'object' || depth > 10) return out;
  for (const t of [schema.type ?? []].flat()) out.add(t);
  if (schema.properties && !schema.type) out.add('object');
  for (const key of ['allOf', 'oneOf', 'anyOf'])
    for (const branch of schema[key] ?? []) for (const t of schemaTypes(branch, depth + 1)) out.add(t);
  return out;
}

/** The properties an object schema declares, through allOf/oneOf/anyOf. */
export function schemaProperties(schema: Json, depth = 0): Record<string, Json> {
  if (!schema || typeof schema !== 'object' || depth > 10) return {};
  const out: Record<string, Json> = {};
  for (const key of ['allOf', 'oneOf', 'anyOf'])
    for (const branch of schema[key] ?? []) Object.assign(out, schemaProperties(branch, depth + 1));
  return Object.assign(out, schema.properties ?? {});
}
