// The client's retries against answers that fail on purpose (issue 25): a sandbox asked for 429s
// with `Prefer: code=429`, and a sandbox run with a seeded failure share. A 429 is retried after
// the Retry-After it carries, within the policy; a 500 is not retried and arrives as an error; the
// same seed gives the same calls the same fate.
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../server/src/sandbox.ts';
import { createMarketplaceClient, DEFAULT_RETRY } from '../src/index.ts';

/** A fetch that records each answer's status. */
function recording() {
  const statuses: number[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    statuses.push(response.status);
    return response;
  };
  return { statuses, fetch };
}

describe('the client against a sandbox failing on purpose', () => {
  it('Given every answer is a 429 (Prefer: code=429), it retries after Retry-After as many times as its policy allows', async () => {
    const sandbox = await startSandbox({ users: 0 });
    try {
      const { statuses, fetch } = recording();
      const waits: number[] = [];
      const market = createMarketplaceClient({
        baseUrl: sandbox.url,
        headers: { Prefer: 'code=429' },
        retry: { retries: 2 },
        fetch,
        sleep: async (ms) => {
          waits.push(ms);
        },
      });
      const outcome = await market.safe.GET('/item/listing/count/{item}', { params: { path: { item: 1 } } });
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect([outcome.error.status, outcome.error.retryAfter]).toEqual([429, 1]);
      expect(outcome.error.message).toBe('Rate limit exceeded. Retry after 1 seconds.');
      expect(statuses).toEqual([429, 429, 429]);
      expect(waits).toEqual([1000, 1000]);
    } finally {
      await sandbox.close();
    }
  });

  it('Given a run failing half its requests with seed 11, 429s are retried into answers, 500s arrive as errors, and the same seed repeats it all', async () => {
    async function run() {
      const sandbox = await startSandbox({ users: 0, env: { MARKETPLACE_FAIL_RATE: '0.5', MARKETPLACE_SEED: '11' } });
      try {
        const { statuses, fetch } = recording();
        const market = createMarketplaceClient({ baseUrl: sandbox.url, fetch, sleep: async () => {} });
        const outcomes: (number | string)[] = [];
        for (let i = 0; i < 16; i += 1) {
          const outcome = await market.safe.GET('/item/listing/count/{item}', { params: { path: { item: 1 } } });
          outcomes.push(outcome.ok ? 'ok' : outcome.error.status);
        }
        return { outcomes, statuses };
      } finally {
        await sandbox.close();
      }
    }
    const first = await run();
    expect(await run()).toEqual(first);
    // Every 429 is retried (up to DEFAULT_RETRY's three times), nothing else is: the calls' outcomes
    // are what the answers, read in order with that rule, say.
    const expected: (number | string)[] = [];
    let answer = 0;
    for (let call = 0; call < first.outcomes.length; call += 1) {
      let status = first.statuses[answer++];
      for (let retry = 0; status === 429 && retry < DEFAULT_RETRY.retries; retry += 1)
        status = first.statuses[answer++];
      expected.push(status === 200 ? 'ok' : (status as number));
    }
    expect(answer).toBe(first.statuses.length);
    expect(first.outcomes).toEqual(expected);
    expect(first.outcomes).toContain('ok');
    expect(first.outcomes).toContain(500);
    expect(first.statuses.filter((s) => s === 429).length).toBeGreaterThan(
      first.outcomes.filter((o) => o === 429).length,
    );
  });
});
