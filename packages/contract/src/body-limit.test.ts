import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bodyLimitOf, patternBound, schemaBound } from './body-limit.ts';
import { BUNDLED_DOCUMENT } from './document.ts';

const doc = JSON.parse(readFileSync(BUNDLED_DOCUMENT, 'utf8'));
const operations = Object.values(doc.paths).flatMap((item) => Object.values(item as object)) as Record<
  string,
  // biome-ignore lint/suspicious/noExplicitAny: document JSON
  any
>[];

describe('schemaBound', () => {
  it('bounds strings by maxLength or an anchored pattern, 9 bytes a character', () => {
    expect(schemaBound({}, { type: 'string', maxLength: 10 })).toBe(92);
    expect(patternBound('^[0-9]{17}$')).toBe(11 * 17);
    expect(patternBound('^[0-9]{1,20}(,[0-9]{1,20})*$')).toBe(Number.POSITIVE_INFINITY);
    expect(patternBound('[0-9]{3}')).toBe(Number.POSITIVE_INFINITY);
    expect(schemaBound({}, { type: 'string' })).toBe(Number.POSITIVE_INFINITY);
  });

  it('bounds arrays by maxItems and maps by maxProperties, and takes the largest oneOf branch', () => {
    const item = { type: 'string', maxLength: 1 };
    expect(schemaBound({}, { type: 'array', items: item, maxItems: 3 })).toBe(3 * (11 + 8) + 2);
    expect(schemaBound({}, { type: 'array', items: item })).toBe(Number.POSITIVE_INFINITY);
    expect(schemaBound({}, { type: 'object', additionalProperties: item })).toBe(Number.POSITIVE_INFINITY);
    expect(schemaBound({}, { oneOf: [item, { type: 'integer' }] })).toBe(32);
  });
});

describe('the body limits of the document', () => {
  const withBody = operations.filter((op) => op.requestBody);

  it('are finite for every operation with a body (x-body-limit where the schema sets no bound)', () => {
    const unbounded = withBody.filter((op) => !Number.isFinite(bodyLimitOf(doc, op)!)).map((op) => op.operationId);
    expect(unbounded).toEqual([]);
  });

  it('admit every documented request example, as JSON and as a form', () => {
    for (const op of withBody) {
      const limit = bodyLimitOf(doc, op)!;
      for (const media of Object.values(op.requestBody.content ?? {}) as { examples?: object }[])
        for (const example of Object.values(media.examples ?? {}) as { value: Record<string, unknown> }[]) {
          const json = Buffer.byteLength(JSON.stringify(example.value));
          const form = new URLSearchParams(
            Object.entries(example.value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
          ).toString().length;
          expect(Math.max(json, form), op.operationId).toBeLessThanOrEqual(limit);
        }
    }
  });

  it('keep megabytes for the attachment routes, and the login to a few kilobytes', () => {
    const limit = (id: string) => bodyLimitOf(doc, operations.find((op) => op.operationId === id)!)!;
    expect(limit('postSupportCreate')).toBe(8_000_000);
    expect(limit('postUserLogin')).toBeLessThan(4096);
    const big = withBody.filter((op) => bodyLimitOf(doc, op)! > 2_000_000).map((op) => op.operationId);
    expect(big.sort()).toEqual(['postSupportCreate', 'postSupportPost']);
  });
});
