import { describe, expect, it } from 'vitest';
import type { OperationInfo } from './operation-index.ts';
import { RouteMatcher } from './route-matcher.ts';

const op = (method: string, path: string): OperationInfo => ({
  method,
  path,
  operationId: `${method}${path}`,
  permission: 'None',
  envelope: 'A',
  rateLimits: [],
  errorMessages: [],
  numericParams: path.includes('{item}') ? ['item'] : [],
});
const matcher = new RouteMatcher([
  op('GET', '/user/disconnectSession/{id}'),
  op('GET', '/user/disconnectSession/all'),
  op('GET', '/item/listing/{item}'),
  op('GET', '/item/listing/count/{item}'),
  op('POST', '/item/buyorder'),
  op('GET', '/support/admin/ticket/{user}/{ticket}'),
]);

describe('RouteMatcher', () => {
  it.each([
    ['GET', '/user/disconnectSession/all', '/user/disconnectSession/all'],
    ['GET', '/user/disconnectSession/12', '/user/disconnectSession/{id}'],
    ['GET', '/item/listing/count/5', '/item/listing/count/{item}'],
    ['GET', '/item/listing/5', '/item/listing/{item}'],
    ['post', '/item/buyorder/', '/item/buyorder'],
  ])('%s %s is %s', (method, path, want) => {
    expect(matcher.match(method, path)?.path).toBe(want);
  });

  it('knows nothing of other methods or paths', () => {
    expect(matcher.match('GET', '/item/buyorder')).toBeUndefined();
    expect(matcher.match('GET', '/nope')).toBeUndefined();
    expect(matcher.knowsPath('/item/buyorder')).toBe(true);
  });

  it('gives the path parameters of the chosen operation, decoded, by name', () => {
    const path = '/support/admin/ticket/76561198%2000/7';
    const found = matcher.match('GET', path)!;
    expect(matcher.params(found, path)).toEqual({ user: '76561198 00', ticket: '7' });
    const literal = matcher.match('GET', '/user/disconnectSession/all')!;
    expect(matcher.params(literal, '/user/disconnectSession/all')).toEqual({});
  });

  it('hands over the parameters the document types as numbers as numbers', () => {
    const found = matcher.match('GET', '/item/listing/count/5021')!;
    expect(matcher.typedParams(found, '/item/listing/count/5021')).toEqual({ item: 5021 });
    const ticket = matcher.match('GET', '/support/admin/ticket/76561198000000001/7')!;
    expect(matcher.typedParams(ticket, '/support/admin/ticket/76561198000000001/7')).toEqual({
      user: '76561198000000001',
      ticket: '7',
    });
  });

  it('keeps a malformed escape as sent, for the schema to judge', () => {
    const found = matcher.match('GET', '/item/listing/%E0%A4')!;
    expect(matcher.params(found, '/item/listing/%E0%A4')).toEqual({ item: '%E0%A4' });
  });
});
