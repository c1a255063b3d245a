// The links of the document (ADR 22), checked so that a generic stateful tool can chain the seed's
// flows from them alone: every link names an operation and parameters that exist and runtime
// expressions that point into the schemas they read (a `$request.header.X` only for a declared
// header parameter: Schemathesis refuses a link that reads an undeclared one, the
// `Authorization` header included); the login links to every operation that needs its JWT; and
// every identifier an operation takes (a path parameter, a required `...id`/`...Id`/`ids`/`ticket`/
// `user`/`url`/`trade`/`secret` field, enums aside) is set by some link from an operation that
// returns it.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { type Json, operationsOf, type SourceOperation, schemaProperties, schemaTypes } from './document-source.ts';

/** The operation whose answer carries the JWT (seed: "Authentication", Login). */
export const LOGIN = 'postUserLogin';
export const JWT = '$response.body#/content/jwt';
export const AUTHORIZATION = 'header.Authorization';

/** Names of the inputs that carry an identifier the API hands out. */
const ID_NAME = /(^|[a-z])(id|ids|Id|Ids)$|^(ticket|trade|user|url|identifier|secret)$/;

/** Whether an operation needs a bearer JWT (the global requirement) or accepts one (`[{}, bearer]`). */
export const bearer = (doc: Json, op: Json): 'needs' | 'accepts' | 'no' => {
  const security: Json[] = op.security ?? doc.security ?? [];
  if (!security.some((s) => s.bearerAuth)) return 'no';
  return security.some((s) => Object.keys(s).length === 0) ? 'accepts' : 'needs';
};

/** The runtime expressions inside a link value: the whole string (`$request.body#/x`) or `{$...}` parts. */
export function expressionsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(expressionsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(expressionsIn);
  if (typeof value !== 'string') return [];
  if (value.startsWith('$')) return [value];
  return [...value.matchAll(/\{(\$[^}]+)\}/g)].map((m) => m[1]!);
}

/**
 * The schema at a JSON pointer inside a schema (array items for numbers, properties otherwise), or
 * undefined. Each branch of a composition (`oneOf`, `anyOf`, `allOf`) is a reading of its own, tried
 * in turn: `content/paymentReviews/0/id` goes through the branch where `paymentReviews` is a list,
 * although another branch of the same `oneOf` has a `paymentReviews` count (`GET /user/notifications`).
 */
export function schemaAt(schema: Json, pointer: string): Json | undefined {
  const keys = pointer
    .split('/')
    .slice(1)
    .map((raw) => raw.replaceAll('~1', '/').replaceAll('~0', '~'));
  return walk(schema, keys, 0);
}

/** Composition branches deeper than this are not followed (a recursive schema ends the walk). */
const MAX_BRANCH_DEPTH = 10;

