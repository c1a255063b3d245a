// Builds requests from the document itself: the documented examples where there are some, else a
// value of each schema (its default, first enum value, minimum...). Used by the contract level to
// call every operation, and by the negative data as the valid base that each case breaks once.
import { deref, type Json, type Operation } from '../oracle/document.ts';

/** A value that satisfies a schema, preferring its examples. */
export function sample(schema: Json): unknown {
  const s = deref(schema) ?? {};
  if (s.examples?.length) return s.examples[0];
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  for (const key of ['oneOf', 'anyOf']) if (s[key]?.length) return sample(s[key][0]);
  if (s.allOf?.length) return Object.assign({}, ...s.allOf.map(sample));
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [sample(s.items ?? {})];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) out[name] = sample(s.properties?.[name] ?? {});
      return out;
    }
    default:
      if (s.format === 'email') return 'someone@example.com';
      if (s.pattern === '^[0-9]{17}$') return '76561198000000001';
      return 'a'.repeat(Math.max(1, s.minLength ?? 3));
  }
}

/** The value of a parameter: its documented example, else a sample of its schema. */
export function parameterValue(p: Json): unknown {
  const first = Object.values(p.examples ?? {})[0] as Json;
  return first?.value ?? p.example ?? sample(p.schema);
}

export interface Built {
  path: string;
  query: Record<string, string>;
  json?: unknown;
}

/** A documented request for the operation: path and query parameters, and the example body. */
export function buildRequest(o: Operation): Built {
  let path = o.path;
  const query: Record<string, string> = {};
  for (const raw of o.op.parameters ?? []) {
    const p = deref(raw);
    const value = parameterValue(p);
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(String(value)));
    else if (p.in === 'query' && p.required) query[p.name] = String(value);
  }
  const media = deref(o.op.requestBody)?.content?.['application/json'];
  if (!media) return { path, query };
  const example = Object.values(media.examples ?? {})[0] as Json;
  return { path, query, json: example?.value ?? sample(media.schema) };
}
