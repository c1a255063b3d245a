// The response check (response-validator.ts, the validators compiled against one shared root)
// against express-openapi-validator's own response step, answer by answer: each documented or
// undocumented status with a valid or an invalid body must be passed by both or refused by both
// with the same status, message and errors; on the bundled document and on a small one with the
// response shapes the bundled document lacks (no content, a wildcard media type, a status range,
// `additionalProperties: false` at the top, a default response).
import express, { type NextFunction, type Request, type Response } from 'express';
import { ResponseValidator } from 'express-openapi-validator/dist/middlewares/openapi.response.validator.js';
import { afterAll, describe, expect, it } from 'vitest';
import { type Json, readDocument } from './document.ts';
import { type LibraryResponseValidator, sharedResponseValidators } from './response-validator.ts';
import { closeServers, startOnce, useValidation } from './validation-pair.fixture.ts';

const document = readDocument();

/** A document with the response shapes the API's does not use. */
const shapes: Json = {
  openapi: '3.1.0',
  info: { title: 'shapes', version: '1' },
  paths: {
    '/things/{id}': {
      get: {
        operationId: 'getThing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'a thing',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          '204': { description: 'nothing' },
          '2XX': {
            description: 'a count',
            content: { 'application/json': { schema: { type: 'object', required: ['count'] } } },
          },
          '400': { $ref: '#/components/responses/Problem' },
          default: { $ref: '#/components/responses/Problem' },
        },
      },
    },
    '/blobs': {
      get: {
        operationId: 'getBlobs',
        responses: {
          '200': {
            description: 'anything',
            content: { '*/*': { schema: { type: 'object', required: ['blob'] } } },
          },
          '201': {
            description: 'text only',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'kind'],
        properties: {
          id: { type: 'integer', minimum: 1 },
          kind: { enum: ['a', 'b'] },
          note: { type: ['string', 'null'] },
          parent: { $ref: '#/components/schemas/Thing' },
        },
      },
    },
    responses: {
      Problem: {
        description: 'a problem',
        content: {
          'application/json': {
            schema: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
          },
        },
      },
    },
  },
};

/** What the client got: the body the handler sent, or the response step's refusal. */
interface Answer {
  status: number;
  body?: unknown;
  refused?: number;
  message?: string;
  errors?: unknown;
}

/** What the handler answers: a status, a body (none when absent) and a Content-Type. */
interface Reply {
  status: number;
  body?: unknown;
  type?: string;
}

afterAll(closeServers);

/**
 * An app whose handler answers what the request's `x-reply` header says, with `check` validating
 * the responses: ours (the gate's match, then documentValidators in test mode) or the library's
 * own middleware. A refusal of the response step reaches the error handler, which sends it as
 * data. Started once per document and check.
 */
const echo = startOnce(
  (doc, check) => {
    const app = express();
    useValidation(app, doc, check, true);
    app.use((req: Request, res: Response) => {
      const reply: Reply = JSON.parse(String(req.headers['x-reply']));
      if (reply.type) res.type(reply.type);
      res.status(reply.status).json(reply.body);
    });
    app.use((err: Json, _req: Request, res: Response, _next: NextFunction) => {
      res.status(200).json({ refused: err.status, message: err.message, errors: err.errors });
    });
    return app;
  },
  (base) =>
    async (url: string, reply: Reply): Promise<Answer> => {
      const response = await fetch(base + url, { headers: { 'x-reply': JSON.stringify(reply) } });
      const text = await response.text();
      return { status: response.status, ...(text ? { body: JSON.parse(text) } : {}) };
    },
);

/** The value of a documented example of an operation's answer. */
const example = (path: string, status: string, name: string): Json =>
  structuredClone(document.paths[path].get.responses[status].content['application/json'].examples[name].value);

/** A copy of `value` with `change` applied. */
const changed = (value: Json, change: (copy: Json) => void): Json => {
  const copy = structuredClone(value);
  change(copy);
  return copy;
};

const listings = example('/item/listing/{item}', '200', 'listings');
const notifications = example('/user/notifications', '200', 'full');
const counts = example('/user/notifications', '200', 'counts');
const envelopeA = example('/user/2FA/create', '200', 'createdEnvelopeA');
const envelopeB = example('/user/2FA/create', '200', 'createdEnvelopeB');
const failed = (content: unknown) => ({ err: true, success: false, content });