function walk(at: Json, keys: string[], depth: number): Json | undefined {
  if (keys.length === 0) return at;
  if (!at || typeof at !== 'object' || depth > MAX_BRANCH_DEPTH) return undefined;
  const [key, ...rest] = keys as [string, ...string[]];
  for (const child of children(at, key)) {
    const found = walk(child, rest, 0);
    if (found) return found;
  }
  for (const branch of ['oneOf', 'anyOf', 'allOf'].flatMap((k) => at[k] ?? [])) {
    const found = walk(branch, keys, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The schemas a schema itself (not its branches) gives `key`: an item, a property, or an open object's value. */
function children(at: Json, key: string): Json[] {
  const out: Json[] = [];
  if (/^\d+$/.test(key) && [at.type].flat().includes('array'))
    out.push(at.prefixItems?.[Number(key)] ?? at.items ?? {});
  out.push(at.properties?.[key]);
  if (typeof at.additionalProperties === 'object') out.push(at.additionalProperties);
  // An open object (`additionalProperties: true`: the seed does not show its fields) holds anything.
  if (at.additionalProperties === true) out.push({});
  return out.filter(Boolean);
}

const jsonBody = (op: Json): Json => op.requestBody?.content?.['application/json']?.schema;

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
// Parameters travel as text: a literal `3` or `'3'` is what a tool puts in the URL either way.
const ajvText = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, coerceTypes: true });
addFormats.default(ajvText);

/** Why the target operation would refuse a literal value for `schema`, or undefined when it takes it. */
function refusal(schema: Json, value: unknown, text = false): string | undefined {
  const validate = (text ? ajvText : ajv).compile(schema);
  if (validate(structuredClone(value))) return undefined;
  return (validate.errors ?? [])
    .filter((e) => !['allOf', 'anyOf', 'oneOf', 'if'].includes(e.keyword))
    .slice(0, 2)
    .map((e) => `${e.instancePath || 'the value'} ${e.message}`)
    .join('; ');
}

/** Whether a literal value of a link has a JSON type the schema admits. */
function admitsType(schema: Json, value: unknown): boolean {
  const types = schemaTypes(schema);
  if (types.size === 0) return true;
  const type = Array.isArray(value)
    ? 'array'
    : value === null
      ? 'null'
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? 'integer'
          : 'number'
        : typeof value;
  return types.has(type) || (type === 'integer' && types.has('number'));
}

/** What is wrong with one expression of a link on `source`'s response `status`. */
function expressionProblem(doc: Json, source: SourceOperation, status: string, expression: string): string | undefined {
  const m =
    /^\$(url|method|statusCode|request\.(path|query|header)\.([\w-]+)|(request|response)\.body#(\/.*)?|response\.header\.([\w-]+))$/.exec(
      expression,
    );
  if (!m) return `${expression} is not a runtime expression`;
  const params: Json[] = [...(doc.paths[source.path].parameters ?? []), ...(source.op.parameters ?? [])];
  if (m[2] && !params.some((p) => p.in === m[2] && p.name === m[3]))
    return `${expression}: ${source.id} has no ${m[2]} parameter ${m[3]}`;
  if (m[4] === 'request' && !schemaAt(jsonBody(source.op), m[5] ?? ''))
    return `${expression}: not in the request body of ${source.id}`;
  if (m[4] === 'response') {
    const schema = source.op.responses?.[status]?.content?.['application/json']?.schema;
    if (!schemaAt(schema, m[5] ?? '')) return `${expression}: not in the ${status} answer of ${source.id}`;
  }
  return undefined;
}

/** The JSON types an expression gives (a parameter or header is text), or undefined when unknown. */
function expressionTypes(source: SourceOperation, status: string, expression: string): Set<string> | undefined {
  if (/^\$request\.(path|query|header)\./.test(expression)) return new Set(['string']);
  const m = /^\$(request|response)\.body#(\/.*)$/.exec(expression);
  if (!m) return undefined;
  const schema =
    m[1] === 'request' ? jsonBody(source.op) : source.op.responses?.[status]?.content?.['application/json']?.schema;
  const types = schemaTypes(schemaAt(schema, m[2]!));
  return types.size ? types : undefined;
}

interface FoundLink {
  source: SourceOperation;
  status: string;
  name: string;
  link: Json;
}

/** Every link of the document with the operation and response it sits on. */
export function linksOf(doc: Json): FoundLink[] {
  return operationsOf(doc).flatMap((source) =>
    Object.entries(source.op.responses ?? {}).flatMap(([status, response]) =>
      Object.entries((response as Json)?.links ?? {}).map(([name, link]) => ({ source, status, name, link })),
    ),
  );
}

/** The identifier inputs of an operation: `path item`, `query transactionId`, `body cartId`. */
export function identifierInputs(doc: Json, o: SourceOperation): { in: string; name: string }[] {
  const params: Json[] = [...(doc.paths[o.path].parameters ?? []), ...(o.op.parameters ?? [])];
  const fromEnum = (schema: Json) => Array.isArray(schema?.enum) || schema?.const !== undefined;
  const inputs = params
    .filter((p) => !fromEnum(p.schema) && (p.in === 'path' || (p.required && ID_NAME.test(p.name))))
    .map((p) => ({ in: p.in as string, name: p.name as string }));
  const body = jsonBody(o.op);
  const required: string[] = body?.required ?? [];
  for (const [name, schema] of Object.entries(schemaProperties(body)))
    if (required.includes(name) && ID_NAME.test(name) && !fromEnum(schema)) inputs.push({ in: 'body', name });
  return inputs;
}

/** Whether a link sets an input: a (qualified) parameter, or a field of its request body. */
const sets = (link: Json, input: { in: string; name: string }): boolean =>
  input.in === 'body'
    ? link.requestBody !== null && typeof link.requestBody === 'object' && input.name in link.requestBody
    : Object.keys(link.parameters ?? {}).some((k) => k === input.name || k === `${input.in}.${input.name}`);

/** Every problem of the document's links, one line each. */
export function linkProblems(doc: Json): string[] {
  const operations = operationsOf(doc);
  const byId = new Map(operations.map((o) => [o.id, o]));
  const links = linksOf(doc);
  const problems: string[] = [];
  for (const { source, status, name, link } of links) {
    const at = `${source.id} ${status} link ${name}`;
    const target = byId.get(link.operationId);
    if (!target) {
      problems.push(`${at}: operationId ${link.operationId} is not an operation of the document`);
      continue;
    }
    const params: Json[] = [...(doc.paths[target.path].parameters ?? []), ...(target.op.parameters ?? [])];
    for (const key of Object.keys(link.parameters ?? {})) {
      if (key === AUTHORIZATION) continue;
      const [where, pname] = key.includes('.') ? key.split('.', 2) : [undefined, key];
      const param = params.find((p) => p.name === pname && (!where || p.in === where));
      const value = link.parameters[key];
      if (!param) problems.push(`${at}: ${target.id} has no parameter ${key}`);
      else if (param.schema && expressionsIn(value).length === 0) {
        const off = refusal(param.schema, value, true);
        if (off) problems.push(`${at}: ${target.id} would refuse ${key} ${JSON.stringify(value)} (${off})`);
      }
    }
    if (link.requestBody !== undefined) {
      const body = jsonBody(target.op);
      if (!body) problems.push(`${at}: ${target.id} takes no body`);
      else if (typeof link.requestBody !== 'object' || link.requestBody === null || Array.isArray(link.requestBody)) {
        // Not an object of fields: `null` is a JSON null body, not "no body" (omit requestBody for that).
        const off = refusal(body, link.requestBody);
        if (off)
          problems.push(`${at}: ${target.id} would refuse the body ${JSON.stringify(link.requestBody)} (${off})`);
      } else if (link.requestBody && typeof link.requestBody === 'object') {
        const known = schemaProperties(body);
        for (const [field, value] of Object.entries(link.requestBody)) {
          const off = known[field] && expressionsIn(value).length === 0 ? refusal(known[field], value) : undefined;
          if (!known[field]) problems.push(`${at}: ${target.id}'s body has no field ${field}`);
          else if (expressionsIn(value).length === 0 && !admitsType(known[field], value))
            problems.push(
              `${at}: ${JSON.stringify(value)} is not ${[...schemaTypes(known[field])].join(' or ')} (${field})`,
            );
          else if (off) problems.push(`${at}: ${target.id} would refuse ${field} ${JSON.stringify(value)} (${off})`);
          else if (typeof value === 'string' && value.startsWith('$')) {
            const gives = expressionTypes(source, status, value);
            const wants = schemaTypes(known[field]);
            if (
              gives &&
              wants.size &&
              ![...gives].some((t) => wants.has(t) || (t === 'integer' && wants.has('number')))
            )
              problems.push(
                `${at}: ${value} gives ${[...gives].join(' or ')}, ${field} takes ${[...wants].join(' or ')}`,
              );
          }
        }
        for (const field of body.required ?? [])
          if (!(field in link.requestBody)) problems.push(`${at}: the body lacks ${target.id}'s required ${field}`);
      }
    }
    for (const expression of expressionsIn([link.parameters ?? {}, link.requestBody ?? null])) {
      const problem = expressionProblem(doc, source, status, expression);
      if (problem) problems.push(`${at}: ${problem}`);
    }
  }
  for (const o of operations) {
    const givesJwt = (l: FoundLink) =>
      l.source.id === LOGIN &&
      l.link.operationId === o.id &&
      String(l.link.parameters?.[AUTHORIZATION] ?? '').includes(`{${JWT}}`);
    if (o.id !== LOGIN && bearer(doc, o.op) === 'needs' && !links.some(givesJwt))
      problems.push(`${o.id} needs a JWT but no link of ${LOGIN} gives it (${AUTHORIZATION}: 'Bearer {${JWT}}')`);
    for (const input of identifierInputs(doc, o))
      if (!links.some((l) => l.link.operationId === o.id && sets(l.link, input)))
        problems.push(`${o.id} takes the identifier ${input.in} ${input.name} but no link sets it`);
  }
  return problems;
}
