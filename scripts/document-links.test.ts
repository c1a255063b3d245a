import { describe, expect, it } from 'vitest';
import { expressionsIn, identifierInputs, linkProblems, schemaAt } from './document-links.ts';
import { operationsOf } from './document-source.ts';

const envelope = (content: object) => ({
  content: { 'application/json': { schema: { type: 'object', properties: { content } } } },
});
const cartRows = envelope({
  type: 'object',
  properties: { cart: { type: 'array', items: { type: 'object', properties: { cartId: { type: 'integer' } } } } },
});
const body = (properties: object, required: string[]) => ({
  content: { 'application/json': { schema: { type: 'object', required, properties } } },
});

/** A small document: a login, a cart add that returns rows and a cart remove that takes one. */
function doc(links: { login?: object; add?: object } = {}) {
  return {
    openapi: '3.1.0',
    security: [{ bearerAuth: [] }],
    paths: {
      '/user/login': {
        post: {
          operationId: 'postUserLogin',
          security: [],
          requestBody: body({ apiKey: { type: 'string' } }, ['apiKey']),
          responses: {
            '200': {
              ...envelope({ type: 'object', properties: { jwt: { type: 'string' } } }),
              links: links.login ?? {
                add: {
                  operationId: 'postCartAdd',
                  parameters: { 'header.Authorization': 'Bearer {$response.body#/content/jwt}' },
                },
                remove: {
                  operationId: 'postCartRemove',
                  parameters: { 'header.Authorization': 'Bearer {$response.body#/content/jwt}' },
                },
              },
            },
          },
        },
      },
      '/cart/add': {
        post: {
          operationId: 'postCartAdd',
          requestBody: body({ comment: { type: 'string' } }, ['comment']),
          responses: {
            '200': {
              ...cartRows,
              links: links.add ?? {
                remove: {
                  operationId: 'postCartRemove',
                  requestBody: { cartId: '$response.body#/content/cart/0/cartId' },
                },
              },
            },
          },
        },
      },
      '/cart/remove': {
        post: {
          operationId: 'postCartRemove',
          requestBody: body({ cartId: { type: 'integer', minimum: 1 } }, ['cartId']),
          responses: { '200': cartRows },
        },
      },
    },
  };
}

const remove = (link: object) => ({ add: { remove: { operationId: 'postCartRemove', ...link } } });

describe('linkProblems', () => {
  it('finds none in a document whose links are complete', () => {
    expect(linkProblems(doc())).toEqual([]);
  });

  it.each([
    [
      'an identifier no link sets',
      { add: {} },
      ['postCartRemove takes the identifier body cartId but no link sets it'],
    ],
    [
      'a Connected operation the login does not link to',
      { login: {} },
      [
        "postCartAdd needs a JWT but no link of postUserLogin gives it (header.Authorization: 'Bearer {$response.body#/content/jwt}')",
        "postCartRemove needs a JWT but no link of postUserLogin gives it (header.Authorization: 'Bearer {$response.body#/content/jwt}')",
      ],
    ],
    [
      'a login link that does not give the JWT',
      {
        login: {
          add: { operationId: 'postCartAdd' },
          remove: {
            operationId: 'postCartRemove',
            parameters: { 'header.Authorization': 'Bearer {$response.body#/content/jwt}' },
          },
        },
      },
      [
        "postCartAdd needs a JWT but no link of postUserLogin gives it (header.Authorization: 'Bearer {$response.body#/content/jwt}')",
      ],
    ],
    [
      'an expression reading an undeclared request header (the JWT cannot be passed on)',
      remove({ parameters: { 'header.Authorization': '$request.header.Authorization' }, requestBody: { cartId: 1 } }),
      ['postCartAdd 200 link remove: $request.header.Authorization: postCartAdd has no header parameter Authorization'],
    ],
    [
      'a pointer outside the answer',
      remove({ requestBody: { cartId: '$response.body#/content/rows/0/cartId' } }),
      ['postCartAdd 200 link remove: $response.body#/content/rows/0/cartId: not in the 200 answer of postCartAdd'],
    ],
    [
      'a value of the wrong type',
      remove({ requestBody: { cartId: '$request.body#/comment' } }),
      ['postCartAdd 200 link remove: $request.body#/comment gives string, cartId takes integer'],
    ],
    [
      'a literal of the wrong type',
      remove({ requestBody: { cartId: '7' } }),
      ['postCartAdd 200 link remove: "7" is not integer (cartId)'],
    ],
    [
      'a literal the operation refuses (below its minimum)',
      remove({ requestBody: { cartId: 0 } }),
      ['postCartAdd 200 link remove: postCartRemove would refuse cartId 0 (the value must be >= 1)'],
    ],
    [
      'a null body (a JSON null is sent, not "no body")',
      remove({ requestBody: null }),
      [
        'postCartAdd 200 link remove: postCartRemove would refuse the body null (the value must be object)',
        'postCartRemove takes the identifier body cartId but no link sets it',
      ],
    ],
    [
      'a body missing a required field',
      remove({ requestBody: {} }),
      [
        "postCartAdd 200 link remove: the body lacks postCartRemove's required cartId",
        'postCartRemove takes the identifier body cartId but no link sets it',
      ],
    ],
    [
      'an unknown operation or parameter',
      {
        add: {
          a: { operationId: 'postNothing' },
          remove: { operationId: 'postCartRemove', parameters: { 'path.x': '1' }, requestBody: { cartId: 1 } },
        },
      },
      [
        'postCartAdd 200 link a: operationId postNothing is not an operation of the document',
        'postCartAdd 200 link remove: postCartRemove has no parameter path.x',
      ],
    ],
  ])('finds %s', (_, links, want) => {
    expect(linkProblems(doc(links))).toEqual(want);
  });
});

