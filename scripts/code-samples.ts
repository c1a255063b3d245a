// Code samples of an operation for the docs page (`x-codeSamples`): a curl line, a call with the
// typed client (packages/client) and a Python call with `requests`. Values come from the document's
// own examples, so a sample is a request the document describes; code-samples.test.ts type-checks
// every TypeScript sample and byte-compiles every Python one.

import { type Json, resolveRef } from '../packages/contract/src/document.ts';

/** The example request body of an operation, if it documents one. */
export function exampleBody(op: Json): unknown {
  const media = op.requestBody?.content?.['application/json'];
  const first = Object.values(media?.examples ?? {})[0] as Json;
  return first?.value ?? media?.example;
}

/** A value for a parameter: its example, its first named example, its schema's example, enum or type. */
export function exampleValue(parameter: Json): unknown {
  if (parameter.example !== undefined) return parameter.example;
  const named = Object.values(parameter.examples ?? {})[0] as Json;
  if (named?.value !== undefined) return named.value;
  const schema = parameter.schema ?? {};
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.[0] !== undefined) return schema.examples[0];
  if (schema.enum?.[0] !== undefined) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.type === 'integer' || schema.type === 'number') return Math.max(1, schema.minimum ?? 1);
  if (schema.type === 'boolean') return true;
  return parameter.name;
}

/** The operation's parameters with `$ref`s resolved against the document. */
function parametersOf(doc: Json, op: Json): Json[] {
  return (op.parameters ?? []).map((p: Json) => resolveRef(doc, p));
}

const needsUser = (op: Json) => !['None', 'API only'].includes(op['x-permission']);

/** Example values of the path parameters and of the required query parameters. */
function requestParameters(doc: Json, op: Json): { path: Record<string, unknown>; query: Record<string, unknown> } {
  const parameters = parametersOf(doc, op);
  const group = (where: string) =>
    Object.fromEntries(
      parameters
        .filter((p) => p.in === where && (p.required || where === 'path'))
        .map((p) => [p.name, exampleValue(p)]),
    );
  return { path: group('path'), query: group('query') };
}

/** The path template with each `{name}` replaced by its example value. */
const filledPath = (path: string, values: Record<string, unknown>) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(values[name] ?? name)));

/** The URL path with the example values of its path parameters and required query parameters. */
export function exampleUrl(doc: Json, path: string, op: Json): string {
  const { path: inPath, query } = requestParameters(doc, op);
  const filled = filledPath(path, inPath);
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return search ? `${filled}?${search}` : filled;
}

export function curlSample(doc: Json, method: string, path: string, op: Json): string {
  const body = exampleBody(op);
  const auth = needsUser(op) ? ' \\\n  -H "Authorization: Bearer $JWT"' : '';
  // The body is single-quoted for the shell: a quote inside it is closed, escaped and reopened.
  const data =
    body === undefined
      ? ''
      : ` \\\n  -H 'Content-Type: application/json' \\\n  -d '${JSON.stringify(body).replaceAll("'", "'\\''")}'`;
  return `curl -X ${method.toUpperCase()} "$BASE_URL${exampleUrl(doc, path, op)}"${auth}${data}`;
}

/** The call of one operation with the typed client, from creating it to the payload. */
export function clientSample(doc: Json, method: string, path: string, op: Json): string {
  const { path: pathParams, query: queryParams } = requestParameters(doc, op);
  const params: Record<string, unknown> = {};
  if (Object.keys(pathParams).length) params.path = pathParams;
  if (Object.keys(queryParams).length) params.query = queryParams;
  const init: Record<string, unknown> = {};
  if (Object.keys(params).length) init.params = params;
  const body = exampleBody(op);
  if (body !== undefined) init.body = body;
  else if (op.requestBody?.required) init.body = {};
  const args = Object.keys(init).length ? `, ${JSON.stringify(init, null, 2).replaceAll('\n', '\n  ')}` : '';
  const key = needsUser(op) ? '\n  apiKey: process.env.API_KEY,' : '';
  return [
    "import { createMarketplaceClient } from '@marketplace/client';",
    '',
    `const market = createMarketplaceClient({\n  baseUrl: process.env.BASE_URL ?? 'http://127.0.0.1:8080',${key}\n});`,
    `const payload = await market.${method.toUpperCase()}('${path}'${args});`,
  ].join('\n');
}

