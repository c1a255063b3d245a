import { describe, expect, it } from 'vitest';
import { coerceFormValue, foldExplodedObjects } from './form-body.ts';

const doc = {
  components: {
    schemas: {
      Price: { type: 'object', properties: { ids: { type: 'string' }, price: { type: 'integer' } } },
      Deposit: {
        type: 'object',
        properties: {
          value: { oneOf: [{ type: 'object' }, { type: 'string' }] },
          game: { type: 'integer', enum: [440, 730] },
          enabled: { type: 'boolean' },
          notifications: { type: 'object', properties: { marketing: { type: 'boolean' } } },
          code: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
          wear: { type: ['number', 'null'] },
          tags: { type: 'array', items: { type: 'integer' } },
          prices: { oneOf: [{ type: 'object', additionalProperties: { type: 'integer' } }, { type: 'string' }] },
        },
      },
      Switches: {
        type: 'object',
        properties: {
          notifications: {
            type: 'object',
            properties: { marketing: { type: 'boolean' }, itemSold: { type: 'boolean' } },
          },
          settings: {
            type: 'object',
            properties: { marketing: { type: 'boolean' }, profilePublic: { type: 'boolean' } },
          },
          name: { type: 'string' },
        },
      },
    },
  },
};
const price = { $ref: '#/components/schemas/Price' };
const deposit = { $ref: '#/components/schemas/Deposit' };

describe('coerceFormValue', () => {
  it.each([
    ['an integer field', price, { ids: '12,13', price: '150' }, { ids: '12,13', price: 150 }],
    ['a string that only looks numeric', price, { ids: '12' }, { ids: '12' }],
    ['a non-numeric integer field (left for the validator)', price, { price: 'abc' }, { price: 'abc' }],
    ['a string-or-object field', deposit, { value: '{"1":2}' }, { value: '{"1":2}' }],
    ['an enum of integers', deposit, { game: '730' }, { game: 730 }],
    [
      'booleans, also nested',
      deposit,
      { enabled: 'false', notifications: { marketing: 'true' } },
      { enabled: false, notifications: { marketing: true } },
    ],
    ['a nullable number', deposit, { wear: '0.25' }, { wear: 0.25 }],
    ['an empty nullable', deposit, { wear: '' }, { wear: null }],
    ['array items', deposit, { tags: ['1', '2'] }, { tags: [1, 2] }],
    ['a single value for an array', deposit, { tags: '7' }, { tags: [7] }],
    ['an unknown field', deposit, { other: '5' }, { other: '5' }],
    ['the entries of a map (deepObject)', deposit, { prices: { '123': '150' } }, { prices: { '123': 150 } }],
    ['a map sent as JSON text', deposit, { prices: '{"123":150}' }, { prices: '{"123":150}' }],
  ])('converts %s', (_, schema, body, want) => {
    expect(coerceFormValue(body, schema, doc)).toEqual(want);
  });
});

describe('foldExplodedObjects', () => {
  const switches = doc.components.schemas.Switches;
  it.each([
    ['a key of one object into it', { itemSold: 'false' }, { notifications: { itemSold: 'false' } }],
    [
      'next to the deepObject notation',
      { notifications: { itemSold: 'true' }, profilePublic: 'false' },
      { notifications: { itemSold: 'true' }, settings: { profilePublic: 'false' } },
    ],
    ['not a key two objects declare', { marketing: 'false' }, { marketing: 'false' }],
    ['not a key the body declares', { name: 'x' }, { name: 'x' }],
    ['not an unknown key', { other: '1' }, { other: '1' }],
    [
      'not into a field sent as text',
      { notifications: 'x', itemSold: 'true' },
      { notifications: 'x', itemSold: 'true' },
    ],
  ])('moves %s', (_, body, want) => {
    expect(foldExplodedObjects(body, switches, doc)).toEqual(want);
  });
});
