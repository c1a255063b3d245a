// `llms.txt` (the llmstxt.org format: a title, a summary, then sections of links) and one Markdown
// page per operation under operations/, for coding assistants: what the docs page says about an
// operation (permission, rate and body limits, messages with the mock's `Prefer` header, gaps:
// scripts/docs.ts), its parameters and body fields, its answers with their example names, one
// example answer, and the curl, TypeScript and Python samples. Links are relative, so they work in
// the repository, in the installed package and wherever the folder is served.

import { type Json, resolveRef } from '../packages/contract/src/document.ts';
import { clientErrorSample, sampleMessage } from './code-samples.ts';
import { GENERATED_NOTE } from './generated-files.ts';
import { LOGIN, type ToolOperation } from './tools-operations.ts';

const cell = (text: unknown) =>
  String(text ?? '')
    .replaceAll('|', '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim();

/** A schema's type in a few words: `integer`, `string (enum: a, b)`, `array of Listing`. */
function typeOf(doc: Json, schema: Json): string {
  const named = schema?.$ref ? String(schema.$ref).split('/').pop() : undefined;
  const s = resolveRef(doc, schema) ?? {};
  if (s.enum) return `${s.type ?? 'value'} (one of ${s.enum.map((v: unknown) => `\`${v}\``).join(', ')})`;
  if (s.type === 'array') return `array of ${typeOf(doc, s.items)}`;
  return named ?? [s.type ?? 'any'].flat().join(' or ');
}

/** The properties of an object schema, `allOf` parts merged. */
function propertiesOf(doc: Json, schema: Json): { props: Record<string, Json>; required: string[] } {
  const s = resolveRef(doc, schema) ?? {};
  const parts = [s, ...(s.allOf ?? []).map((p: Json) => resolveRef(doc, p))];
  return {
    props: Object.assign({}, ...parts.map((p: Json) => p?.properties ?? {})),
    required: parts.flatMap((p: Json) => p?.required ?? []),
  };
}

const fence = (lang: string, text: string) => `\`\`\`${lang}\n${text}\n\`\`\``;

function parameterLines(doc: Json, o: ToolOperation): string[] {
  const parameters: Json[] = (o.op.parameters ?? []).map((p: Json) => resolveRef(doc, p));
  if (!parameters.length) return [];
  return [
    '### Parameters',
    '',
    '| Name | In | Type | Required | Description |',
    '|---|---|---|---|---|',
    ...parameters.map(
      (p) =>
        `| \`${p.name}\` | ${p.in} | ${cell(typeOf(doc, p.schema))} | ${p.required ? 'yes' : 'no'} | ${cell(p.description)} |`,
    ),
    '',
  ];
}

function bodyLines(doc: Json, o: ToolOperation): string[] {
  const content = o.op.requestBody?.content ?? {};
  const schema = content['application/json']?.schema;
  if (!schema) return [];
  const { props, required } = propertiesOf(doc, schema);
  const lines = [
    `### Body (${Object.keys(content)
      .map((t) => `\`${t}\``)
      .join(' or ')})`,
    '',
  ];
  if (Object.keys(props).length)
    lines.push(
      '| Field | Type | Required | Description |',
      '|---|---|---|---|',
      ...Object.entries(props).map(
        ([name, p]) =>
          `| \`${name}\` | ${cell(typeOf(doc, p))} | ${required.includes(name) ? 'yes' : 'no'} | ${cell(resolveRef(doc, p).description)} |`,
      ),
      '',
    );
  if (o.body !== undefined) lines.push('Example:', '', fence('json', JSON.stringify(o.body, null, 2)), '');
  return lines;
}

function answerLines(doc: Json, o: ToolOperation): string[] {
  const lines = [
    '## Answers',
    '',
    '| HTTP | Meaning | Named examples (the mock answers each with `Prefer`) |',
    '|---|---|---|',
  ];
  for (const [status, raw] of Object.entries(o.op.responses ?? {})) {
    const response = resolveRef(doc, raw) ?? {};
    const names = [
      ...new Set(Object.values(response.content ?? {}).flatMap((m) => Object.keys((m as Json).examples ?? {}))),
    ];
    lines.push(`| ${status} | ${cell(response.description)} | ${names.map((n) => `\`${n}\``).join(', ')} |`);
  }
  if (o.example)
    lines.push(
      '',
      `### Example answer: ${o.example.status}, \`${o.example.name}\` (\`${o.example.contentType}\`)`,
      '',
      fence(o.example.contentType.includes('json') ? 'json' : 'text', o.example.body),
    );
  return [...lines, ''];
}

/**
 * A documented error answer of an operation as `[status, example name]`: the 300 of the message
 * the client sample tests for, else its first 300, else its first error.
 */
function errorExample(doc: Json, o: ToolOperation): [string, string] | undefined {
  const named = Object.entries(o.op.responses ?? {})
    .filter(([status]) => /^[3-5]\d\d$/.test(status))
    .flatMap(([status, raw]) =>
      Object.values(resolveRef(doc, raw)?.content ?? {}).flatMap((m) =>
        Object.entries((m as Json).examples ?? {}).map(([name, example]) => {
          const value = resolveRef(doc, example)?.value;
          return { status, name, message: value?.content ?? value?.message };
        }),
      ),
    );
  const message = sampleMessage(o.op);
  const found =
    named.find((e) => e.status === '300' && e.message === message) ?? named.find((e) => e.status === '300') ?? named[0];
  return found && [found.status, found.name];
}