/** Answers on the bundled document: [name, url, what the handler answers]. */
const API: [string, string, Reply][] = [
  ['a documented example', '/item/listing/7', { status: 200, body: listings }],
  [
    'a required field missing',
    '/item/listing/7',
    { status: 200, body: changed(listings, (b) => delete b.content[0].price) },
  ],
  [
    'a field of the wrong type',
    '/item/listing/7',
    {
      status: 200,
      body: changed(listings, (b) => {
        b.content[0].id = 'x';
      }),
    },
  ],
  [
    'a value outside its enum',
    '/item/listing/7',
    {
      status: 200,
      body: changed(listings, (b) => {
        b.content[0].game = 1;
      }),
    },
  ],
  [
    'a nullable field null',
    '/item/listing/7',
    {
      status: 200,
      body: changed(listings, (b) => {
        b.content[0].price = null;
      }),
    },
  ],
  [
    'two wrong fields',
    '/item/listing/7',
    {
      status: 200,
      body: changed(listings, (b) => {
        b.content[1].state = 9;
        b.err = 1;
      }),
    },
  ],
  [
    'a list too long',
    '/item/listing/7',
    { status: 200, body: { ...listings, content: Array(101).fill(listings.content[0]) } },
  ],
  ['no body where one is documented', '/item/listing/7', { status: 200 }],
  ['a business error', '/item/listing/7', { status: 300, body: failed('Item not found') }],
  ['a business error with an empty message', '/item/listing/7', { status: 300, body: failed('') }],
  ['a business error object', '/item/listing/7', { status: 300, body: failed({ status: 2 }) }],
  [
    'a shared response ($ref) as documented',
    '/item/listing/7',
    { status: 429, body: failed('Rate limit exceeded. Retry after 5 seconds.') },
  ],
  ['a shared response ($ref) not as documented', '/item/listing/7', { status: 429, body: failed('Slow down') }],
  ['another shared response ($ref) of a wrong type', '/item/listing/7', { status: 404, body: failed(404) }],
  ['a shared response ($ref) of another operation', '/user/notifications', { status: 429, body: failed('Slow down') }],
  ['an undocumented status', '/item/listing/7', { status: 418, body: listings }],
  ['a server error (not checked)', '/item/listing/7', { status: 500, body: { anything: true } }],
  ['the first branch of a oneOf', '/user/notifications', { status: 200, body: notifications }],
  ['the second branch of a oneOf', '/user/notifications', { status: 200, body: counts }],
  [
    'no branch of a oneOf',
    '/user/notifications',
    {
      status: 200,
      body: changed(counts, (b) => {
        b.content = [];
      }),
    },
  ],
  ['a top-level oneOf, envelope A', '/user/2FA/create', { status: 200, body: envelopeA }],
  ['a top-level oneOf, envelope B', '/user/2FA/create', { status: 200, body: envelopeB }],
  ['a top-level oneOf, neither', '/user/2FA/create', { status: 200, body: { err: false } }],
  ['an answer of another media type', '/public/price', { status: 200, body: 'a,b', type: 'text/csv' }],
];

/** Answers on the small document of other response shapes. */
const SHAPES: [string, string, Reply][] = [
  ['a valid thing', '/things/1', { status: 200, body: { id: 1, kind: 'a', note: null, parent: { id: 2, kind: 'b' } } }],
  ['a property not allowed', '/things/1', { status: 200, body: { id: 1, kind: 'a', extra: 1 } }],
  [
    'a property not allowed, nested',
    '/things/1',
    { status: 200, body: { id: 1, kind: 'a', parent: { id: 2, kind: 'b', x: 1 } } },
  ],
  ['a value outside its enum', '/things/1', { status: 200, body: { id: 1, kind: 'c' } }],
  ['no content, none sent', '/things/1', { status: 204 }],
  ['no content, a body sent', '/things/1', { status: 204, body: { id: 1 } }],
  ['a status range', '/things/1', { status: 202, body: { count: 1 } }],
  ['a status range, invalid', '/things/1', { status: 202, body: {} }],
  ['a shared response ($ref)', '/things/1', { status: 400, body: { message: 'no' } }],
  ['a shared response ($ref), invalid', '/things/1', { status: 400, body: { message: 1 } }],
  ['the default response', '/things/1', { status: 409, body: { message: 'no' } }],
  ['the default response, invalid', '/things/1', { status: 409, body: {} }],
  ['a wildcard media type', '/blobs', { status: 200, body: { blob: 1 } }],
  ['a wildcard media type, invalid', '/blobs', { status: 200, body: {} }],
  ['a media type not validated', '/blobs', { status: 201, body: { any: 1 } }],
];

