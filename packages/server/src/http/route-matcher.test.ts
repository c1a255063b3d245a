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
});
const matcher = new RouteMatcher([
  op('GET', '/user/disconnectSession/{id}'),
  op('GET', '/user/disconnectSession/all'),
  op('GET', '/item/listing/{item}'),
  op('GET', '/item/listing/count/{item}'),
  op('POST', '/item/buyorder'),
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
});
