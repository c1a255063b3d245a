import { describe, expect, it } from 'vitest';
import { document, helperDocument } from '../oracle/document.ts';
import { bodyBytes } from './body-size.ts';

const body = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const both = (schema: unknown) => [bodyBytes({}, body(schema), 'least'), bodyBytes({}, body(schema), 'most')];

describe('bodyBytes', () => {
  it('counts a string at its maxLength, 9 bytes a character, plus 1,024; only the most generous reading counts the name', () => {
    expect(both({ type: 'object', properties: { code: { type: 'string', maxLength: 10 } } })).toEqual([
      90 + 1024,
      90 + 64 + 4 * 9 + 64 + 64 + 1024,
    ]);
  });

  it('takes the larger branch of a oneOf, every array at its maxItems, and Infinity where nothing bounds it', () => {
    const code = {
      oneOf: [
        { type: 'string', maxLength: 4 },
        { type: 'array', maxItems: 3, items: { type: 'string', maxLength: 2 } },
      ],
    };
    expect(bodyBytes({}, body(code), 'least')).toBe(3 * 2 * 9 + 1024);
    expect(bodyBytes({}, body({ type: 'string' }), 'least')).toBe(Number.POSITIVE_INFINITY);
    expect(bodyBytes({}, body({ type: 'array', items: { type: 'integer' } }), 'most')).toBe(Number.POSITIVE_INFINITY);
    expect(bodyBytes({}, body({ type: 'object', additionalProperties: { type: 'integer' } }), 'most')).toBe(
      Number.POSITIVE_INFINITY,
    );
  });

  it('counts a string bounded by its pattern alone at its largest repetition (least) or its pattern times that (most)', () => {
    expect(both({ type: 'string', pattern: '^[0-9]{17}$' })).toEqual([17 * 9 + 1024, 11 * 17 * 9 + 64 + 1024]);
    expect(both({ type: 'string', pattern: '^[a-z]{3}-[0-9]{1,20}$' })[0]).toBe(20 * 9 + 1024);
    expect(both({ type: 'string', pattern: '^[0-9]$' })[0]).toBe(1024);
    expect(bodyBytes({}, body({ type: 'string', pattern: '[0-9]{3}' }), 'least')).toBe(1024);
    expect(bodyBytes({}, body({ type: 'string', pattern: '^[0-9]+$' }), 'most')).toBe(Number.POSITIVE_INFINITY);
    expect(bodyBytes({}, body({ type: 'string', pattern: '[0-9]{3}' }), 'most')).toBe(Number.POSITIVE_INFINITY);
  });

  it("gives the document's operations their counts: a code of 128 characters, the items helper unbounded", () => {
    const reset = document.paths['/user/reset2FA/validate'].post.requestBody;
    expect(bodyBytes(document, reset, 'least')).toBe(128 * 9 + 1024);
    const items = helperDocument.paths['/test_helpers/items'].post.requestBody;
    expect(bodyBytes(helperDocument, items, 'most')).toBe(Number.POSITIVE_INFINITY);
    const clock = helperDocument.paths['/test_helpers/clock'].post.requestBody;
    expect(bodyBytes(helperDocument, clock, 'least')).toBe(1024);
  });
});
