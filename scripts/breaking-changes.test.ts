import { describe, expect, it } from 'vitest';
import type { Json } from '../packages/contract/src/document.ts';
import { breakingChanges, checkRelease, releasedVersions } from './breaking-changes.ts';

/** A small document: one operation with a body, a query parameter and an enveloped answer. */
function doc(version = '1.0.0'): Json {
  return {
    openapi: '3.1.0',
    info: { title: 't', version },
    paths: {
      '/cart/add': {
        post: {
          operationId: 'postCartAdd',
          'x-permission': 'Connected + API',
          parameters: [{ $ref: '#/components/parameters/page' }],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['assetId'],
                  properties: { assetId: { type: 'string' }, mode: { type: 'string', enum: ['a', 'b'] } },
                },
              },
            },
          },
          responses: {
            '200': {
              content: {
                'application/json': {
                  schema: {
                    allOf: [
                      { $ref: '#/components/schemas/EnvelopeA' },
                      { properties: { content: { $ref: '#/components/schemas/CartRow' } } },
                    ],
                  },
                },
              },
            },
          },
        },
      },
      '/cart/get': { get: { operationId: 'getCartGet', responses: { '200': { description: 'ok' } } } },
    },
    components: {
      parameters: { page: { name: 'page', in: 'query', schema: { type: 'integer' } } },
      schemas: {
        // `content` is described twice (generic here, precise in the operation): both parts apply.
        EnvelopeA: {
          type: 'object',
          properties: { err: { type: 'boolean' }, success: { type: 'boolean' }, content: {} },
        },
        CartRow: {
          type: 'object',
          properties: {
            cartId: { type: 'integer' },
            items: { type: 'array', items: { type: 'object', properties: { price: { type: 'integer' } } } },
          },
        },
      },
    },
  };
}

const rules = (after: Json) => breakingChanges(doc(), after).map((b) => `${b.rule} ${b.detail}`);

describe('breakingChanges', () => {
  it('finds nothing between a document and itself, or when fields, values and operations are added', () => {
    expect(breakingChanges(doc(), doc())).toEqual([]);
    const after = doc();
    after.paths['/cart/new'] = { get: { responses: {} } };
    after.components.schemas.CartRow.properties.extra = { type: 'string' };
    after.paths['/cart/add'].post.requestBody.content['application/json'].schema.properties.note = { type: 'string' };
    after.paths['/cart/add'].post.requestBody.content['application/json'].schema.properties.mode.enum.push('c');
    expect(rules(after)).toEqual([]);
  });

  it('reports a removed operation', () => {
    const after = doc();
    delete after.paths['/cart/get'];
    expect(rules(after)).toEqual(['operation-removed getCartGet']);
  });

  it('reports a response field removed behind a $ref, inside allOf and array items', () => {
    const after = doc();
    delete after.components.schemas.CartRow.properties.items.items.properties.price;
    delete after.components.schemas.EnvelopeA.properties.success;
    expect(rules(after).sort()).toEqual([
      'response-field-removed response content.items[].price',
      'response-field-removed response success',
    ]);
  });

  it('reports a new required body field and a parameter that became required', () => {
    const after = doc();
    after.paths['/cart/add'].post.requestBody.content['application/json'].schema.required.push('mode');
    after.components.parameters.page.required = true;
    expect(rules(after).sort()).toEqual([
      'new-required-input parameter query page',
      'new-required-input request body mode',
    ]);
  });

  it('reports a narrowed request enum, and a request field that gained an enum', () => {
    const after = doc();
    const schema = after.paths['/cart/add'].post.requestBody.content['application/json'].schema;
    schema.properties.mode.enum = ['a'];
    schema.properties.assetId.enum = ['x'];
    expect(rules(after).sort()).toEqual([
      'enum-narrowed request assetId: now limited to ["x"]',
      'enum-narrowed request mode: ["b"] no longer accepted',
    ]);
  });

  it('reports changed types and a raised permission', () => {
    const after = doc();
    after.components.parameters.page.schema.type = 'string';
    after.components.schemas.CartRow.properties.cartId.type = 'string';
    after.paths['/cart/add'].post['x-permission'] = 'admin';
    expect(rules(after).sort()).toEqual([
      'permission-raised Connected + API → admin',
      'type-changed request parameter query page: integer → string',
      'type-changed response content.cartId: integer → string',
    ]);
  });
});

describe('checkRelease', () => {
  it('fails a breaking change without a new major version, and accepts it with one', () => {
    const after = doc('1.1.0');
    delete after.paths['/cart/get'];
    expect(checkRelease(doc(), after).problems).toHaveLength(1);
    const major = doc('2.0.0');
    delete major.paths['/cart/get'];
    expect(checkRelease(doc(), major)).toMatchObject({ problems: [], breaking: [{ rule: 'operation-removed' }] });
  });
});

describe('releasedVersions', () => {
  it('reads released versions newest first, skipping Unreleased', () => {
    expect(releasedVersions('# x\n## [Unreleased]\n## [1.1.0] - 2026-12-01\n## [1.0.0] - 2026-11-22\n')).toEqual([
      '1.1.0',
      '1.0.0',
    ]);
    expect(releasedVersions('# Changelog\n## [Unreleased]\n')).toEqual([]);
  });
});
