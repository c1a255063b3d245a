// The request check (request-validator.ts) against express-openapi-validator's own request step,
// request by request: the same errors in the same order and the same shaped request (parameters
// coerced by their schema type, defaults filled in), on the bundled document and on a small one
// with the parameter kinds the bundled document lacks; and the documented message each refusal
// gets through requestErrorAnswer.
import { parse } from 'node:url';
import express, { type NextFunction, type Request, type Response } from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { type Json, readDocument } from './document.ts';
import { requestErrorAnswer } from './request-rules.ts';
import { rawQuery } from './request-validator.ts';
import { INVALID_BODY } from './validation-message.ts';
import { closeServers, startOnce, useValidation } from './validation-pair.fixture.ts';

const document = readDocument();

/** A document with the parameter kinds the API's does not use: arrays, headers, numbers, cookies, objects. */
const kinds: Json = {
  openapi: '3.1.0',
  info: { title: 'kinds', version: '1' },
  paths: {
    '/things/{ids}': {
      get: {
        operationId: 'getThings',
        parameters: [
          { name: 'ids', in: 'path', required: true, schema: { type: 'array', items: { type: 'integer' } } },
          { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          {
            name: 'csv',
            in: 'query',
            explode: false,
            schema: { type: 'array', items: { type: 'integer' }, maxItems: 3 },
          },
          { name: 'ratio', in: 'query', schema: { type: 'number', maximum: 1 } },
          { name: 'flag', in: 'query', schema: { type: 'boolean' } },
          { name: 'x-count', in: 'header', required: true, schema: { type: 'integer', minimum: 1 } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/cookies': {
      get: {
        operationId: 'getCookies',
        parameters: [
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
          { name: 'at', in: 'query', schema: { type: 'string', format: 'date' } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/filter': {
      get: {
        operationId: 'getFilter',
        parameters: [
          {
            name: 'filter',
            in: 'query',
            style: 'deepObject',
            schema: { type: 'object', properties: { min: { type: 'integer' } } },
          },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

interface Answer {
  status: number;
  errors?: unknown;
  message?: string;
  /** The documented message request-rules.ts answers a refusal with. */
  documented?: unknown;
  query?: unknown;
  params?: unknown;
  body?: unknown;
}

afterAll(closeServers);

/**
 * An app that echoes what reached its handler (the shaped query, path parameters and body) or the
 * refusal (status and errors), with `check` validating the requests: ours (the gate's match, then
 * documentValidators) or the library's own middleware. Started once per document and check.
 */
const echo = startOnce(
  (doc, check) => {
    const app = express();
    app.set('query parser', 'extended');
    app.use(express.json(), express.urlencoded({ extended: true }));
    useValidation(app, doc, check, false);
    app.use((req: Request, res: Response) => {
      // The path parameters as the validator shaped them (Express gives each layer its own `req.params`).
      const params = (req as Request & { openapi?: { pathParams?: unknown } }).openapi?.pathParams;
      res.json({ status: 200, query: req.query, params, body: req.body });
    });
    app.use((err: Json, _req: Request, res: Response, _next: NextFunction) => {
      const answer = requestErrorAnswer(err, res.locals.operation);
      res.json({ status: err.status, errors: err.errors, message: err.message, documented: answer?.content });
    });
    return app;
  },
  (base) =>
    async (url: string, init: RequestInit = {}): Promise<Answer> =>
      (await fetch(base + url, init)).json(),
);

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const form = (body: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body,
});
const typed = (type: string, body: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': type },
  body,
});

/** Requests to the bundled document: [name, url, init, the documented message of a refusal]. */
const API: [string, string, RequestInit, string | undefined][] = [
  ['path and query parameters coerced, defaults filled in', '/item/listing/7?count=5&game=730', {}, undefined],
  ['no query at all', '/item/listing/7', {}, undefined],
  ['a path parameter of the wrong type', '/item/listing/abc', {}, 'Invalid item parameter'],
  ['a query parameter of the wrong type', '/item/listing/7?count=abc', {}, 'Invalid count parameter'],
  ['a value outside the enum', '/item/listing/7?game=1', {}, 'Invalid game parameter'],
  ['two bad parameters: the first one named', '/item/listing/7?game=1&count=0', {}, 'Invalid count parameter'],
  ['a reserved character sent unencoded', '/item/listing/7?count=1,2', {}, 'Invalid count parameter'],
  ['a reserved character sent encoded', '/item/listing/7?count=1%2C2', {}, 'Invalid count parameter'],
  ['a parameter sent twice', '/item/listing/7?count=5&count=6', {}, 'Invalid count parameter'],
  ['a key the query parser could not nest', '/item/listing/7?count[=5&page=1', {}, 'Invalid count parameter'],
  ['a nested key of a scalar parameter', '/item/listing/7?count[a]=5', {}, 'Invalid count parameter'],
  ['a boolean coerced', '/user/notifications?unreadOnly=true&limit=3', {}, undefined],
  ['a boolean that is none', '/user/notifications?unreadOnly=yes', {}, 'Invalid unreadOnly parameter'],
  ['a string enum', '/user/ipList?expire=maybe', {}, 'Invalid expire parameter'],
  ['a required query parameter missing', '/item/pricing/bulk', {}, 'Missing required parameter: items'],
  ['reserved characters where they are allowed', '/item/pricing/bulk?items=1,2', {}, undefined],
  ['a value its `not` refuses (the keyword message)', '/item/pricing/bulk?items=1,,2', {}, 'Invalid items parameter'],
  ['a body field missing', '/user/login', json({}), 'Missing required parameter: apiKey'],
  ['a form body', '/user/login', form('apiKey=abc'), undefined],
  ['a JSON body with a charset', '/user/login', typed('application/json; charset=utf-8', '{"apiKey":"k"}'), undefined],
  ['an unsupported media type', '/user/login', typed('text/plain', 'apiKey=abc'), INVALID_BODY],
  ['no media type', '/user/login', { method: 'POST' }, INVALID_BODY],
  ['a body that is no object', '/user/login', json([1]), INVALID_BODY],
  [
    'a body field outside its enum',
    '/cashout/link',
    json({ method: 'nope', email: 'a@b.co' }),
    'Invalid method parameter',
  ],
  [
    'a body field of a bad format',
    '/cashout/link',
    json({ method: 'provider_a', email: 'nope' }),
    'Invalid email format',
  ],
  [
    'a body field under its minimum (keyword message)',
    '/cashout/process',
    json({ amount: 1, method: 'provider_a' }),
    'Amount below minimum',
  ],
  ['an optional body left out', '/cart/update', { method: 'POST' }, undefined],
];

/** Requests to the small document of other parameter kinds (no documented messages there). */
const KINDS: [string, string, RequestInit][] = [
  ['a path array split on commas', '/things/1,2,3', { headers: { 'x-count': '2' } }],
  ['a path array with a bad item', '/things/1,x', { headers: { 'x-count': '2' } }],
  ['an exploded query array of one value', '/things/1?tags=a', { headers: { 'x-count': '2' } }],
  ['an exploded query array of two', '/things/1?tags=a&tags=b', { headers: { 'x-count': '2' } }],
  ['a comma-separated query array', '/things/1?csv=1,2', { headers: { 'x-count': '2' } }],
  ['a comma-separated query array too long', '/things/1?csv=1,2,3,4', { headers: { 'x-count': '2' } }],
  ['a number and a boolean', '/things/1?ratio=0.5&flag=false', { headers: { 'x-count': '2' } }],
  ['a number too large', '/things/1?ratio=2', { headers: { 'x-count': '2' } }],
  ['a header of the wrong type', '/things/1', { headers: { 'x-count': 'many' } }],
  ['a required header missing', '/things/1', {}],
  ['a cookie parameter (the library checks it)', '/cookies?at=2026-11-27', {}],
  ['a bad date (the library checks it)', '/cookies?at=yesterday', {}],
  ['a deep object (the library checks it)', '/filter?filter[min]=3', {}],
];

describe('the request check against the validator’s own request step', () => {
  it.each(API)('Given the bundled document, when %s (%s), then both answer alike', async (_name, url, init) => {
    const [ours, library] = await Promise.all([echo(document, 'ours'), echo(document, 'library')]);
    const answers = await Promise.all([ours(url, init), library(url, init)]);
    expect(answers[0]).toEqual({ ...answers[1], documented: answers[0].documented });
  });

  it.each(KINDS)('Given other parameter kinds, when %s (%s), then both answer alike', async (_name, url, init) => {
    const [ours, library] = await Promise.all([echo(kinds, 'ours'), echo(kinds, 'library')]);
    const answers = await Promise.all([ours(url, init), library(url, init)]);
    expect(answers[0]).toEqual({ ...answers[1], documented: answers[0].documented });
  });
});

describe('the request check: what reaches the handler and what a refusal is answered', () => {
  it.each(API)(
    'Given the bundled document, when %s (%s), then the documented answer is %s',
    async (_n, url, init, message) => {
      const answer = await (await echo(document, 'ours'))(url, init);
      expect(answer.status === 200 ? undefined : answer.documented).toEqual(message);
    },
  );

  it('Given query and path parameters, then the handler gets them typed, with the defaults', async () => {
    const answer = await (await echo(document, 'ours'))('/item/listing/7?count=5&game=730&extra=x');
    expect(answer).toMatchObject({
      status: 200,
      params: { item: 7 },
      query: { count: 5, game: 730, page: 0, extra: 'x' },
    });
  });

  it('Given arrays, numbers and booleans, then the handler gets them typed', async () => {
    const answer = await (await echo(kinds, 'ours'))('/things/1,2?tags=a&csv=3,4&ratio=0.5&flag=false', {
      headers: { 'x-count': '2' },
    });
    expect(answer).toMatchObject({
      status: 200,
      params: { ids: [1, 2] },
      query: { tags: ['a'], csv: [3, 4], ratio: 0.5, flag: false },
    });
  });
});

describe('rawQuery: the query string as url.parse reads it', () => {
  it.each([
    '/a',
    '/a?',
    '/a?x=1',
    '/a?x=1?y',
    "/a?x='1'",
    '/a?x=1#h',
    '/a#h?x=1',
    '/a@b?x=1#h',
    "/a@b?x='1'",
    '//a?x=1',
    '///a?x=1',
    'http://host/a?x=1#h',
  ])('%s', (url) => {
    expect(rawQuery(url) ?? null).toEqual(parse(url).query);
  });
});
