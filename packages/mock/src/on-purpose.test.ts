// The mock slow and failing on purpose (issue 25), as the reference server's sandbox is: the same
// layer (@marketplace/contract's on-purpose.ts) in front of Prism. Per request with Prefer; per run with
// --latency, --fail-rate and --seed (the client's tests run a seeded mock twice and compare).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectForced429, expectForced500 } from '../../contract/src/on-purpose.fixture.ts';
import { type MockServer, startMock } from './mock.ts';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ log: () => {} });
}, 60_000);
afterAll(() => mock?.stop());

const get = (prefer: string) => fetch(`${mock.url}/item/listing/count/1`, { headers: { prefer } });

describe('the mock with Prefer', () => {
  it('Given Prefer: code=429, then the API 429 with its message and four integer rate-limit headers', async () => {
    await expectForced429(await get('code=429'));
  });

  it('Given Prefer: code=500, then the API 500', async () => {
    await expectForced500(await get('code=500'));
  });

  it('Given Prefer: delay=300 with a documented example, then that example comes no sooner', async () => {
    const plain = await (
      await fetch(`${mock.url}/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', prefer: 'code=300, example=missingApiKey' },
        body: '{"apiKey":"k"}',
      })
    ).json();
    const started = performance.now();
    const res = await fetch(`${mock.url}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: 'delay=300, code=300, example=missingApiKey' },
      body: '{"apiKey":"k"}',
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect([res.status, await res.json()]).toEqual([300, plain]);
  });
});
