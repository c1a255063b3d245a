import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curl, FIRST_REQUESTS } from './first-requests.ts';
import { type MockServer, startMock } from './mock.ts';

describe('the first requests npm run mock suggests', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMock();
  }, 90_000);
  afterAll(() => mock?.stop());

  it('each answers what it says, the JWT of the login carried to the next ones', async () => {
    let jwt = '';
    for (const r of FIRST_REQUESTS) {
      const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, v.replace('$JWT', jwt)]));
      const res = await fetch(`${mock.url}${r.path}`, {
        method: r.method,
        headers,
        body: r.body === undefined ? undefined : JSON.stringify(r.body),
      });
      const json = await res.json();
      expect([r.path, res.status]).toEqual([r.path, r.expect.status]);
      if (r.expect.message) expect(json.content ?? json.message).toBe(r.expect.message);
      if (r.keepsJwt) jwt = json.content.jwt;
    }
    expect(jwt.split('.')).toHaveLength(3);
  });

  it('works as printed when pasted into a shell (curl and node -e)', async () => {
    const script = FIRST_REQUESTS.map((r) => `${curl(mock.url, r)}; echo`).join('\n');
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { timeout: 60_000 });
    const lines = stdout.split('\n').filter(Boolean);
    const expected = FIRST_REQUESTS.filter((r) => !r.keepsJwt);
    expect(lines).toHaveLength(expected.length);
    expected.forEach((r, i) => {
      const body = JSON.parse(lines[i]!);
      if (r.expect.message) expect(body.content ?? body.message).toBe(r.expect.message);
      else expect(body.err).toBe(false);
    });
  });
});
