// Prism's own problem answers (what it says when it disagrees with a request the front let through)
// in the API's conventions, through the server's validation rules.
import type { OperationInfo } from '@marketplace/server/request-rules';
import { describe, expect, it } from 'vitest';
import { prismIssue, rewritePrismProblem } from './prism-answer.ts';

const op: OperationInfo = {
  method: 'POST',
  path: '/item/buyorder',
  operationId: 'postItemBuyorder',
  permission: 'Connected + API',
  envelope: 'B',
  errorMessages: [{ message: 'Amount must be a number', condition: 'absent', field: 'amount', reason: 'missing' }],
  rateLimits: [],
  numericParams: [],
};

describe('prismIssue', () => {
  it.each([
    [{ location: ['body'], code: 'required', message: "must have required property 'amount'" }, '/body/amount'],
    [{ location: ['body', 'itemid'], code: 'type', message: 'must be integer' }, '/body/itemid'],
    [{ location: ['query', 'game'], code: 'enum' }, '/query/game'],
    [{ location: ['path', 'item'], code: 'type' }, '/params/item'],
  ])('%j is at %s', (item, path) => {
    expect(prismIssue(item).path).toBe(path);
    expect(prismIssue(item).errorCode).toBe(`${item.code}.openapi.validation`);
  });
});

describe('rewritePrismProblem', () => {
  it("turns Prism's 422 into the operation's documented message in its envelope", () => {
    const problem = { validation: [{ location: ['body'], code: 'required', message: "required property 'amount'" }] };
    expect(rewritePrismProblem(422, problem, op)).toEqual({
      status: 300,
      envelope: 'B',
      content: 'Amount must be a number',
      unexpected: false,
    });
  });

  it('turns a 401 into 403 forbidden, a 404 into Not found, anything else into a 500 worth logging', () => {
    expect(rewritePrismProblem(401, {}, op)).toMatchObject({ status: 403, content: 'forbidden', unexpected: false });
    expect(rewritePrismProblem(404, {}, op)).toMatchObject({ status: 404, content: 'Not found', unexpected: false });
    expect(rewritePrismProblem(500, { title: 'NOT_FOUND' }, op)).toMatchObject({ status: 500, unexpected: true });
  });
});
