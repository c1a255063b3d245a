// `npm run check:breaking`: compares the bundled document with the last released one
// (`openapi/released/<version>.json`, the newest version in CHANGELOG.md) and fails when it breaks
// clients of that release without a new major version. ADR 0005 says why this is our own checker:
// the maintained tools did not run here (oasdiff and openapi-changes are Go binaries fetched from
// GitHub at install; @useoptic/optic crashes at start-up under Node 20 and 24).
//
// What counts as breaking, for a client written against the released document:
// - an operation removed (method + path);
// - a field removed from a response (any documented status, through allOf / oneOf / anyOf branches
//   and array items), or a response field's type changed;
// - a new required request field or parameter (body property, query, path or header);
// - a request enum narrowed (a value clients may send is refused), or a request type changed;
// - an operation's permission raised (`x-permission`: None < API only < Connected + API < ... 2FA < admin).
// Additions (operations, optional fields, response fields, enum values in requests) are not.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Json, resolveRef } from '../packages/contract/src/document.ts';

export interface Breaking {
  operation: string;
  rule:
    | 'operation-removed'
    | 'response-field-removed'
    | 'type-changed'
    | 'new-required-input'
    | 'enum-narrowed'
    | 'permission-raised';
  detail: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const PERMISSION_RANK: Record<string, number> = {
  None: 0,
  'API only': 1,
  'Connected + API': 2,
  'Connected + API + 2FA': 3,
  admin: 4,
};

/** A schema's JSON types as a set (`type` may be a string or a list; none means any). */
function typesOf(schema: Json): Set<string> | undefined {
  if (schema?.type === undefined) return undefined;
  return new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
}

/**
 * A schema flattened to what a client relies on: its types, enum, properties (merged over allOf and
 * over every oneOf/anyOf branch, so a field counts as present if any branch has it), required
 * names (allOf only: a branch's requirement is not unconditional), and array items.
 */
interface Shape {
  types?: Set<string>;
  enum?: unknown[];
  properties: Map<string, Json>;
  required: Set<string>;
  items?: Json;
}

function shapeOf(doc: Json, raw: Json, depth = 0): Shape {
  const schema = resolveRef(doc, raw) ?? {};
  const shape: Shape = { properties: new Map(), required: new Set(schema.required ?? []) };
  shape.types = typesOf(schema);
  if (Array.isArray(schema.enum)) shape.enum = schema.enum;
  if (schema.items) shape.items = schema.items;
  for (const [name, sub] of Object.entries(schema.properties ?? {})) shape.properties.set(name, sub);
  if (depth > 20) return shape;
  for (const part of schema.allOf ?? []) {
    const inner = shapeOf(doc, part, depth + 1);
    // Two allOf parts describing one field both apply: keep both, as an allOf of their own.
    for (const [k, v] of inner.properties) {
      const had = shape.properties.get(k);
      shape.properties.set(k, had === undefined ? v : { allOf: [had, v] });
    }
    for (const r of inner.required) shape.required.add(r);
    shape.types ??= inner.types;
    shape.enum ??= inner.enum;
    shape.items ??= inner.items;
  }
  for (const part of [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) {
    const inner = shapeOf(doc, part, depth + 1);
    for (const [k, v] of inner.properties) if (!shape.properties.has(k)) shape.properties.set(k, v);
    shape.items ??= inner.items;
  }
  return shape;
}

/** Response fields of `before` missing or retyped in `after` (recursively). */
function compareResponse(
  docs: [Json, Json],
  schemas: [Json, Json],
  at: string,
  operation: string,
  out: Breaking[],
  depth = 0,
): void {
  if (depth > 12) return;
  const [before, after] = [shapeOf(docs[0], schemas[0]), shapeOf(docs[1], schemas[1])];
  if (before.types && after.types && ![...before.types].every((t) => after.types!.has(t)))
    out.push({
      operation,
      rule: 'type-changed',
      detail: `response ${at || '(body)'}: ${[...before.types]} → ${[...after.types]}`,
    });
  for (const [name, sub] of before.properties) {
    const next = after.properties.get(name);
    const path = at ? `${at}.${name}` : name;
    if (next === undefined) out.push({ operation, rule: 'response-field-removed', detail: `response ${path}` });
    else compareResponse(docs, [sub, next], path, operation, out, depth + 1);
  }
  if (before.items && after.items)
    compareResponse(docs, [before.items, after.items], `${at}[]`, operation, out, depth + 1);
}

/** Request fields that became required, enums that lost values, types that changed (recursively). */
function compareRequest(
  docs: [Json, Json],
  schemas: [Json, Json],
  at: string,
  operation: string,
  out: Breaking[],
  depth = 0,
): void {
  if (depth > 12) return;
  const [before, after] = [shapeOf(docs[0], schemas[0]), shapeOf(docs[1], schemas[1])];
  const label = at || '(body)';
  if (before.types && after.types && ![...before.types].every((t) => after.types!.has(t)))
    out.push({
      operation,
      rule: 'type-changed',
      detail: `request ${label}: ${[...before.types]} → ${[...after.types]}`,
    });
  if (after.enum) {
    const lost = (before.enum ?? []).filter((v) => !after.enum!.includes(v));
    if (!before.enum)
      out.push({
        operation,
        rule: 'enum-narrowed',
        detail: `request ${label}: now limited to ${JSON.stringify(after.enum)}`,
      });
    else if (lost.length > 0)
      out.push({
        operation,
        rule: 'enum-narrowed',
        detail: `request ${label}: ${JSON.stringify(lost)} no longer accepted`,
      });
  }
  for (const name of after.required)
    if (!before.required.has(name))
      out.push({ operation, rule: 'new-required-input', detail: `request body ${at ? `${at}.` : ''}${name}` });
  for (const [name, sub] of before.properties) {
    const next = after.properties.get(name);
    if (next !== undefined) compareRequest(docs, [sub, next], at ? `${at}.${name}` : name, operation, out, depth + 1);
  }
  if (before.items && after.items)
    compareRequest(docs, [before.items, after.items], `${at}[]`, operation, out, depth + 1);
}

function parameters(doc: Json, pathItem: Json, op: Json): Map<string, Json> {
  const all = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])].map((p: Json) => resolveRef(doc, p));
  return new Map(all.map((p: Json) => [`${p.in} ${p.name}`, p]));
}

