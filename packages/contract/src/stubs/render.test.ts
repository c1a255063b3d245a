import { describe, expect, it } from 'vitest';
import { BUNDLED_DOCUMENT, readDocument } from '../document.ts';
import { dereference, revisionOf, type StubOperation, stubOperations, tagFileName } from './operations.ts';
import { messageConstant, messageConstants, renderHandlerIndex, renderMessages, renderStub } from './render.ts';

const LOGIN: StubOperation = {
  operationId: 'postUserLogin',
  method: 'POST',
  path: '/user/login',
  tag: 'Authentication',
  summary: 'Log in with an API key',
  permission: 'None',
  rateLimits: [
    { limit: 20, window: 300, scope: 'ip', counts: 'attempts answered `Invalid API key`', exceeded: 'reject' },
  ],
  errorMessages: [
    { message: 'Missing required parameter: apiKey', condition: 'apiKey absent' },
    { message: 'Invalid API key', condition: 'no account has this API key (HTTP 403)', status: 403 },
    { message: 'Invalid API key', condition: 'the key is revoked */ oops' },
  ],
  revision: '0a1b2c3d',
};

describe('a stub', () => {
  it('quotes the summary, permission, rate limit and messages, and answers as an unknown route', () => {
    expect(renderStub(LOGIN)).toBe(`/**
 * POST /user/login: Log in with an API key
 * Permission (x-permission): None
 * Rate limit: 20 per 300 s per ip (attempts answered \`Invalid API key\`), beyond: reject, counted by the app
 * Documented messages (MESSAGES.postUserLogin):
 * - MISSING_REQUIRED_PARAMETER_API_KEY "Missing required parameter: apiKey": apiKey absent
 * - INVALID_API_KEY "Invalid API key": no account has this API key (HTTP 403); the key is revoked *\\/ oops
 */
export const postUserLogin: Handler<'postUserLogin', '0a1b2c3d'> = notImplemented;
`);
  });

  it('says so when the operation has no messages or limits of its own', () => {
    const stub = renderStub({ ...LOGIN, rateLimits: [], errorMessages: [] });
    expect(stub).toContain(
      ' * Rate limit: the general limit only (counted by the app)\n * Documented messages: none of its own\n',
    );
    const cached = renderStub({
      ...LOGIN,
      rateLimits: [{ limit: 1, window: 60, scope: 'ip', counts: 'requests with update=1', exceeded: 'serve-cached' }],
    });
    expect(cached).toContain(
      ' * Rate limit: 1 per 60 s per ip (requests with update=1), beyond: serve-cached, counted by the app (ctx.servesCached: answer from your cache)\n',
    );
  });
});

describe('message constants', () => {
  it('name a message in upper snake case, distinct within an operation', () => {
    expect(messageConstant('Missing required parameter: apiKey')).toBe('MISSING_REQUIRED_PARAMETER_API_KEY');
    expect(messageConstant('2FA required')).toBe('M_2FA_REQUIRED');
    expect([
      ...messageConstants([
        { message: 'Invalid perPage', condition: '' },
        { message: 'Invalid perpage', condition: '' },
      ]),
    ]).toEqual([
      ['INVALID_PER_PAGE', 'Invalid perPage'],
      ['INVALID_PERPAGE', 'Invalid perpage'],
    ]);
    expect([
      ...messageConstants([
        { message: 'A b', condition: '' },
        { message: 'A-b', condition: '' },
      ]).keys(),
    ]).toEqual(['A_B', 'A_B_2']);
  });

  it('are rendered per operation, verbatim', () => {
    expect(renderMessages([LOGIN])).toContain(
      '  postUserLogin: {\n    MISSING_REQUIRED_PARAMETER_API_KEY: "Missing required parameter: apiKey",\n    INVALID_API_KEY: "Invalid API key",\n  },\n',
    );
  });
});

describe('the operations of the document', () => {
  const doc = readDocument(BUNDLED_DOCUMENT);
  const ops = stubOperations(doc);

  it('are every operation once, each with a tag file and a revision', () => {
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
    expect(ops.find((o) => o.operationId === 'getUserBalance')).toMatchObject({
      method: 'GET',
      path: '/user/balance',
      tag: 'Account',
      permission: 'Connected + API',
      revision: expect.stringMatching(/^[0-9a-f]{8}$/),
    });
    expect(tagFileName('E-mail change')).toBe('e-mail-change');
  });

  it('change revision when a schema they use changes, and only then', () => {
    const copy = structuredClone(doc);
    copy.components.schemas.Listing.properties.price.description = 'changed';
    const changed = new Set(
      stubOperations(copy)
        .filter((o, i) => o.revision !== ops[i]!.revision)
        .map((o) => o.operationId),
    );
    expect(changed).toContain('getItemListingItem');
    expect(changed).not.toContain('getUserBalance');
    expect(revisionOf(doc, '/user/balance', 'GET')).toBe(revisionOf(structuredClone(doc), '/user/balance', 'GET'));
  });

  it('dereference a schema that refers to itself without looping', () => {
    const doc = {
      components: { schemas: { Tree: { properties: { kids: { items: { $ref: '#/components/schemas/Tree' } } } } } },
    };
    expect(dereference(doc, { $ref: '#/components/schemas/Tree' })).toEqual({
      properties: { kids: { items: { $ref: '#/components/schemas/Tree' } } },
    });
  });
});

it('the handler index imports every handler file', () => {
  expect(renderHandlerIndex(['account.ts', 'items.ts'])).toContain(
    "import * as handlers0 from '../handlers/account.ts';\nimport * as handlers1 from '../handlers/items.ts';\n\nexport const handlerModules: Record<string, unknown>[] = [handlers0, handlers1];\n",
  );
});
