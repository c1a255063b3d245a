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

  it('the handler: a cached answer or a documented 300 beyond the limit, or a condition of its own', () => {
    expect(ruleCounting(rule({ exceeded: 'serve-cached' }))).toEqual({ by: 'handler' });
    expect(ruleCounting(rule({ exceeded: 'business-error' }))).toEqual({ by: 'handler' });
    expect(ruleCounting(rule({ counts: 'requests with update=1' }))).toEqual({ by: 'handler' });
  });

  it("the document's rules: the login's two and the price list's are the app's, the others the handlers'", () => {
    const byApp = [...indexOperations(readDocument(BUNDLED_DOCUMENT)).values()]
      .flatMap((op) => op.rateLimits.map((r) => [op.operationId, r.scope, ruleCounting(r).by]))
      .filter(([, , by]) => by !== 'handler');
    expect(byApp).toEqual([
      ['postUserLogin', 'ip', 'answered'],
      ['postUserLogin', 'apiKey', 'every'],
      ['getItemPrices', 'apiKey', 'every'],
    ]);
  });
});
