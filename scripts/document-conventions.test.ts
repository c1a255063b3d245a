import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  admitsReserved,
  conventionProblems,
  formEncodingProblems,
  nonStringGaps,
  reservedQueryProblems,
} from './document-conventions.ts';

describe('nonStringGaps', () => {
  it('finds an x-gaps item YAML read as an object because of an unquoted ": "', () => {
    const doc = parse(`
get:
  x-gaps:
    - The body is not shown.
    - The body is not shown; {id, bans: Ban[]} is ours.
    - 'Quoted: {id, bans: Ban[]} is a string.'
tags:
  - name: A
    x-gaps: one string
`);
    expect(nonStringGaps(doc)).toEqual(['/get/x-gaps/1 is not a string', '/tags/0/x-gaps is not a list']);
  });
});

describe('the document', () => {
  it('keeps every convention (string x-gaps, allowReserved, form encodings, links)', () => {
    expect(conventionProblems(resolve(import.meta.dirname, '../openapi'))).toEqual([]);
  });
});

describe('admitsReserved', () => {
  it.each([
    ['free text', { type: 'string', maxLength: 64 }, true],
    ['an enum of plain words', { type: 'string', enum: ['json', 'csv'] }, false],
    ['an enum holding a reserved character', { type: 'string', enum: ['a,b'] }, true],
    ['digits only', { type: 'string', pattern: '^[0-9]{17}$' }, false],
    ['a pattern admitting commas', { type: 'string', pattern: '^[0-9]+(,[0-9]+)*$', example: '1,2' }, true],
    ['an integer', { type: 'integer' }, false],
    ['a boolean', { type: 'boolean' }, false],
  ])('%s: %s', (_, schema, want) => {
    expect(admitsReserved(schema)).toBe(want);
  });
});

const operation = (op: object) => ({ openapi: '3.1.0', paths: { '/x': { get: { operationId: 'getX', ...op } } } });

describe('reservedQueryProblems', () => {
  it('asks allowReserved of a query parameter admitting reserved characters, and of no other', () => {
    const doc = operation({
      parameters: [
        { name: 'search', in: 'query', schema: { type: 'string' } },
        { name: 'q', in: 'query', allowReserved: true, schema: { type: 'string' } },
        { name: 'page', in: 'query', schema: { type: 'integer' } },
        { name: 'id', in: 'path', schema: { type: 'string' } },
      ],
    });
    expect(reservedQueryProblems(doc)).toEqual([expect.stringMatching(/^GET \/x: query search admits a reserved/)]);
  });
});

describe('formEncodingProblems', () => {
  const form = (encoding?: object) =>
    operation({
      requestBody: {
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              properties: {
                notifications: { type: 'object', properties: { marketing: { type: 'boolean' } } },
                code: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
                name: { type: 'string' },
              },
            },
            ...(encoding ? { encoding } : {}),
          },
        },
      },
    });
  it('asks deepObject for an object field and form for an array field', () => {
    expect(formEncodingProblems(form())).toEqual([
      'GET /x: form field notifications needs encoding {style: deepObject, explode: true} (the notation the server reads)',
      'GET /x: form field code needs encoding {style: form, explode: true} (the notation the server reads)',
    ]);
    expect(
      formEncodingProblems(
        form({ notifications: { style: 'deepObject', explode: true }, code: { style: 'form', explode: true } }),
      ),
    ).toEqual([]);
  });
  it('refuses the wrong style', () => {
    expect(
      formEncodingProblems(
        form({ notifications: { style: 'form', explode: true }, code: { style: 'form', explode: true } }),
      ),
    ).toHaveLength(1);
  });
});
