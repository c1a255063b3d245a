// The Postman collection (format v2.1) and its two environments (the mock, the sandbox): one
// folder per tag, one request per operation with its example values, its documented success
// example as a saved response, and a test that the answer's status is one the operation documents.
// `{{baseUrl}}` comes from the environment, `{{jwt}}` is a collection variable that the login
// request's test script fills from `content.jwt`, and every request but the public ones sends it as
// its bearer. `newman run` runs it as is (scripts/tools.test.ts runs it against the sandbox).
import { createHash } from 'node:crypto';
import { GENERATED_NOTE } from './generated-files.ts';
import { type Json, LOGIN, TARGETS, type ToolOperation } from './tools-operations.ts';

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

/** A UUID made from a name, so a rebuild writes the same IDs (Postman keys imports by them). */
function stableId(name: string): string {
  const h = createHash('sha256').update(`marketplace:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The test script of an operation: a documented status; the login also keeps the JWT. */
function testScript(o: ToolOperation): string[] {
  const lines = [
    `pm.test('answers a status the document gives (${o.statuses.join(', ')})', function () {`,
    `  pm.expect(${JSON.stringify(o.statuses)}).to.include(pm.response.code);`,
    '});',
  ];
  if (o.operationId === LOGIN)
    lines.push(
      '// Keeps the JWT for every other request ({{jwt}}, their bearer).',
      'var answer = pm.response.json();',
      "if (answer && answer.content && answer.content.jwt) pm.collectionVariables.set('jwt', answer.content.jwt);",
      "pm.test('keeps the JWT in {{jwt}}', function () {",
      "  pm.expect(pm.collectionVariables.get('jwt')).to.be.a('string').that.is.not.empty;",
      '});',
    );
  return lines;
}

function request(o: ToolOperation): Json {
  const [path = '', search = ''] = o.url.split('?');
  const query = [...new URLSearchParams(search)].map(([key, value]) => ({ key, value }));
  return {
    method: o.method,
    header: o.body === undefined ? [] : [{ key: 'Content-Type', value: 'application/json' }],
    ...(o.body === undefined
      ? {}
      : { body: { mode: 'raw', raw: JSON.stringify(o.body, null, 2), options: { raw: { language: 'json' } } } }),
    url: {
      raw: `{{baseUrl}}${o.url}`,
      host: ['{{baseUrl}}'],
      path: path.split('/').filter(Boolean),
      ...(query.length ? { query } : {}),
    },
    // The public operations send no bearer; the others inherit the collection's ({{jwt}}).
    ...(o.bearer ? {} : { auth: { type: 'noauth' } }),
  };
}

function item(o: ToolOperation): Json {
  const req = request(o);
  return {
    id: stableId(o.operationId),
    name: o.summary,
    request: { ...req, description: `\`${o.method} ${o.path}\` (\`${o.operationId}\`)\n\n${o.op.description}` },
    response: o.example
      ? [
          {
            name: o.example.name,
            originalRequest: req,
            status: o.example.statusText,
            code: o.example.status,
            _postman_previewlanguage: o.example.contentType.includes('json') ? 'json' : 'text',
            header: [{ key: 'Content-Type', value: o.example.contentType }],
            body: o.example.body,
          },
        ]
      : [],
    event: [{ listen: 'test', script: { type: 'text/javascript', exec: testScript(o) } }],
  };
}

/** The collection and its environments, by file name under openapi/tools/. */
export function postman(doc: Json, operations: ToolOperation[]): Record<string, string> {
  const folders = [...new Set(operations.map((o) => o.folder))].map((tag) => ({
    id: stableId(`tag:${tag}`),
    name: tag,
    description: (doc.tags ?? []).find((t: Json) => t.name === tag)?.description ?? '',
    item: operations.filter((o) => o.folder === tag).map(item),
  }));
  const collection = {
    info: {
      _postman_id: stableId('collection'),
      name: doc.info.title,
      description: `${GENERATED_NOTE}\n\nVersion ${doc.info.version} of the document. Pick the mock or the sandbox environment, run \`${LOGIN}\` (its test keeps the JWT in \`{{jwt}}\`), then any request.\n\n${doc.info.description ?? ''}`,
      schema: SCHEMA,
    },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{jwt}}', type: 'string' }] },
    variable: [
      { key: 'baseUrl', value: TARGETS[0].baseUrl, type: 'string' },
      { key: 'jwt', value: '', type: 'string' },
      { key: 'apiKey', value: TARGETS[0].apiKey, type: 'string' },
    ],
    item: folders,
  };
  const files: Record<string, string> = {
    'postman/item-marketplace.postman_collection.json': `${JSON.stringify(collection, null, 2)}\n`,
  };
  for (const target of TARGETS)
    files[`postman/${target.id}.postman_environment.json`] = `${JSON.stringify(
      {
        id: stableId(`environment:${target.id}`),
        name: target.name,
        values: [
          { key: 'baseUrl', value: target.baseUrl, type: 'default', enabled: true },
          { key: 'apiKey', value: target.apiKey, type: 'secret', enabled: true },
        ],
        _postman_variable_scope: 'environment',
      },
      null,
      2,
    )}\n`;
  return files;
}
