import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curl, FIRST_REQUESTS } from './first-requests.ts';
import { type MockServer, startMock } from './mock.ts';

describe('the first requests npm run mock suggests', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMock({ port: 4391 });
  }, 60_000);
  afterAll(() => mock?.stop());

  it.each(FIRST_REQUESTS.map((r) => [`${r.method} ${r.path} → ${r.expect.status}`, r] as const))(
    '%s',
    async (_name, r) => {
      const res = await fetch(`${mock.url}${r.path}`, {
        method: r.method,
        headers: r.headers,
        body: r.body === undefined ? undefined : JSON.stringify(r.body),
      });
      expect(res.status).toBe(r.expect.status);
      const json = await res.json();
      if (r.expect.message) expect(json.content ?? json.message).toBe(r.expect.message);
    },
  );

  it('prints each as a curl line with its headers and body', () => {
    const line = curl('http://h', FIRST_REQUESTS[1]!);
    expect(line).toContain('curl -s -X POST http://h/item/buyorder');
    expect(line).toContain("-H 'Prefer: code=300, example=notEnoughBalance'");
    expect(line).toContain(`-d '${JSON.stringify(FIRST_REQUESTS[1]!.body)}'`);
  });
});
