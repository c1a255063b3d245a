// The mock as Prism's validation proxy in front of the reference server (--proxy): the same
// conventions before the request leaves (403 forbidden, the documented 300), and the upstream's
// own answers passed through unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/src/routes/test-harness.fixture.ts';
import { type MockServer, startMock } from './mock.ts';

let proxy: MockServer;
let server: TestServer;
let apiKey: string;
const logged: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  apiKey = (await server.user({ balance: 0 })).apiKey;
  proxy = await startMock({ proxy: server.baseUrl, log: (line) => logged.push(line) });
}, 90_000);
afterAll(async () => {
  await proxy?.stop();
  await server?.close();
});

async function post(base: string, path: string, body: unknown, jwt?: string) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(jwt ? { authorization: `Bearer ${jwt}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, mock: res.headers.get('x-marketplace-mock'), body: await res.json() };
}

describe('--proxy to the reference server', () => {
  it('Given no bearer on a Connected route, then 403 forbidden', async () => {
    const answer = await post(proxy.url, '/item/buyorder', { itemid: 1, value: 150, amount: 1 });
    expect([answer.status, answer.body]).toEqual([403, { err: true, success: false, content: 'forbidden' }]);
  });

  it("Given a login through the proxy, then the upstream's JWT works through it and its answers pass unchanged", async () => {
    const login = await post(proxy.url, '/user/login', { apiKey });
    expect([login.status, login.mock]).toEqual([200, 'proxy']);
    const jwt = login.body.content.jwt as string;
    // The upstream refuses an order its balance cannot cover: a business 300 from the engine.
    const order = { itemid: (await server.item({ name: 'Key' })).id, value: 150, amount: 1 };
    const [through, direct] = await Promise.all([
      post(proxy.url, '/item/buyorder', order, jwt),
      post(server.baseUrl, '/item/buyorder', order, jwt),
    ]);
    expect(through.status).toBe(300);
    expect(through.body).toEqual(direct.body);
    expect(logged).toEqual([]);
  });

  it('Given a body that breaks the document, then the documented 300 before the upstream is asked', async () => {
    const bad = { itemid: 'a', value: 150, amount: 1 };
    const jwt = await server.login(apiKey);
    const [through, direct] = await Promise.all([
      post(proxy.url, '/item/buyorder', bad, jwt),
      post(server.baseUrl, '/item/buyorder', bad, jwt),
    ]);
    expect([through.status, through.body]).toEqual([300, direct.body]);
  });
});
