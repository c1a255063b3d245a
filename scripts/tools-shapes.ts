// The answer shapes the collections check (tools-postman.ts, tools-bruno.ts): each operation's
// JSON response schemas, by status, in the JSON Schema draft-07 form that Postman's and Bruno's
// `jsonSchema` assertions compile (both run Ajv in draft-07 mode). The document is OpenAPI 3.1
// (JSON Schema 2020-12): component references become `#/definitions/<name>`, `prefixItems` the
// draft-07 tuple `items`, and what only documents (descriptions, examples, formats, `x-` keys) is
// left out, so a script carries only the components its operation's answers use.
import { type Json, resolveRef } from '../packages/contract/src/document.ts';

const COMPONENT = '#/components/schemas/';

// Keywords whose value maps names to schemas: the names are kept as they are.
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);
// Keywords that say nothing about the shape, or that draft-07 does not have and would not check.
const DROPPED = new Set([
  'description',
  'example',
  'examples',
  'title',
  'format',
  'externalDocs',
  'deprecated',
  'readOnly',
  'writeOnly',
  'discriminator',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$comment',
  'contentMediaType',
]);

/** A schema node in draft-07 form; the component names it refers to are added to `used`. */
function draft07(node: Json, used: Set<string>): Json {
  if (Array.isArray(node)) return node.map((n) => draft07(n, used));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Record<string, Json>)) {
    if (DROPPED.has(key) || key.startsWith('x-')) continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT)) {
      const name = value.slice(COMPONENT.length);
      used.add(name);
      out.$ref = `#/definitions/${name}`;
    } else if (key === 'prefixItems') {
      out.items = draft07(value, used);
      if (node.items === false) out.additionalItems = false;
    } else if (key === 'items' && 'prefixItems' in node) {
      if (node.items !== false) out.additionalItems = draft07(value, used);
    } else if (SCHEMA_MAPS.has(key)) {
      out[key === '$defs' ? 'definitions' : key] = Object.fromEntries(
        Object.entries(value as Record<string, Json>).map(([name, schema]) => [name, draft07(schema, used)]),
      );
    } else out[key] = draft07(value, used);
  }
  // Draft-07 ignores the siblings of a $ref; 2020-12 applies them.
  if (out.$ref && Object.keys(out).length > 1) {
    const { $ref, ...rest } = out;
    return { allOf: [{ $ref }], ...rest };
  }
  return out;
}

/** The JSON response schemas of `op` by status, and the components they use, in draft-07 form. */
export function answerShapes(
  doc: Json,
  op: Json,
): { byStatus: Record<string, Json>; definitions: Record<string, Json> } {
  const used = new Set<string>();
  const byStatus: Record<string, Json> = {};
  for (const [status, raw] of Object.entries(op.responses ?? {})) {
    const media = Object.entries(resolveRef(doc, raw)?.content ?? {}).find(([type]) => type.includes('json'));
    if (media) byStatus[status] = draft07((media[1] as Json).schema ?? {}, used);
  }
  const definitions: Record<string, Json> = {};
  // Components refer to others: follow them until none is new.
  for (const queue = [...used]; queue.length; ) {
    const name = queue.shift()!;
    if (name in definitions) continue;
    const before = new Set(used);
    definitions[name] = draft07(doc.components.schemas[name], used);
    queue.push(...[...used].filter((n) => !before.has(n)));
  }
  return {
    byStatus,
    definitions: Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b))),
  };
}
