// Every example of the bundled document must validate against its schema *closed*: an example
// with a property its schema does not declare fails here. Redocly's example rules miss extra
// properties inside `allOf` compositions (the envelopes are built that way), so this check
// merges each `allOf` and forbids undeclared properties before validating with Ajv (2020-12).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { Json } from '../packages/contract/src/document.ts';

const doc: Json = JSON.parse(readFileSync(resolve(import.meta.dirname, 'bundled/openapi.json'), 'utf8'));

/** Replaces every local `$ref` by a copy of its target (the document has no cycles). */
function inline(node: Json, depth = 0): Json {
  if (depth > 40) throw new Error('reference cycle');
  if (Array.isArray(node)) return node.map((n) => inline(n, depth));
  if (!node || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') {
    const target = node.$ref
      .slice(2)
      .split('/')
      .reduce((at: Json, key: string) => at[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
    return inline(target, depth + 1);
  }
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, k === 'examples' || k === 'example' ? v : inline(v, depth)]),
  );
}

/** Merges `allOf` branches into the schema itself (the envelopes are built with `allOf`). */
function merged(schema: Json): Json {
  const out: Json = { ...schema };
  delete out.examples;
  delete out.example;
  if (!out.allOf) return out;
  const branches = out.allOf.map(merged);
  delete out.allOf;
  for (const branch of branches) {
    for (const [name, prop] of Object.entries(branch.properties ?? {})) {
      out.properties ??= {};
      out.properties[name] = out.properties[name] ? { allOf: [out.properties[name], prop] } : prop;
    }
    if (branch.required) out.required = [...new Set([...(out.required ?? []), ...branch.required])];
    for (const [key, value] of Object.entries(branch)) {
      if (!['properties', 'required', 'title', 'description'].includes(key))
        out.allOf = [...(out.allOf ?? []), { [key]: value }];
    }
  }
  return out;
}

/**
 * Closes every object schema that lists properties (`unevaluatedProperties: false`, which also sees
 * what `oneOf`/`if` branches declare). A branch of such a schema is left open: the parent closes it.
 */
function closed(schema: Json, insideObject = false): Json {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out = merged(schema);
  const isObject = Boolean(out.properties) || insideObject;
  for (const key of ['oneOf', 'anyOf', 'allOf'])
    if (out[key]) out[key] = out[key].map((b: Json) => closed(b, isObject));
  for (const key of ['if', 'then', 'else']) if (out[key]) out[key] = closed(out[key], isObject);
  for (const key of ['items', 'not', 'additionalProperties']) {
    if (out[key] && typeof out[key] === 'object') out[key] = closed(out[key]);
  }
  if (out.prefixItems) out.prefixItems = out.prefixItems.map((b: Json) => closed(b));
  if (out.properties)
    out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, closed(v)]));
  if (
    out.properties &&
    !insideObject &&
    out.additionalProperties === undefined &&
    out.unevaluatedProperties === undefined
  ) {
    out.unevaluatedProperties = false;
  }
  return out;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

interface Case {
  where: string;
  schema: Json;
  value: Json;
}
const cases: Case[] = [];
for (const [path, item] of Object.entries(inline(doc.paths) as Json)) {
  for (const [method, op] of Object.entries(item as Json) as [string, Json][]) {
    const media = [
      ...Object.entries(op.requestBody?.content ?? {}).map(([type, m]) => [`body ${type}`, m] as const),
      ...Object.entries(op.responses ?? {}).flatMap(([status, r]: [string, Json]) =>
        Object.entries(r.content ?? {}).map(([type, m]) => [`${status} ${type}`, m] as const),
      ),
    ];
    for (const [where, m] of media as [string, Json][]) {
      for (const [name, example] of Object.entries(m.examples ?? {}) as [string, Json][]) {
        cases.push({
          where: `${method.toUpperCase()} ${path} ${where} ${name}`,
          schema: m.schema,
          value: example.value,
        });
      }
    }
    for (const p of op.parameters ?? []) {
      for (const [name, example] of Object.entries(p.examples ?? {}) as [string, Json][]) {
        cases.push({
          where: `${method.toUpperCase()} ${path} parameter ${p.name} ${name}`,
          schema: p.schema,
          value: example.value,
        });
      }
    }
  }
}
for (const [name, schema] of Object.entries(inline(doc.components.schemas) as Json) as [string, Json][]) {
  (schema.examples ?? []).forEach((value: Json, i: number) => {
    cases.push({ where: `schema ${name} example ${i}`, schema, value });
  });
}

describe('examples of the bundled document', () => {
  it('exist in numbers', () => {
    expect(cases.length).toBeGreaterThan(300);
  });

  it.each(cases)('$where is valid against its closed schema', ({ schema, value }) => {
    const validate = ajv.compile(closed(schema));
    const valid = validate(value);
    expect(valid ? [] : validate.errors?.slice(0, 3)).toEqual([]);
  });
});
