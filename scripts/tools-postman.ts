// The Postman collection (format v2.1) and its two environments (the mock, the sandbox): one
// folder per tag, one request per operation with its example values, its documented success
// example as a saved response, and a test that the answer's status is one the operation documents.
// `{{baseUrl}}` comes from the environment, `{{jwt}}` is a collection variable that the login
// request's test script fills from `content.jwt`, and every request but the public ones sends it as
// its bearer. `newman run` runs it as is (scripts/tools.test.ts runs it against the sandbox).
import { createHash } from 'node:crypto';
import type { Json } from '../packages/contract/src/document.ts';
import { GENERATED_NOTE } from './generated-files.ts';
import { FILLS, KEEPS, SANDBOX_NOTE } from './tools-flows.ts';
import { LOGIN, TARGETS, type ToolOperation } from './tools-operations.ts';
import { answerShapes } from './tools-shapes.ts';

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

/** A UUID made from a name, so a rebuild writes the same IDs (Postman keys imports by them). */
function stableId(name: string): string {
  const h = createHash('sha256').update(`marketplace:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The test script of an operation: a documented status, and a JSON answer of the shape the document
 * gives for it (Postman's `jsonSchema`, tools-shapes.ts); the login also keeps the JWT.
 */
function testScript(doc: Json, o: ToolOperation): string[] {
  const { byStatus, definitions } = answerShapes(doc, o.op);
  const lines = [
    `pm.test('answers a status the document gives (${o.statuses.join(', ')})', function () {`,
    `  pm.expect(${JSON.stringify(o.statuses)}).to.include(pm.response.code);`,
    '});',
    "// The document's JSON answer schemas of this operation by status, in draft-07 form.",
    `var shapes = ${JSON.stringify(byStatus)};`,
    `var definitions = ${JSON.stringify(definitions)};`,
    "if (/json/.test(pm.response.headers.get('Content-Type') || '')) {",
    "  pm.test('answers the shape the document gives for its status', function () {",
    '    pm.expect(shapes).to.have.property(String(pm.response.code));',
    '    pm.response.to.have.jsonSchema(Object.assign({ definitions: definitions }, shapes[pm.response.code]));',
    '  });',
    '}',
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
  const keeps = KEEPS[o.operationId];
  if (keeps)
    lines.push(
      '// Keeps what the next request of the flow sends (tools-flows.ts).',
      "var kept = (/json/.test(pm.response.headers.get('Content-Type') || '') && pm.response.json().content) || {};",
      ...Object.entries(keeps).map(
        ([name, field]) => `if (kept.${field} !== undefined) pm.collectionVariables.set('${name}', kept.${field});`,
      ),
    );
  return lines;
}

/** The pre-request script filling the body of an operation of FILLS (tools-flows.ts). */
function fillScript(operationId: string): string[] {
  const fill = FILLS[operationId];
  if (!fill) return [];
  const apply = [
    '  apply(body, answer, function (name) { return pm.collectionVariables.get(name); });',
    '  pm.request.body.update(JSON.stringify(body, null, 2));',
  ];
  return [
    `// ${fill.why}`,
    `var apply = ${fill.apply};`,
    'var body = JSON.parse(pm.request.body.raw);',
    ...(fill.path
      ? [
          'pm.sendRequest(',
          '  {',
          `    url: pm.variables.get('baseUrl') + '${fill.path}',`,
          "    method: 'GET',",
          "    header: { Authorization: 'Bearer ' + pm.collectionVariables.get('jwt') },",
          '  },',
          '  function (error, response) {',
          '    var answer;',
          '    try {',
          '      answer = !error && response.code === 200 ? response.json() : undefined;',
          '    } catch (e) {}',
          ...apply.map((l) => `  ${l}`),
          '  },',
          ');',
        ]
      : ['var answer;', ...apply.map((l) => l.slice(2))]),
  ];
}

/**
 * A pre-request script logging in with the API key in variable `key` and keeping the JWT in the
 * collection variable `jwt`: an admin operation's ({{adminApiKey}}, once), and the log-out's, which
 * needs a session of its own (the request before it ended the collection's).
 */
function loginScript(key: string, jwt: string, once: boolean): string[] {
  return [
    `if (${once ? `!pm.collectionVariables.get('${jwt}')` : 'true'}) {`,
    '  pm.sendRequest(',
    '    {',
    "      url: pm.variables.get('baseUrl') + '/user/login',",
    "      method: 'POST',",
    "      header: { 'Content-Type': 'application/json' },",
    `      body: { mode: 'raw', raw: JSON.stringify({ apiKey: pm.variables.get('${key}') }) },`,
    '    },',
    '    function (error, response) {',
    '      var jwt = !error && response.json().content.jwt;',
    `      if (typeof jwt === 'string') pm.collectionVariables.set('${jwt}', jwt);`,
    '    },',
    '  );',
    '}',
  ];
}

const PRE_REQUEST: Record<string, string[]> = { getUserDisconnect: loginScript('apiKey', 'jwt', false) };

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
    // The public operations send no bearer; the admin ones the admin's ({{adminJwt}}); the others
    // inherit the collection's ({{jwt}}).
    ...(o.admin
      ? { auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{adminJwt}}', type: 'string' }] } }
      : o.bearer
        ? {}
        : { auth: { type: 'noauth' } }),
  };
}

function item(doc: Json, o: ToolOperation): Json {
  const req = request(o);
  const login = PRE_REQUEST[o.operationId] ?? (o.admin ? loginScript('adminApiKey', 'adminJwt', true) : []);
  const prerequest = [...login, ...fillScript(o.operationId)];
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
    event: [
      ...(prerequest.length ? [{ listen: 'prerequest', script: { type: 'text/javascript', exec: prerequest } }] : []),
      { listen: 'test', script: { type: 'text/javascript', exec: testScript(doc, o) } },
    ],
  };
}

/** The collection and its environments, by file name under openapi/tools/. */
export function postman(doc: Json, operations: ToolOperation[]): Record<string, string> {
  const folders = [...new Set(operations.map((o) => o.folder))].map((tag) => ({
    id: stableId(`tag:${tag}`),
    name: tag,
    description: (doc.tags ?? []).find((t: Json) => t.name === tag)?.description ?? '',
    item: operations.filter((o) => o.folder === tag).map((o) => item(doc, o)),
  }));
  const collection = {
    info: {
      _postman_id: stableId('collection'),
      name: doc.info.title,
      description: `${GENERATED_NOTE}\n\nVersion ${doc.info.version} of the document. Pick the mock or the sandbox environment, run \`${LOGIN}\` (its test keeps the JWT in \`{{jwt}}\`), then any request. ${SANDBOX_NOTE}\n\n${doc.info.description ?? ''}`,
      schema: SCHEMA,
    },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{jwt}}', type: 'string' }] },
    variable: [
      { key: 'baseUrl', value: TARGETS[0].baseUrl, type: 'string' },
      { key: 'jwt', value: '', type: 'string' },
      { key: 'apiKey', value: TARGETS[0].apiKey, type: 'string' },
      { key: 'adminJwt', value: '', type: 'string' },
      { key: 'adminApiKey', value: TARGETS[0].adminApiKey, type: 'string' },
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
          { key: 'adminApiKey', value: target.adminApiKey, type: 'secret', enabled: true },
        ],
        _postman_variable_scope: 'environment',
      },
      null,
      2,
    )}\n`;
  return files;
}