function clientLines(doc: Json, o: ToolOperation): string[] {
  return [
    '## With the typed client',
    '',
    '`@marketplace/client` logs in with the API key when the operation needs a user, answers the payload (not the envelope) and throws a `MarketplaceError` for every other answer:',
    '',
    fence('ts', clientErrorSample(doc, o.method, o.path, o.op)),
    '',
  ];
}

/** Where to try the operation: the mock and its `Prefer` header, failures on purpose, a sandbox. */
function tryingLines(doc: Json, o: ToolOperation): string[] {
  const error = errorExample(doc, o);
  const prefer = error ? `code=${error[0]}, example=${error[1]}` : undefined;
  return [
    '## Trying it',
    '',
    ...(prefer
      ? [
          `- **The mock** (\`npx marketplace-mock\`, \`http://127.0.0.1:4010\`) answers the success example; a documented answer is picked by name (see *Answers*) with \`Prefer: ${prefer}\`, with the client \`headers: { Prefer: '${prefer}' }\` in the call's options.`,
        ]
      : [
          '- **The mock** (`npx marketplace-mock`, `http://127.0.0.1:4010`) answers the success example; a documented answer is picked by name (see *Answers*) with `Prefer: code=<status>, example=<name>`.',
        ]),
    '- **Slow or failing on purpose** (the mock, and the reference server in test mode, every sandbox included): `Prefer: delay=2000` answers after 2 s, `Prefer: code=429` the rate-limit answer, `Prefer: code=500` the server error.',
    "- **A sandbox** (real state, demo data, `demo-alice-api-key`): `npx marketplace-server --demo --test-mode --db :memory: --port 8080`; inside a test, `startSandbox()` of `@marketplace/server` (in the test's process, on a free port: `{ url, users, reset, close }`); one per developer or CI job with `POST /sandboxes` on a server started with `--sandboxes`.",
    '',
  ];
}

function sampleLines(o: ToolOperation): string[] {
  const samples: Json[] = o.op['x-codeSamples'] ?? [];
  const langs: Record<string, string> = { curl: 'sh', TypeScript: 'ts', Python: 'python' };
  return [
    '## Samples',
    '',
    '`$BASE_URL` is the server (`http://127.0.0.1:4010` for `npm run mock`, `http://127.0.0.1:8080` for `npm run sandbox`); `$JWT` is `content.jwt` of `POST /user/login`.',
    '',
    ...samples.flatMap((s) => [`### ${s.label}`, '', fence(langs[s.lang] ?? '', s.source), '']),
  ];
}

/** The page of one operation. */
export function operationPage(doc: Json, o: ToolOperation): string {
  const auth = o.bearer
    ? `\`Authorization: Bearer <JWT>\`, the \`content.jwt\` of [\`POST /user/login\`](${LOGIN}.md)${o.op['x-permission'] === 'API only' ? ' (optional: the operation also answers without one)' : ''}`
    : 'none';
  return [
    `<!-- ${GENERATED_NOTE} -->`,
    '',
    `# ${o.summary}`,
    '',
    `\`${o.method} ${o.path}\` · operationId \`${o.operationId}\` · ${o.tag} · [all operations](../llms.txt)`,
    '',
    o.op.description.trim(),
    '',
    '## Request',
    '',
    `Authentication: ${auth}.`,
    '',
    ...parameterLines(doc, o),
    ...bodyLines(doc, o),
    ...answerLines(doc, o),
    ...clientLines(doc, o),
    ...tryingLines(doc, o),
    ...sampleLines(o),
  ]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

/** `llms.txt` and the operation pages, by path under openapi/tools/. */
export function llms(doc: Json, operations: ToolOperation[]): Record<string, string> {
  const tags = [...new Set(operations.map((o) => o.tag))];
  const index = [
    `# ${doc.info.title}`,
    '',
    `> ${doc.info.summary ?? ''} Version ${doc.info.version} of the document.`,
    '',
    'An HTTP API where users trade in-game items against a USD balance. Amounts are integer cents.',
    'Every answer is a JSON envelope: `{err, success, content}` (or `{success, data}` / `{success: false, message}` where an operation says so).',
    'A business or validation error answers HTTP 300 with `err: true` and a documented message; a refused caller 403 `forbidden`.',
    `Log in with \`POST /user/login\` and an API key ([${LOGIN}](operations/${LOGIN}.md)); send \`content.jwt\` as \`Authorization: Bearer <JWT>\`.`,
    'Each page below gives the permission, parameters, answers, documented messages (with the mock header that answers each) and samples of one operation.',
    '',
    ...tags.flatMap((tag) => [
      `## ${tag}`,
      '',
      ...operations
        .filter((o) => o.tag === tag)
        .map(
          (o) => `- [${o.summary}](operations/${o.operationId}.md): \`${o.method} ${o.path}\`, ${o.op['x-permission']}`,
        ),
      '',
    ]),
    '## Optional',
    '',
    '- [The OpenAPI 3.1 document](../bundled/openapi.json): every schema and example',
    '- [Postman collection](postman/item-marketplace.postman_collection.json): with environments for the mock and the sandbox',
    '- [Bruno collection](bruno/bruno.json): the folder `bruno/`',
    '',
    `<!-- ${GENERATED_NOTE} -->`,
    '',
  ].join('\n');
  const files: Record<string, string> = { 'llms.txt': index };
  for (const o of operations) files[`operations/${o.operationId}.md`] = `${operationPage(doc, o)}\n`;
  return files;
}
