// Form-urlencoded bodies arrive as strings (the seed: "the router merges JSON into the POST
// parameters", so both encodings are accepted). Before validation, each string is converted to the
// type the operation's schema gives that field, so `price=150` validates like `{"price": 150}`.
// JSON bodies are never coerced: a JSON string where a number is required stays an error.

import { type Json, resolveRef } from './document.ts';

/** The JSON types a schema admits, looking through allOf/oneOf/anyOf branches. */
function typesOf(schema: Json, doc: Json, seen = 0): Set<string> {
  const s = resolveRef(doc, schema);
  const types = new Set<string>();
  if (!s || typeof s !== 'object' || seen > 10) return types;
  if (typeof s.type === 'string') types.add(s.type);
  if (Array.isArray(s.type)) for (const t of s.type) types.add(t);
  if ('const' in s)
    types.add(typeof s.const === 'number' ? (Number.isInteger(s.const) ? 'integer' : 'number') : typeof s.const);
  if (Array.isArray(s.enum)) for (const v of s.enum) types.add(typeof v === 'number' ? 'integer' : typeof v);
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    for (const branch of s[key] ?? []) for (const t of typesOf(branch, doc, seen + 1)) types.add(t);
  }
  return types;
}

/** The schema of property `name` inside an object schema (through allOf/oneOf/anyOf). */
function propertySchema(schema: Json, name: string, doc: Json): Json {
  const s = resolveRef(doc, schema);
  if (s?.properties?.[name]) return s.properties[name];
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    for (const branch of s?.[key] ?? []) {
      const found = propertySchema(branch, name, doc);
      if (found) return found;
    }
  }
  return undefined;
}

/** Converts one form value to the type its schema asks for; leaves it alone when unsure. */
export function coerceFormValue(value: Json, schema: Json, doc: Json): Json {
  if (schema === undefined) return value;
  const types = typesOf(schema, doc);
  if (Array.isArray(value)) {
    const items = resolveRef(doc, schema)?.items;
    return types.has('array') ? value.map((v) => coerceFormValue(v, items, doc)) : value;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [key, v] of Object.entries(value)) out[key] = coerceFormValue(v, propertySchema(schema, key, doc), doc);
    return out;
  }
  if (typeof value !== 'string' || types.has('string')) return value;
  if ((types.has('integer') || types.has('number')) && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (types.has('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  if (types.has('null') && value === '') return null;
  if (types.has('array')) return [coerceFormValue(value, resolveRef(doc, schema)?.items, doc)];
  return value;
}
