// The client's retries against answers that fail on purpose (issue 25): a sandbox asked for 429s
// with `Prefer: code=429`, and a sandbox and a mock run with a seeded failure share. A 429 is retried after
// the Retry-After it carries, within the policy; a 500 is not retried and arrives as an error; the
// same seed gives the same calls the same fate.
import { describe, expect, it } from 'vitest';
import { startMock } from '../../mock/src/mock.ts';
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

/** Sixteen calls of one operation through the client: each call's outcome, and every answer's status. */
async function calls(baseUrl: string) {
  const { statuses, fetch } = recording();
  const market = createMarketplaceClient({ baseUrl, fetch, sleep: async () => {} });
  const outcomes: (number | string)[] = [];
  for (let i = 0; i < 16; i += 1) {
    const outcome = await market.safe.GET('/item/listing/count/{item}', { params: { path: { item: 1 } } });
    outcomes.push(outcome.ok ? 'ok' : outcome.error.status);
  }
  return { outcomes, statuses };
}

/**
 * Every 429 is retried (up to DEFAULT_RETRY's three times), nothing else is: the calls' outcomes
 * are what the answers, read in order with that rule, say.
 */
function expectRetriedAsDocumented({ outcomes, statuses }: { outcomes: (number | string)[]; statuses: number[] }) {
  const expected: (number | string)[] = [];
  let answer = 0;
  for (let call = 0; call < outcomes.length; call += 1) {
    let status = statuses[answer++];
    for (let retry = 0; status === 429 && retry < DEFAULT_RETRY.retries; retry += 1) status = statuses[answer++];
    expected.push(status === 200 ? 'ok' : (status as number));
  }
  expect(answer).toBe(statuses.length);
  expect(outcomes).toEqual(expected);
  expect(outcomes).toContain('ok');
  expect(outcomes).toContain(500);
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(outcomes.filter((o) => o === 429).length);
}

describe('the client against a sandbox and a mock failing on purpose', () => {
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

  it('Given a sandbox run failing half its requests with seed 11, 429s are retried into answers, 500s arrive as errors, and the same seed repeats it all', async () => {
    async function run() {
      const sandbox = await startSandbox({ users: 0, env: { MARKETPLACE_FAIL_RATE: '0.5', MARKETPLACE_SEED: '11' } });
      try {
        return await calls(sandbox.url);
      } finally {
        await sandbox.close();
      }
    }
    const first = await run();
    expect(await run()).toEqual(first);
    expectRetriedAsDocumented(first);
  });

  it('Given a mock run (--fail-rate 0.5 --seed 11), the same', async () => {
    async function run() {
      const mock = await startMock({ log: () => {}, onPurpose: { failRate: 0.5, seed: 11 } });
      try {
        return await calls(mock.url);
      } finally {
        await mock.stop();
      }
    }
    const first = await run();
    expect(await run()).toEqual(first);
    expectRetriedAsDocumented(first);
  }, 120_000);
});
