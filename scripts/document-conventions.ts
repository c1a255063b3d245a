// Checks of the document's own conventions that Redocly's rules cannot express, run by
// `npm run lint:document`. `x-gaps` items must be strings: an unquoted `: ` inside an item makes
// YAML read it as a one-key object, which the docs page then shows as `[object Object]`. A query
// parameter that admits a reserved character says `allowReserved` (the validator refuses one sent
// unencoded otherwise, a reason no documented condition gives); a form body's object and array
// fields have an Encoding Object naming the notation the server reads (ADR 22); and the links
// (document-links.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { linkProblems } from './document-links.ts';
import { type Json, loadDocument, operationsOf, schemaProperties, schemaTypes } from './document-source.ts';

/** Every `.yaml` file under `dir`, recursively (the generated `bundled/` folder excluded). */
export function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'bundled' || name === 'released' ? [] : yamlFiles(path);
    return name.endsWith('.yaml') ? [path] : [];
  });
}

/** Where a parsed YAML value holds an `x-gaps` item that is not a string (a JSON-pointer-like path). */
export function nonStringGaps(node: unknown, at = ''): string[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => nonStringGaps(item, `${at}/${i}`));
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => {
    const inside = nonStringGaps(value, `${at}/${key}`);
    if (key !== 'x-gaps') return inside;
    if (!Array.isArray(value)) return [`${at}/x-gaps is not a list`, ...inside];
    const bad = value.flatMap((item, i) => (typeof item === 'string' ? [] : [`${at}/x-gaps/${i} is not a string`]));
    return [...bad, ...inside];
  });
}

/** RFC 3986's reserved characters: express-openapi-validator refuses them unencoded in a query value. */
export const RESERVED = ":/?#[]@!$&'()*+,;=";

/** Whether a parameter schema admits a value holding a reserved character (by its type, enum and pattern). */
export function admitsReserved(schema: Json): boolean {
  if (!schema || typeof schema !== 'object') return false;
  for (const key of ['oneOf', 'anyOf']) if ((schema[key] ?? []).some(admitsReserved)) return true;
  if (Array.isArray(schema.enum)) return schema.enum.some((v: unknown) => typeof v === 'string' && hasReserved(v));
  if (typeof schema.const === 'string') return hasReserved(schema.const);
  const types = schemaTypes(schema);
  if (types.has('array')) return admitsReserved(schema.items);
  if (!types.has('string') && !types.has('object')) return false;
  if (typeof schema.pattern !== 'string') return true;
  const pattern = new RegExp(schema.pattern, 'u');
  const samples = [schema.example, ...(schema.examples ?? []), 'a', '1', 'ab1'].filter((v) => typeof v === 'string');
  return [...RESERVED].some((c) =>
    samples.some((v: string) =>
      [v, c, c.repeat(3), `${v}${c}`, `${c}${v}`, `${v}${c}${v}`, `${v.slice(0, 1)}${c}${v.slice(1)}`].some(
        (t) => hasReserved(t) && pattern.test(t),
      ),
    ),
  );
}

const hasReserved = (value: string) => [...RESERVED].some((c) => value.includes(c));

/** Query parameters that admit a reserved character and do not say `allowReserved`. */
export function reservedQueryProblems(doc: Json): string[] {
  return operationsOf(doc).flatMap(({ method, path, op }) =>
    [...(doc.paths[path].parameters ?? []), ...(op.parameters ?? [])]
      .filter((p: Json) => p.in === 'query' && !p.allowReserved && admitsReserved(p.schema))
      .map(
        (p: Json) =>
          `${method} ${path}: query ${p.name} admits a reserved character (${RESERVED}) but has no allowReserved: true (the validator would refuse it unencoded)`,
      ),
  );
}

/**
 * Form bodies whose object or array fields lack the Encoding Object of the notation the server
 * reads: `deepObject` exploded for an object (`notifications[marketing]=false`), `form` exploded for
 * an array (`items=1&items=2`).
 */
export function formEncodingProblems(doc: Json): string[] {
  return operationsOf(doc).flatMap(({ method, path, op }) => {
    const form = op.requestBody?.content?.['application/x-www-form-urlencoded'];
    if (!form) return [];
    return Object.entries(schemaProperties(form.schema)).flatMap(([name, schema]) => {
      const types = schemaTypes(schema);
      const want = types.has('object') ? 'deepObject' : types.has('array') ? 'form' : undefined;
      const encoding = form.encoding?.[name];
      if (!want)
        return encoding
          ? [`${method} ${path}: form field ${name} is neither object nor array but has an encoding`]
          : [];
      if (encoding?.style === want && encoding.explode === true) return [];
      return [
        `${method} ${path}: form field ${name} needs encoding {style: ${want}, explode: true} (the notation the server reads)`,
      ];
    });
  });
}

/** The convention problems of every source file under `openapiDir`, one line each. */
export function conventionProblems(openapiDir: string): string[] {
  const gaps = yamlFiles(openapiDir).flatMap((file) =>
    nonStringGaps(parse(readFileSync(file, 'utf8'))).map(
      (problem) => `${relative(join(openapiDir, '..'), file)}: ${problem} (quote the item)`,
    ),
  );
  const api = loadDocument(join(openapiDir, 'openapi.yaml'));
  const helpers = loadDocument(join(openapiDir, 'test-helpers.yaml'));
  return [
    ...gaps,
    ...[...reservedQueryProblems(api), ...formEncodingProblems(api), ...linkProblems(api)].map(
      (p) => `openapi.yaml: ${p}`,
    ),
    ...reservedQueryProblems(helpers).map((p) => `test-helpers.yaml: ${p}`),
  ];
}
