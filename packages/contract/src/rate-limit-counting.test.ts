import { describe, expect, it } from 'vitest';
import { BUNDLED_DOCUMENT, readDocument } from './document.ts';
import { indexOperations, type RateLimitRule } from './operation-index.ts';
import { ruleCounting } from './rate-limit-counting.ts';

const rule = (r: Partial<RateLimitRule>): RateLimitRule => ({
  limit: 1,
  window: 60,
  scope: 'ip',
  exceeded: 'reject',
  ...r,
});

describe('who counts a rule', () => {
  it('every request: a rule that refuses and counts everything, or says so', () => {
    expect(ruleCounting(rule({}))).toEqual({ by: 'every' });
    expect(ruleCounting(rule({ counts: 'every attempt with this API key' }))).toEqual({ by: 'every' });
  });

  it('the attempts answered with one message', () => {
    expect(ruleCounting(rule({ counts: 'attempts answered `Invalid API key`' }))).toEqual({
      by: 'answered',
      message: 'Invalid API key',
    });
  });

  it('the requests with a query value', () => {
    expect(ruleCounting(rule({ counts: 'requests with update=1', exceeded: 'serve-cached' }))).toEqual({
      by: 'matching',
      param: 'update',
      value: '1',
    });
    expect(ruleCounting(rule({ counts: 'requests with update=1' }))).toMatchObject({ by: 'matching' });
  });

  it('a cached answer beyond the limit counts every request unless it says otherwise', () => {
    expect(ruleCounting(rule({ exceeded: 'serve-cached' }))).toEqual({ by: 'every' });
  });

  it('the handler: a documented 300 beyond the limit, answers beyond which nothing is refused, or words not understood', () => {
    expect(ruleCounting(rule({ exceeded: 'business-error' }))).toEqual({ by: 'handler' });
    expect(ruleCounting(rule({ counts: 'every request', exceeded: 'business-error' }))).toEqual({ by: 'handler' });
    expect(ruleCounting(rule({ counts: 'attempts answered `X`', exceeded: 'serve-cached' }))).toEqual({
      by: 'handler',
    });
    expect(ruleCounting(rule({ counts: 'requests on Sundays' }))).toEqual({ by: 'handler' });
  });

  it("the document's rules: all but the business errors are counted by the contract", () => {
    const byContract = [...indexOperations(readDocument(BUNDLED_DOCUMENT)).values()]
      .flatMap((op) => op.rateLimits.map((r) => [op.operationId, r.scope, ruleCounting(r).by]))
      .filter(([, , by]) => by !== 'handler');
    expect(byContract).toEqual([
      ['postUserLogin', 'ip', 'answered'],
      ['postUserLogin', 'apiKey', 'every'],
      ['getItemPrices', 'apiKey', 'every'],
      ['getPublicPrice', 'ip', 'matching'],
      ['getInfosPricesBuyorderAndLowestSales', 'ip', 'matching'],
    ]);
  });
});
