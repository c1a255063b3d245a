import { describe, expect, it } from 'vitest';
import { checkResponse, type RecordedExchange, templateRegex } from './contract.ts';
import { deref, document } from './document.ts';

const BASE = 'http://api.test';

/** A documented example body of an operation's response. */
function example(path: string, method: string, status: string, name?: string): unknown {
  const examples = deref(document.paths[path][method].responses[status]).content['application/json'].examples;
  return (name ? examples[name] : (Object.values(examples)[0] as { value: unknown })).value;
}

const exchange = (
  x: Partial<RecordedExchange> & Pick<RecordedExchange, 'method' | 'url' | 'status' | 'body'>,
): RecordedExchange => ({
  headers: {},
  contentType: 'application/json; charset=utf-8',
  ...x,
  url: `${BASE}${x.url}`,
});

const login = (status: number, body: unknown, more: Partial<RecordedExchange> = {}) =>
  exchange({ method: 'POST', url: '/user/login', status, body, ...more });
const loginOk = example('/user/login', 'post', '200') as { content: { jwt: string } };
const limited = example('/user/login', 'post', '429');
const RATE_HEADERS = {
  'x-ratelimit-limit': '600',
  'x-ratelimit-remaining': '0',
  'x-ratelimit-reset': '1717250460',
  'retry-after': '42',
};

describe('checkResponse', () => {
  it.each([
    ['the documented success', login(200, loginOk)],
    [
      'a documented business error',
      login(300, { err: true, success: false, content: 'Missing required parameter: apiKey' }),
    ],
    ['a documented 403 message', login(403, { err: true, success: false, content: 'Invalid API key' })],
    ['a 429 with its four integer headers', login(429, limited, { headers: RATE_HEADERS })],
    [
      'a shared 403 on a route that does not list it',
      exchange({
        method: 'GET',
        url: '/item/details/5021',
        status: 403,
        body: { err: true, success: false, content: 'forbidden' },
      }),
    ],
    [
      'a 404 on a path outside the document',
      exchange({ method: 'GET', url: '/nowhere', status: 404, body: 'Not found', contentType: 'text/plain' }),
    ],
    [
      'a global fallback message',
      exchange({
        method: 'GET',
        url: '/public/sales',
        status: 300,
        body: { err: true, success: false, content: 'Invalid limit parameter' },
      }),
    ],
    [
      'a protocol answer (x-protocol-errors) on an operation that does not list it',
      login(431, { err: true, success: false, content: 'Request header fields too large' }),
    ],
    [
      'envelope B where documented',
      exchange({ method: 'GET', url: '/infos/admin', status: 200, body: example('/infos/admin', 'get', '200') }),
    ],
  ])('accepts %s', (_, x) => {
    expect(checkResponse(x)).toEqual([]);
  });

  it.each([
    ['a wrong status', login(201, loginOk), /status 201 is not documented for POST \/user\/login/],
    [
      'a missing field',
      login(200, { err: false, success: true, content: {} }),
      /body\/content must have required property 'jwt'/,
    ],
    [
      'a field of the wrong type',
      login(200, { err: false, success: true, content: { jwt: 12 } }),
      /body\/content\/jwt must be string/,
    ],
    [
      'an undocumented message',
      login(300, { err: true, success: false, content: 'Something went wrong' }),
      /300 message "Something went wrong" is not documented/,
    ],
    [
      'a 429 without its headers',
      login(429, limited),
      /429 without integer x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after/,
    ],
    [
      'a 429 with a non-integer header',
      login(429, limited, { headers: { ...RATE_HEADERS, 'retry-after': 'soon' } }),
      /429 without integer retry-after/,
    ],
    [
      'an undocumented content type',
      login(200, '<html>', { contentType: 'text/html' }),
      /content type text\/html is not documented/,
    ],
    [
      'envelope A where B is documented',
      exchange({ method: 'GET', url: '/infos/admin', status: 200, body: { err: false, success: true, content: [] } }),
      /body/,
    ],
    [
      'a protocol status with another message',
      login(431, { err: true, success: false, content: 'Too many headers' }),
      /431 message "Too many headers" is not the document's protocol answer "Request header fields too large"/,
    ],
    [
      'a protocol status outside envelope A',
      login(400, { message: 'Bad request' }),
      /body must have required property 'err'/,
    ],
    [
      'a protocol status as text',
      login(431, 'Request Header Fields Too Large', { contentType: 'text/plain' }),
      /content type text\/plain is not documented/,
    ],
    [
      'a success on a path outside the document',
      exchange({ method: 'GET', url: '/nowhere', status: 200, body: {} }),
      /not in the document/,
    ],
  ])('reports %s', (_, x, want) => {
    const violations = checkResponse(x);
    expect(violations.join('; ')).toMatch(want);
  });
});

describe('templateRegex', () => {
  it.each([
    ['invalid deposit key for assetId: <asset_id>', 'invalid deposit key for assetId: 123', true],
    ['invalid deposit key for assetId: <asset_id>', 'invalid deposit key for assetId: ', false],
    ['Price limit exceeded (maximum <max> cents)', 'Price limit exceeded (maximum 4000 cents)', true],
    ['Price limit exceeded (maximum <max> cents)', 'Price limit exceeded (maximum 4000 cents) ', false],
    ['Invalid API key', 'Invalid API key', true],
  ])('%s against %j: %s', (template, message, want) => {
    expect(templateRegex(template).test(message)).toBe(want);
  });
});