/** Every breaking change from `released` to `current`. */
export function breakingChanges(released: Json, current: Json): Breaking[] {
  const out: Breaking[] = [];
  const docs: [Json, Json] = [released, current];
  for (const [path, beforeItem] of Object.entries<Json>(released.paths ?? {})) {
    const afterItem = current.paths?.[path];
    for (const method of METHODS) {
      const before = beforeItem[method];
      if (!before) continue;
      const operation = `${method.toUpperCase()} ${path}`;
      const after = afterItem?.[method];
      if (!after) {
        out.push({ operation, rule: 'operation-removed', detail: before.operationId ?? '' });
        continue;
      }
      const [was, is] = [PERMISSION_RANK[before['x-permission']], PERMISSION_RANK[after['x-permission']]];
      if (was !== undefined && is !== undefined && is > was)
        out.push({
          operation,
          rule: 'permission-raised',
          detail: `${before['x-permission']} → ${after['x-permission']}`,
        });

      const [paramsBefore, paramsAfter] = [
        parameters(released, beforeItem, before),
        parameters(current, afterItem, after),
      ];
      for (const [key, param] of paramsAfter) {
        const old = paramsBefore.get(key);
        if (param.required && !old?.required)
          out.push({ operation, rule: 'new-required-input', detail: `parameter ${key}` });
        if (old?.schema && param.schema)
          compareRequest(docs, [old.schema, param.schema], `parameter ${key}`, operation, out);
      }

      const [bodyBefore, bodyAfter] = [
        resolveRef(released, before.requestBody),
        resolveRef(current, after.requestBody),
      ];
      if (bodyAfter?.required && !bodyBefore?.required)
        out.push({ operation, rule: 'new-required-input', detail: 'request body' });
      for (const [type, media] of Object.entries<Json>(bodyBefore?.content ?? {})) {
        const next = bodyAfter?.content?.[type];
        if (next?.schema && media.schema) compareRequest(docs, [media.schema, next.schema], '', operation, out);
      }

      for (const [status, response] of Object.entries<Json>(before.responses ?? {})) {
        const next = after.responses?.[status];
        if (!next) continue; // a status no longer sent is not a field a client reads from a success
        const [r0, r1] = [resolveRef(released, response), resolveRef(current, next)];
        for (const [type, media] of Object.entries<Json>(r0.content ?? {})) {
          const nextMedia = r1.content?.[type];
          if (!nextMedia) {
            out.push({ operation, rule: 'response-field-removed', detail: `response ${status} ${type}` });
            continue;
          }
          if (media.schema && nextMedia.schema)
            compareResponse(docs, [media.schema, nextMedia.schema], '', `${operation} ${status}`, out);
        }
      }
    }
  }
  return out;
}

/** The released versions in CHANGELOG.md, newest first (`## [1.2.0] - 2026-11-22`). */
export function releasedVersions(changelog: string): string[] {
  return [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\]/gm)].map((m) => m[1]!);
}

const major = (version: string) => Number(version.split('.')[0]);

/** What the check reports: the breaking changes, and whether the version allows them. */
export function checkRelease(released: Json, current: Json): { breaking: Breaking[]; problems: string[] } {
  const breaking = breakingChanges(released, current);
  const problems: string[] = [];
  const [was, is] = [String(released.info?.version), String(current.info?.version)];
  if (breaking.length > 0 && major(is) <= major(was))
    problems.push(
      `${breaking.length} breaking change(s) against the released ${was}, but info.version is ${is}: raise the major version or keep the change compatible.`,
    );
  return { breaking, problems };
}

if (import.meta.main) {
  const root = resolve(import.meta.dirname, '..');
  const [latest] = releasedVersions(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'));
  if (!latest) {
    console.error('CHANGELOG.md names no released version (## [x.y.z] - date).');
    process.exit(1);
  }
  const released = JSON.parse(readFileSync(join(root, 'openapi/released', `${latest}.json`), 'utf8'));
  const current = JSON.parse(readFileSync(join(root, 'openapi/bundled/openapi.json'), 'utf8'));
  const { breaking, problems } = checkRelease(released, current);
  for (const b of breaking) console.log(`${b.rule.padEnd(24)} ${b.operation}: ${b.detail}`);
  if (problems.length > 0) {
    for (const p of problems) console.error(p);
    process.exit(1);
  }
  console.log(`No breaking change against the released ${latest} (info.version ${current.info.version}).`);
}
