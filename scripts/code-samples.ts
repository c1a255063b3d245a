// Code samples of an operation for the docs page (`x-codeSamples`): a curl line and a call with the
// typed client (packages/client). Values come from the document's own examples, so a sample is a
// request the document describes; code-samples.test.ts type-checks every TypeScript sample.

// biome-ignore lint/suspicious/noExplicitAny: the bundled document is plain JSON
type Json = any;

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
  return (op.parameters ?? []).map((p: Json) =>
    p.$ref
      ? p.$ref
          .split('/')
          .slice(1)
          .reduce((node: Json, key: string) => node[key], doc)
      : p,
  );
}

const needsUser = (op: Json) => !['None', 'API only'].includes(op['x-permission']);

export function curlSample(method: string, path: string, op: Json): string {
  const body = exampleBody(op);
  const auth = needsUser(op) ? " \\\n  -H 'Authorization: Bearer $JWT'" : '';
  const data =
    body === undefined ? '' : ` \\\n  -H 'Content-Type: application/json' \\\n  -d '${JSON.stringify(body)}'`;
  return `curl -X ${method.toUpperCase()} "$BASE_URL${path}"${auth}${data}`;
}

/** The call of one operation with the typed client, from creating it to the payload. */
export function clientSample(doc: Json, method: string, path: string, op: Json): string {
  const parameters = parametersOf(doc, op);
  const group = (where: string) =>
    Object.fromEntries(
      parameters
        .filter((p) => p.in === where && (p.required || where === 'path'))
        .map((p) => [p.name, exampleValue(p)]),
    );
  const params: Record<string, unknown> = {};
  const pathParams = group('path');
  const queryParams = group('query');
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
