import { describe, expect, it } from 'vitest';
import type { Operation } from '../oracle/document.ts';
import { breakers, expectedMessages, negativeCases } from './negative.ts';

const operation = (op: object, path = '/x'): Operation => ({
  method: 'POST',
  path,
  id: 'postX',
  permission: 'None',
  name: `POST ${path}`,
  op,
});

describe('breakers', () => {
  it.each([
    [
      'integer with bounds',
      { type: 'integer', minimum: 1, maximum: 50 },
      [
        ['not-a-number', 'type'],
        [0, 'minimum'],
        [51, 'maximum'],
      ],
    ],
    [
      'string with maxLength',
      { type: 'string', maxLength: 3 },
      [
        [{ an: 'object' }, 'type'],
        ['xxxx', 'maxLength'],
      ],
    ],
    [
      'string with pattern',
      { type: 'string', pattern: '^[a-z]+$', maxLength: 5 },
      [
        [{ an: 'object' }, 'type'],
        ['xxxxxx', 'maxLength'],
        ['!!!', 'pattern'],
      ],
    ],
    ['enum', { type: 'string', enum: ['json', 'csv'] }, [['not-in-the-enum', 'enum']]],
    ['boolean', { type: 'boolean' }, [['maybe', 'type']]],
    [
      'nullable integer',
      { type: ['integer', 'null'], minimum: 0 },
      [
        ['not-a-number', 'type'],
        [-1, 'minimum'],
      ],
    ],
    [
      'array with maxItems',
      { type: 'array', maxItems: 2, items: { type: 'string' } },
      [
        ['not-an-array', 'type'],
        [['1', '1', '1'], 'maxItems'],
      ],
    ],
    ['oneOf string or object', { oneOf: [{ type: 'string' }, { type: 'object' }] }, [[12345, 'type']]],
  ])('%s', (_, schema, want) => {
    expect(breakers(schema).map((b) => [b.value, b.keyword])).toEqual(want);
  });

  it('does not offer a pattern breaker the pattern accepts', () => {
    expect(breakers({ type: 'string', pattern: '^.*$' }).map((b) => b.keyword)).not.toContain('pattern');
  });
});

const shortUrl = operation({
  requestBody: {
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['shortUrl'],
          properties: { shortUrl: { type: 'string', minLength: 3, maxLength: 20, pattern: '^[A-Za-z0-9-]+$' } },
        },
        examples: { ok: { value: { shortUrl: 'my-store' } } },
      },
    },
  },
  parameters: [{ name: 'page', in: 'query', required: true, schema: { type: 'integer', minimum: 0 } }],
  'x-error-messages': [
    { message: 'Missing required parameter: shortUrl', field: 'shortUrl', reason: 'missing' },
    { message: 'Invalid characters', field: 'shortUrl', reason: 'invalid', keyword: 'pattern' },
    { message: 'Short URL too short/long', field: 'shortUrl', reason: 'invalid', keyword: 'maxLength' },
    { message: 'Store not found' },
  ],
});

