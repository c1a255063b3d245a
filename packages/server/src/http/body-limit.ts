// How many bytes a request body of an operation may have, read from the document: its
// `x-body-limit` when it has one, otherwise the largest body its request schema admits. A body is
// read only after the caller passed the permission check, and never past this limit, so a login
// costs bytes to read and only the routes whose schema admits megabytes (support attachments)
// read megabytes.

// biome-ignore lint/suspicious/noExplicitAny: the bundled document is plain JSON
type Json = Record<string, any>;

/** Bytes one character of a string may take once encoded: `%E2%82%AC` in a form body (9 per UTF-16 unit). */
export const BYTES_PER_CHARACTER = 9;
/** Bytes of an encoded number or boolean, with room for form coercion (`"123"`). */
const SCALAR_BYTES = 32;
/** Room for the encoding around fields (quotes, separators, a charset parameter, whitespace). */
export const SLACK_BYTES = 1024;

/** Follows a local `$ref` of the bundled document. */
function deref(doc: Json, node: Json | undefined, seen = new Set<string>()): Json | undefined {
  if (!node || typeof node.$ref !== 'string') return node;
  if (seen.has(node.$ref)) return undefined;
  seen.add(node.$ref);
  const target = node.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((at: Json | undefined, key: string) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  return deref(doc, target, seen);
}

/**
 * A bound on the length of the strings an anchored pattern admits, when it repeats nothing without
 * limit (`^[0-9]{17}$`): each character of the pattern stands for at most its largest repetition
 * count. Generous, never too small; `Infinity` for `*`, `+`, `{n,}` or an unanchored pattern.
 */
export function patternBound(pattern: unknown): number {
  if (typeof pattern !== 'string' || !pattern.startsWith('^') || !pattern.endsWith('$'))
    return Number.POSITIVE_INFINITY;
  if (/(?<!\\)[*+]|\{\d*,\}/.test(pattern)) return Number.POSITIVE_INFINITY;
  const counts = [...pattern.matchAll(/\{(?:\d+,)?(\d+)\}/g)].map((m) => Number(m[1]));
  return pattern.length * Math.max(1, ...counts);
}

/**
 * The most bytes a value of `schema` takes encoded, or `Infinity` when the schema sets no bound
 * (a string without `maxLength`, an array without `maxItems`, an open map without `maxProperties`).
 */
export function schemaBound(doc: Json, raw: Json | undefined, depth = 0): number {
  const schema = deref(doc, raw);
  if (!schema || depth > 32) return Number.POSITIVE_INFINITY;
  const branches = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  if (branches.length) return Math.max(...branches.map((b: Json) => schemaBound(doc, b, depth + 1)));
  if (schema.allOf) return Math.min(...schema.allOf.map((b: Json) => schemaBound(doc, b, depth + 1)));
  if (Array.isArray(schema.enum) || schema.const !== undefined) {
    const values: unknown[] = schema.enum ?? [schema.const];
    return Math.max(...values.map((v) => JSON.stringify(v).length * BYTES_PER_CHARACTER));
  }
  const types: string[] = [schema.type ?? []].flat();
  if (types.includes('string')) {
    const length = typeof schema.maxLength === 'number' ? schema.maxLength : patternBound(schema.pattern);
    return length * BYTES_PER_CHARACTER + 2;
  }
  if (types.includes('array')) {
    if (typeof schema.maxItems !== 'number') return Number.POSITIVE_INFINITY;
    return schema.maxItems * (schemaBound(doc, schema.items, depth + 1) + 8) + 2;
  }
  if (types.includes('object') || schema.properties) {
    let bytes = 2;
    for (const [name, sub] of Object.entries(schema.properties ?? {}))
      bytes += name.length * BYTES_PER_CHARACTER + 8 + schemaBound(doc, sub as Json, depth + 1);
    const extra = schema.additionalProperties;
    if (extra && typeof extra === 'object') {
      if (typeof schema.maxProperties !== 'number') return Number.POSITIVE_INFINITY;
      const key = schemaBound(doc, schema.propertyNames ?? { type: 'string', maxLength: 64 }, depth + 1);
      bytes += schema.maxProperties * (key + 8 + schemaBound(doc, extra, depth + 1));
    }
    return bytes;
  }
  return SCALAR_BYTES;
}

/** The body limit of an operation in bytes (undefined when it takes no body). */
export function bodyLimitOf(doc: Json, op: Json): number | undefined {
  if (typeof op['x-body-limit'] === 'number') return op['x-body-limit'];
  const content: Json | undefined = deref(doc, op.requestBody)?.content;
  if (!content) return undefined;
  const bounds = Object.values(content).map((media) => schemaBound(doc, (media as Json).schema));
  return Math.max(...bounds) + SLACK_BYTES;
}