/** A documented business message of the operation to test for: the last one (the ones before are mostly input checks) without a `<field>` placeholder. */
export function sampleMessage(op: Json): string | undefined {
  const messages: string[] = (op['x-error-messages'] ?? []).map((m: Json) => m.message);
  return messages.filter((m) => !m.includes('<')).at(-1);
}

/** The client's call of one operation with its error handling: the documented message and the error's kind. */
export function clientErrorSample(doc: Json, method: string, path: string, op: Json): string {
  const call = clientSample(doc, method, path, op)
    .replace(
      "import { createMarketplaceClient } from '@marketplace/client';",
      "import { createMarketplaceClient, isMarketplaceError } from '@marketplace/client';",
    )
    .split('\n');
  const last = call.findIndex((line) => line.startsWith('const payload = '));
  const message = sampleMessage(op);
  const m = method.toLowerCase();
  return [
    ...call.slice(0, last),
    'try {',
    // The call's first line moves into the block; the lines after it are indented already.
    `  ${call[last]}`,
    ...call.slice(last + 1),
    '  console.log(payload);',
    '} catch (error) {',
    `  if (!isMarketplaceError(error, '${m}', '${path}')) throw error;`,
    // A documented message is tested by name; everything else by its kind.
    '  // error.kind: business (HTTP 300), forbidden, not_found, rate_limited (after the retries), server, network, cors, aborted.',
    ...(message
      ? [
          `  if (error.is(${JSON.stringify(message)})) console.log(error.message); // only documented messages compile`,
          '  else console.error(error.kind, error.status, error.message);',
        ]
      : ['  console.error(error.kind, error.status, error.message);']),
    '}',
  ].join('\n');
}

/** A JSON value written as a Python literal (`true` → `True`, `null` → `None`), indented by `indent`. */
export function pythonLiteral(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  // A JSON string or number is a valid Python literal as written.
  if (typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}    `;
  const entries = Array.isArray(value)
    ? value.map((v) => pythonLiteral(v, inner))
    : Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (!entries.length) return `${open}${close}`;
  return `${open}\n${entries.map((e) => `${inner}${e},`).join('\n')}\n${indent}${close}`;
}

/** The call of one operation in Python with `requests`: URL, token, query and JSON body. */
export function pythonSample(doc: Json, method: string, path: string, op: Json): string {
  const { path: inPath, query } = requestParameters(doc, op);
  const filled = filledPath(path, inPath);
  const args = [`f"{BASE_URL}${filled.replaceAll('{', '{{').replaceAll('}', '}}')}"`];
  if (needsUser(op)) args.push('headers={"Authorization": f"Bearer {os.environ[\'JWT\']}"}');
  if (Object.keys(query).length) args.push(`params=${pythonLiteral(query, '    ')}`);
  const body = exampleBody(op) ?? (op.requestBody?.required ? {} : undefined);
  if (body !== undefined) args.push(`json=${pythonLiteral(body, '    ')}`);
  return [
    'import os',
    '',
    'import requests',
    '',
    'BASE_URL = os.environ.get("BASE_URL", "http://127.0.0.1:8080")',
    ...(needsUser(op) ? ['# JWT: content.jwt of POST /user/login with your API key.'] : []),
    '',
    `response = requests.${method.toLowerCase()}(`,
    ...args.map((a) => `    ${a},`),
    '    timeout=30,',
    ')',
    '# Business errors come back with HTTP 300 and `err: true` in the JSON envelope.',
    'payload = response.json()',
    'print(payload)',
  ].join('\n');
}