describe('the response check against the validator’s own response step', () => {
  it.each(API)('Given the bundled document, when %s (%s), then both answer alike', async (_name, url, reply) => {
    const [ours, library] = await Promise.all([echo(document, 'ours'), echo(document, 'library')]);
    const answers = await Promise.all([ours(url, reply), library(url, reply)]);
    expect(answers[0]).toEqual(answers[1]);
  });

  it.each(SHAPES)('Given other response shapes, when %s (%s), then both answer alike', async (_name, url, reply) => {
    const [ours, library] = await Promise.all([echo(shapes, 'ours'), echo(shapes, 'library')]);
    const answers = await Promise.all([ours(url, reply), library(url, reply)]);
    expect(answers[0]).toEqual(answers[1]);
  });

  it('Given an invalid answer, then ours refuses it with the library’s message (the table can fail)', async () => {
    const answer = await (await echo(document, 'ours'))('/item/listing/7', {
      status: 429,
      body: failed('Slow down'),
    });
    expect(answer.body).toMatchObject({
      refused: 500,
      message: expect.stringMatching(/^\/response\/content must match pattern/),
    });
  });
});

describe('sharedResponseValidators', () => {
  /** The library's validator with the members its types keep private. */
  type Library = LibraryResponseValidator & { buildValidators(responses: Json, key: string): Json };
  const library = new ResponseValidator(structuredClone(document), {
    strict: false,
    formats: {},
  }) as unknown as Library;
  const build = sharedResponseValidators(library);
  const request = (method: string, route: string) =>
    ({ method, openapi: { openApiRoute: route } }) as unknown as Parameters<typeof build>[0];
  const responsesOf = (method: string, route: string) => library.spec.paths[route][method.toLowerCase()].responses;

  it('Given an operation, then it builds a validator per status and media type the library would', () => {
    const responses = responsesOf('GET', '/public/price');
    const ours = build(request('GET', '/public/price'), responses);
    const theirs = library.buildValidators(responses, 'GET-/public/price');
    expect(Object.fromEntries(Object.entries(ours ?? {}).map(([s, v]) => [s, Object.keys(v)]))).toEqual(
      Object.fromEntries(Object.entries<Json>(theirs).map(([s, v]) => [s, Object.keys(v)])),
    );
  });

  it('Given a response shared by two operations, then both get the one validator compiled for it', () => {
    const listing = build(request('GET', '/item/listing/{item}'), responsesOf('GET', '/item/listing/{item}'));
    const notifications = build(request('GET', '/user/notifications'), responsesOf('GET', '/user/notifications'));
    expect(listing?.['429']?.['application/json']).toBeTypeOf('function');
    expect(listing?.['429']?.['application/json']).toBe(notifications?.['429']?.['application/json']);
    expect(listing?.['200']?.['application/json']).not.toBe(notifications?.['200']?.['application/json']);
  });

  it('Given a response object in place of each $ref to it (as the validator prepares its copy), then it is compiled once', () => {
    const prepared = structuredClone(document);
    const shared = prepared.components.responses.TooManyRequests;
    for (const route of ['/item/listing/{item}', '/user/notifications'])
      prepared.paths[route].get.responses['429'] = shared;
    const own = new ResponseValidator(prepared, { strict: false, formats: {} });
    const buildOwn = sharedResponseValidators(own as unknown as LibraryResponseValidator);
    const [listing, notifications] = ['/item/listing/{item}', '/user/notifications'].map((route) =>
      buildOwn(request('GET', route), prepared.paths[route].get.responses),
    );
    expect(listing?.['429']?.['application/json']).toBeTypeOf('function');
    expect(listing?.['429']?.['application/json']).toBe(notifications?.['429']?.['application/json']);
  });

  it('Given responses that are not the document’s at that route and method, then it leaves them to the library', () => {
    expect(build(request('POST', '/item/listing/{item}'), responsesOf('GET', '/item/listing/{item}'))).toBeUndefined();
    expect(
      build(request('GET', '/item/listing/{item}'), structuredClone(responsesOf('GET', '/item/listing/{item}'))),
    ).toBeUndefined();
  });
});
