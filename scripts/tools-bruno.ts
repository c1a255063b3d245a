// The Bruno collection, as the folder of .bru files Bruno keeps in git: `bruno.json`, the
// collection's docs, one folder per tag and one request per operation with its example values,
// its docs, its documented success example and a test that the answer's status is one the
// operation documents; environments for the mock and the sandbox (`baseUrl`, `apiKey`). The login
// request's post-response script keeps `content.jwt` in the runtime variable `jwt`, which every
// request but the public ones sends as its bearer. The .bru text is written by Bruno's own
// serializer (@usebruno/lang), and `bru run` runs the folder (scripts/tools.test.ts).
import { envJsonToBruV2, jsonToBruV2, jsonToCollectionBru } from '@usebruno/lang';
import type { Json } from '../packages/contract/src/document.ts';
import { GENERATED_NOTE } from './generated-files.ts';
import { FILLS, KEEPS, SANDBOX_NOTE } from './tools-flows.ts';
import { LOGIN, TARGETS, type ToolOperation } from './tools-operations.ts';
import { answerShapes } from './tools-shapes.ts';

/** A folder's directory: its name in kebab case (the displayed name is in its folder.bru). */
export const folderDir = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** A documented status, and a JSON answer of the shape the document gives for it (tools-shapes.ts). */
function tests(doc: Json, o: ToolOperation): string {
  const { byStatus, definitions } = answerShapes(doc, o.op);
  return [
    `test("answers a status the document gives (${o.statuses.join(', ')})", function () {`,
    `  expect(${JSON.stringify(o.statuses)}).to.include(res.getStatus());`,
    '});',
    "// The document's JSON answer schemas of this operation by status, in draft-07 form.",
    `const shapes = ${JSON.stringify(byStatus)};`,
    `const definitions = ${JSON.stringify(definitions)};`,
    'if (/json/.test(res.getHeader("content-type") || "")) {',
    '  test("answers the shape the document gives for its status", function () {',
    '    expect(shapes).to.have.property(String(res.getStatus()));',
    '    expect(res.getBody()).to.have.jsonSchema({ definitions, ...shapes[res.getStatus()] }, { strict: false });',
    '  });',
    '}',
  ].join('\n');
}

/** The login keeps the JWT for every other request ({{jwt}}, their bearer). */
const KEEP_JWT = [
  'const jwt = res.getBody()?.content?.jwt;',
  'if (typeof jwt === "string") bru.setVar("jwt", jwt);',
].join('\n');

/**
 * A pre-request script logging in with the API key in environment variable `key` and keeping the
 * JWT in the runtime variable `jwt`: an admin operation's ({{adminApiKey}}, once), and the
 * log-out's, which needs a session of its own (the request before it ended the collection's).
 */
function loginScript(key: string, jwt: string, once: boolean): string {
  return [
    `if (${once ? `!bru.getVar("${jwt}")` : 'true'}) {`,
    '  const login = await bru.sendRequest({',
    '    method: "POST",',
    '    url: bru.getEnvVar("baseUrl") + "/user/login",',
    '    headers: { "Content-Type": "application/json" },',
    `    data: { apiKey: bru.getEnvVar("${key}") },`,
    '  });',
    '  const jwt = login?.data?.content?.jwt;',
    `  if (typeof jwt === "string") bru.setVar("${jwt}", jwt);`,
    '}',
  ].join('\n');
}

const PRE_REQUEST: Record<string, string> = { getUserDisconnect: loginScript('apiKey', 'jwt', false) };

/** The post-response script keeping values of an operation of KEEPS for the next request of its flow. */
function keepScript(operationId: string): string | undefined {
  const keeps = KEEPS[operationId];
  if (!keeps) return undefined;
  return [
    '// Keeps what the next request of the flow sends (tools-flows.ts).',
    'const kept = res.getBody()?.content ?? {};',
    ...Object.entries(keeps).map(
      ([name, field]) => `if (kept.${field} !== undefined) bru.setVar("${name}", kept.${field});`,
    ),
  ].join('\n');
}