describe('negativeCases', () => {
  const cases = negativeCases(shortUrl);

  it('breaks one rule of the documented request per case', () => {
    expect(cases.map((c) => c.name)).toEqual([
      'query page missing',
      'query page: a string for a number',
      'query page: -1, below the minimum',
      'query page: an unencoded reserved character',
      'query page: sent twice',
      'query page: with brackets',
      'body shortUrl missing',
      'body shortUrl: an object for a string',
      'body shortUrl: 21 characters, above maxLength',
      'body shortUrl: a value outside the pattern',
      'a malformed JSON body',
      'a JSON array body',
      'an unknown content type',
    ]);
    const tooLong = cases.find((c) => c.keyword === 'maxLength')!;
    expect(tooLong.request.json).toEqual({ shortUrl: 'x'.repeat(21) });
    expect(tooLong.request.query).toEqual({ page: '0' });
    expect(cases.find((c) => c.name === 'body shortUrl missing')!.request.json).toEqual({});
    expect(cases.find((c) => c.name === 'query page missing')!.request.query).toEqual({});
  });

  it('writes an unencoded reserved character into the path, unless the parameter allows it', () => {
    expect(cases.find((c) => c.name === 'query page: an unencoded reserved character')!.request).toMatchObject({
      path: '/x?page=0!',
      query: {},
    });
    const allowed = operation({
      parameters: [{ name: 'search', in: 'query', allowReserved: true, schema: { type: 'string' } }],
    });
    expect(negativeCases(allowed).map((c) => c.name)).toEqual([
      'query search: sent twice',
      'query search: with brackets',
    ]);
    expect(cases.find((c) => c.name === 'query page: sent twice')!.request.path).toBe('/x?page=0&page=0');
  });

  it('sends every query parameter with brackets unencoded in the path, keeping the others, unless it is a deepObject', () => {
    const o = operation({
      parameters: [
        { name: 'page', in: 'query', required: true, schema: { type: 'integer', minimum: 0 } },
        { name: 'count', in: 'query', required: true, schema: { type: 'integer', minimum: 1 }, example: 5 },
        { name: 'filter', in: 'query', style: 'deepObject', schema: { type: 'object' } },
      ],
    });
    const brackets = negativeCases(o).filter((c) => c.name.endsWith('with brackets'));
    expect(brackets.map((c) => [c.name, c.request.path, c.request.query, c.field, c.reason])).toEqual([
      ['query page: with brackets', '/x?count=5&page[x]=0', {}, 'page', 'invalid'],
      ['query count: with brackets', '/x?page=0&count[x]=5', {}, 'count', 'invalid'],
    ]);
  });

  it('sends text no store can keep in a free-text field only, expecting the global invalid message', () => {
    const o = operation({
      requestBody: {
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { subject: { type: 'string', maxLength: 5 }, shortUrl: { type: 'string', pattern: '^x+$' } },
            },
            examples: { ok: { value: { subject: 'Hello', shortUrl: 'xx' } } },
          },
        },
      },
    });
    const text = negativeCases(o).filter((c) => c.name.includes('a string holding'));
    expect(text.map((c) => [c.name, (c.request.json as { subject: string }).subject, c.message])).toEqual([
      ['body subject: a string holding NUL', 'Hell\u0000', 'Invalid subject parameter'],
      ['body subject: a string holding an unpaired surrogate', 'Hell\ud800', 'Invalid subject parameter'],
    ]);
  });

  it('breaks path parameters in the path', () => {
    const o = operation(
      { parameters: [{ name: 'item', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }] },
      '/item/{item}',
    );
    expect(negativeCases(o).map((c) => c.request.path)).toEqual(['/item/not-a-number', '/item/0']);
  });

  it.each([
    ['the message of the failing keyword', 'body shortUrl: a value outside the pattern', ['Invalid characters']],
    [
      'the message of the failing keyword',
      'body shortUrl: 21 characters, above maxLength',
      ['Short URL too short/long'],
    ],
    [
      'the field’s messages when none names the keyword',
      'body shortUrl: an object for a string',
      ['Invalid characters', 'Short URL too short/long'],
    ],
    ['the missing message', 'body shortUrl missing', ['Missing required parameter: shortUrl']],
    ['the documented fallback without an entry', 'query page: -1, below the minimum', ['Invalid page parameter']],
    ['the missing fallback', 'query page missing', ['Missing required parameter: page']],
    ['the invalid fallback', 'query page: an unencoded reserved character', ['Invalid page parameter']],
    ['the invalid fallback for brackets', 'query page: with brackets', ['Invalid page parameter']],
    ['nothing for a malformed body', 'a malformed JSON body', []],
    ['the global message for a JSON array', 'a JSON array body', ['Invalid request body']],
  ])('expects %s (%s)', (_, name, want) => {
    expect(expectedMessages(shortUrl, cases.find((c) => c.name === name)!)).toEqual(want);
  });
});
