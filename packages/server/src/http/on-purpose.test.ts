// Slow and failing on purpose on the reference server (@marketplace/contract's on-purpose.ts):
// per request with Prefer (test mode, sandboxes) on the API's routes only, and per run with
// MARKETPLACE_FAIL_RATE; the test helpers and the document are exempt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectForced429, expectForced500 } from '../../../contract/src/on-purpose.fixture.ts';
import { type Sandbox, startSandbox } from '../sandbox.ts';

describe('Prefer on a sandbox', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 0 });
  });
  afterAll(() => sandbox?.close());
  const get = (prefer?: string) => fetch(`${sandbox.url}/item/listing/count/1`, { headers: prefer ? { prefer } : {} });

  it('Given Prefer: code=429, then the API 429 with its message and four integer rate-limit headers', async () => {
    await expectForced429(await get('code=429'));
  });

  it('Given Prefer: code=500, then the API 500', async () => {
    await expectForced500(await get('code=500'));
  });

  it('Given Prefer: delay=400, then the answer comes no sooner, and is the real one', async () => {
    const started = performance.now();
    const res = await get('delay=400');
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    expect(res.status).toBe(200);
  });

  it('Given no Prefer, and the test helpers with one, then they answer as usual', async () => {
    expect((await get()).status).toBe(200);
    const helper = await fetch(`${sandbox.url}/test_helpers/clock`, { headers: { prefer: 'code=500' } });
    expect(helper.status).toBe(200);
  });
});

describe('a run with --fail-rate 1 (MARKETPLACE_FAIL_RATE=1)', () => {
  it('Given every API request fails, the test helpers and the document still answer', async () => {
    const sandbox = await startSandbox({ users: 0, env: { MARKETPLACE_FAIL_RATE: '1', MARKETPLACE_SEED: '3' } });
    try {
      const statuses = [];
      for (let i = 0; i < 8; i += 1) statuses.push((await fetch(`${sandbox.url}/item/listing/count/1`)).status);
      expect(statuses.every((s) => s === 429 || s === 500)).toBe(true);
      expect(new Set(statuses).size).toBe(2);
      expect((await fetch(`${sandbox.url}/test_helpers/clock`)).status).toBe(200);
      expect((await fetch(`${sandbox.url}/openapi.json`)).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});