/** The pre-request script filling the body of an operation of FILLS (tools-flows.ts). */
function fillScript(operationId: string): string | undefined {
  const fill = FILLS[operationId];
  if (!fill) return undefined;
  return [
    `// ${fill.why}`,
    `const apply = ${fill.apply};`,
    'const body = req.getBody();',
    'let answer;',
    ...(fill.path
      ? [
          'try {',
          '  const response = await bru.sendRequest({',
          '    method: "GET",',
          `    url: bru.getEnvVar("baseUrl") + "${fill.path}",`,
          '    headers: { Authorization: "Bearer " + bru.getVar("jwt") },',
          '  });',
          '  answer = response.data;',
          '} catch (error) {}',
        ]
      : []),
    'apply(body, answer, (name) => bru.getVar(name));',
    'req.setBody(body);',
  ].join('\n');
}

/** An operation's pre-request (`req`) and post-response (`res`) scripts. */
function scripts(o: ToolOperation): { req?: string; res?: string } {
  const login = PRE_REQUEST[o.operationId] ?? (o.admin ? loginScript('adminApiKey', 'adminJwt', true) : undefined);
  const req = [login, fillScript(o.operationId)].filter(Boolean).join('\n');
  const res = o.operationId === LOGIN ? KEEP_JWT : keepScript(o.operationId);
  return { ...(req ? { req } : {}), ...(res ? { res } : {}) };
}

function request(doc: Json, o: ToolOperation, seq: number): string {
  const [, search = ''] = o.url.split('?');
  const params = [...new URLSearchParams(search)].map(([name, value]) => ({
    name,
    value,
    enabled: true,
    type: 'query',
  }));
  const url = `{{baseUrl}}${o.url}`;
  const json = o.body === undefined ? undefined : JSON.stringify(o.body, null, 2);
  const headers = json === undefined ? [] : [{ name: 'Content-Type', value: 'application/json', enabled: true }];
  return `${jsonToBruV2({
    meta: { name: o.summary, type: 'http', seq },
    http: {
      method: o.method.toLowerCase(),
      url,
      body: json === undefined ? 'none' : 'json',
      auth: o.bearer ? 'bearer' : 'none',
    },
    params,
    headers,
    auth: o.bearer ? { bearer: { token: o.admin ? '{{adminJwt}}' : '{{jwt}}' } } : {},
    body: json === undefined ? {} : { json },
    script: scripts(o),
    tests: tests(doc, o),
    docs: `\`${o.method} ${o.path}\` (\`${o.operationId}\`)\n\n${o.op.description}`,
    examples: o.example
      ? [
          {
            name: o.example.name,
            request: { url, method: o.method.toLowerCase(), params, headers },
            response: {
              headers: [{ name: 'Content-Type', value: o.example.contentType }],
              status: o.example.status,
              statusText: o.example.statusText,
              body: { type: o.example.contentType.includes('json') ? 'json' : 'text', content: o.example.body },
            },
          },
        ]
      : [],
  })}\n`;
}

/** The collection's files, by path under openapi/tools/. */
export function bruno(doc: Json, operations: ToolOperation[]): Record<string, string> {
  const files: Record<string, string> = {
    'bruno/bruno.json': `${JSON.stringify(
      { version: '1', name: doc.info.title, type: 'collection', ignore: ['node_modules', '.git'] },
      null,
      2,
    )}\n`,
    'bruno/collection.bru': `${jsonToCollectionBru({
      docs: `${GENERATED_NOTE}\n\nVersion ${doc.info.version} of the document. Pick the mock or the sandbox environment, run the login (it keeps the JWT in {{jwt}}), then any request. ${SANDBOX_NOTE}`,
    })}\n`,
  };
  for (const target of TARGETS)
    files[`bruno/environments/${target.id}.bru`] = `${envJsonToBruV2({
      variables: [
        { name: 'baseUrl', value: target.baseUrl, enabled: true, secret: false },
        { name: 'apiKey', value: target.apiKey, enabled: true, secret: false },
        { name: 'adminApiKey', value: target.adminApiKey, enabled: true, secret: false },
      ],
    })}\n`;
  const tags = [...new Set(operations.map((o) => o.folder))];
  tags.forEach((tag, t) => {
    files[`bruno/${folderDir(tag)}/folder.bru`] = `${jsonToCollectionBru({ meta: { name: tag, seq: t + 1 } })}\n`;
    operations
      .filter((o) => o.folder === tag)
      .forEach((o, i) => {
        files[`bruno/${folderDir(tag)}/${o.operationId}.bru`] = request(doc, o, i + 1);
      });
  });
  return files;
}