describe('the pieces', () => {
  it('reads expressions whole or embedded, in nested values', () => {
    expect(expressionsIn({ a: 'Bearer {$response.body#/content/jwt}', b: ['$request.path.item', 3, 'text'] })).toEqual([
      '$response.body#/content/jwt',
      '$request.path.item',
    ]);
  });

  it('follows a pointer through properties, array items and open objects', () => {
    const schema = cartRows.content['application/json'].schema;
    expect(schemaAt(schema, '/content/cart/0/cartId')).toEqual({ type: 'integer' });
    expect(schemaAt(schema, '/content/cart/x')).toBeUndefined();
    expect(schemaAt({ type: 'object', additionalProperties: true }, '/anything')).toEqual({});
  });

  it('tries each branch of a composition, so a name typed differently in another branch does not hide a path', () => {
    // GET /user/notifications: `paymentReviews` is a list in one description and a count in the other.
    const id = { type: 'integer', minimum: 1 };
    const content = {
      oneOf: [
        { type: 'object', properties: { paymentReviews: { type: 'array', items: { properties: { id } } } } },
        { type: 'object', properties: { paymentReviews: { type: 'integer' } } },
      ],
    };
    const schema = { allOf: [{ properties: { err: { type: 'boolean' } } }, { properties: { content } }] };
    expect(schemaAt(schema, '/content/paymentReviews/0/id')).toEqual(id);
    expect(schemaAt(schema, '/content/paymentReviews')).toEqual(content.oneOf[0]!.properties.paymentReviews);
    expect(schemaAt(schema, '/content/paymentReviews/0/other')).toBeUndefined();
    expect(schemaAt({ oneOf: [{ type: 'integer' }] }, '/0')).toBeUndefined();
  });

  it('takes path parameters and required identifier fields as identifiers, enums aside', () => {
    const d = {
      paths: {
        '/deposit/{game}/{ticket}': {
          post: {
            operationId: 'postX',
            parameters: [
              { name: 'game', in: 'path', schema: { type: 'integer', enum: [440, 730] } },
              { name: 'ticket', in: 'path', schema: { type: 'integer' } },
              { name: 'transactionId', in: 'query', required: true, schema: { type: 'string' } },
              { name: 'page', in: 'query', required: true, schema: { type: 'integer' } },
            ],
            requestBody: body(
              { cartId: { type: 'integer' }, sellerUserId: { type: 'string' }, price: { type: 'integer' } },
              ['cartId', 'price'],
            ),
          },
        },
      },
    };
    expect(identifierInputs(d, operationsOf(d)[0]!)).toEqual([
      { in: 'path', name: 'ticket' },
      { in: 'query', name: 'transactionId' },
      { in: 'body', name: 'cartId' },
    ]);
  });
});
