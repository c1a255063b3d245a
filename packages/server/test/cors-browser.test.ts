// A frontend on its own dev server calling a sandbox on another origin, in headless Chromium
// (issue 34): the page, served by a small static server, logs in with the typed client, reads
// Alice's balance and places a buy order on a demo sandbox, which allows local dev servers by
// default. The same page under a host name that is no dev server is refused by the browser, and
// the client says it was a CORS refusal; a server that is down is a `network` error.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../../../scripts/ensure-chromium.ts';
import { DEMO_KEYS } from '../src/demo-data.ts';
import { type Sandbox, startSandbox } from '../src/sandbox.ts';

/** A host name that is no local dev server; Chromium resolves it to this machine. */
const ELSEWHERE = 'app.example.test';

/** The typed client for a browser, bundled from its sources as a frontend's bundler would. */
async function clientBundle(): Promise<string> {
  const out = await build({
    input: resolve(import.meta.dirname, '../../client/src/index.ts'),
    platform: 'browser',
    resolve: { conditionNames: ['marketplace-source', 'browser', 'import', 'default'] },
    output: { format: 'iife', name: 'Marketplace' },
    write: false,
  });
  return out.output[0].code;
}

/** The frontend: `trade(api)` logs Alice in, reads her balance, bids on an item she has no order for. */
const APP = `
window.trade = async (baseUrl) => {
  const market = Marketplace.createMarketplaceClient({ baseUrl, apiKey: '${DEMO_KEYS.alice}' });
  const outcome = await market.safe.GET('/user/balance');
  if (!outcome.ok) return { kind: outcome.error.kind, message: outcome.error.message };
  const mine = await market.GET('/user/getBuyorder');
  const itemid = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].find((id) => !mine.values.some((o) => o.itemid === id));
  await market.POST('/item/buyorder', { body: { itemid, value: 120, amount: 2 } });
  const after = await market.GET('/user/getBuyorder');
  return { balance: outcome.value.balance, itemid, orders: [mine.count.nb, after.count.nb] };
};`;

let sandbox: Sandbox;
let site: Server;
let port: number;
let browser: Browser;

beforeAll(async () => {
  const [bundle, started] = await Promise.all([clientBundle(), startSandbox({ demo: true })]);
  sandbox = started;
  const html = `<!doctype html><title>A frontend</title><script>${bundle}</script><script>${APP}</script>`;
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  port = (site.address() as AddressInfo).port;
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [`--host-resolver-rules=MAP ${ELSEWHERE} 127.0.0.1`],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  site?.closeAllConnections();
  await new Promise((done) => site?.close(done));
  await sandbox?.close();
});

async function pageAt(origin: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  return page;
}

/** Alice's buy orders, read by the test itself (no browser, no CORS). */
async function aliceOrders(): Promise<number> {
  const login = await fetch(`${sandbox.url}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: DEMO_KEYS.alice }),
  });
  const { jwt } = ((await login.json()) as { content: { jwt: string } }).content;
  const res = await fetch(`${sandbox.url}/user/getBuyorder`, { headers: { authorization: `Bearer ${jwt}` } });
  return ((await res.json()) as { content: { count: { nb: number } } }).content.count.nb;
}

describe('a page on a dev server calls a sandbox on another origin', { timeout: 120_000 }, () => {
  it('Given a page at http://127.0.0.1:<port>, it logs in, reads the balance and places a buy order', async () => {
    const page = await pageAt(`http://127.0.0.1:${port}`);
    expect(new URL(page.url()).origin).not.toBe(new URL(sandbox.url).origin);
    const result = await page.evaluate(
      (api) => (window as unknown as { trade: (u: string) => unknown }).trade(api),
      sandbox.url,
    );
    expect(result).toEqual({
      balance: expect.any(Number),
      itemid: expect.any(Number),
      orders: [expect.any(Number), expect.any(Number)],
    });
    const { balance, orders } = result as { balance: number; orders: [number, number] };
    expect(balance).toBeGreaterThan(0);
    expect(orders[1]).toBe(orders[0] + 1);
    expect(await aliceOrders()).toBe(orders[1]);
    await page.close();
  });

  it('Given a page on a host that is no dev server, the browser refuses it and the client says CORS', async () => {
    const before = await aliceOrders();
    const page = await pageAt(`http://${ELSEWHERE}:${port}`);
    const result = await page.evaluate(
      (api) => (window as unknown as { trade: (u: string) => unknown }).trade(api),
      sandbox.url,
    );
    expect(result).toEqual({
      kind: 'cors',
      message: expect.stringContaining(`does not allow the origin http://${ELSEWHERE}:${port}`),
    });
    expect(await aliceOrders()).toBe(before);
    await page.close();
  });

  it('Given a server that is down, the client says network, not CORS', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const down = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((done) => closed.close(done));
    const page = await pageAt(`http://127.0.0.1:${port}`);
    const result = await page.evaluate(
      (api) => (window as unknown as { trade: (u: string) => unknown }).trade(api),
      down,
    );
    expect(result).toEqual({ kind: 'network', message: expect.stringContaining('did not answer') });
    await page.close();
  });
});
