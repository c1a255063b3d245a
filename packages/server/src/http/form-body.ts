// Form-urlencoded bodies arrive as strings (the seed: "the router merges JSON into the POST
// parameters", so both encodings are accepted). Before validation, each string is converted to the
// type the operation's schema gives that field, so `price=150` validates like `{"price": 150}`.
// JSON bodies are never coerced: a JSON string where a number is required stays an error.
//
// Objects and arrays in a form (ADR 22): the document's Encoding Object states `deepObject`
// (`notifications[marketing]=false`) for objects and `form` exploded (`items=1&items=2`) for
// arrays, which the form parser reads. An object whose keys the schema declares is also read in
// OpenAPI's default notation, its keys spread at the top level (`marketing=false`), the way a
// generic OpenAPI tool sends it without an Encoding Object.

// biome-ignore lint/suspicious/noExplicitAny: schemas and bodies are plain JSON
type Json = any;

/** Follows local `$ref`s of the bundled document. */
export function derefSchema(schema: Json, doc: Json): Json {
  let at = schema;
  for (let hops = 0; typeof at?.$ref === 'string' && hops < 20; hops += 1) {
    at = at.$ref
      .slice(2)
      .split('/')
      .reduce((node: Json, key: string) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
  }
  return at;
}

/** The JSON types a schema admits, looking through allOf/oneOf/anyOf branches. */
function typesOf(schema: Json, doc: Json, seen = 0): Set<string> {
  const s = derefSchema(schema, doc);
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
function declaredProperty(schema: Json, name: string, doc: Json): Json {
  const s = derefSchema(schema, doc);
  if (s?.properties?.[name]) return s.properties[name];
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    for (const branch of s?.[key] ?? []) {
      const found = declaredProperty(branch, name, doc);
      if (found) return found;
    }
  }
  return undefined;
}

/** The schema of an entry of a map (`additionalProperties`), through allOf/oneOf/anyOf. */
function mapEntry(schema: Json, doc: Json): Json {
  const s = derefSchema(schema, doc);
  if (s?.additionalProperties && typeof s.additionalProperties === 'object') return s.additionalProperties;
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    for (const branch of s?.[key] ?? []) {
      const found = mapEntry(branch, doc);
      if (found) return found;
    }
  }
  return undefined;
}

/** A property's schema, or the map entry's schema (`value[123]=150` of an asset-to-price map). */
const propertySchema = (schema: Json, name: string, doc: Json): Json =>
  declaredProperty(schema, name, doc) ?? mapEntry(schema, doc);

/**
 * Reads OpenAPI's default form notation of an object (style `form`, exploded: `marketing=false`
 * for `{notifications: {marketing: false}}`): a top-level key the body schema does not declare
 * moves into the one object property that declares it. A key two object properties declare, or
 * one the body itself declares, stays where it is (the validator then names it).
 */
export function foldExplodedObjects(body: Record<string, Json>, schema: Json, doc: Json): Record<string, Json> {
  const s = derefSchema(schema, doc);
  const objects = Object.keys(s?.properties ?? {}).filter((name) => typesOf(s.properties[name], doc).has('object'));
  if (objects.length === 0) return body;
  const out: Record<string, Json> = { ...body };
  for (const [key, value] of Object.entries(body)) {
    if (declaredProperty(s, key, doc)) continue;
    const owners = objects.filter((name) => declaredProperty(s.properties[name], key, doc));
    if (owners.length !== 1) continue;
    const owner = owners[0]!;
    const current = out[owner];
    if (current !== undefined && (current === null || typeof current !== 'object' || Array.isArray(current))) continue;
    out[owner] = { ...(current ?? {}), [key]: value };
    delete out[key];
  }
  return out;
}

/** Converts one form value to the type its schema asks for; leaves it alone when unsure. */
export function coerceFormValue(value: Json, schema: Json, doc: Json): Json {
  if (schema === undefined) return value;
  const types = typesOf(schema, doc);
  if (Array.isArray(value)) {
    const items = derefSchema(schema, doc)?.items;
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
  if (types.has('array')) return [coerceFormValue(value, derefSchema(schema, doc)?.items, doc)];
  return value;
}
