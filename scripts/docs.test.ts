// The published docs page: what `decorate` adds to each operation, and the built page opened in a
// headless Chromium with the network cut off, so the page is proven self-contained and rendering
// every operation with its permission, limits, messages and extension marks.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocs, decorate } from './docs.ts';
import { chromiumPath } from './ensure-chromium.ts';

const root = resolve(import.meta.dirname, '..');
// biome-ignore lint/suspicious/noExplicitAny: the bundled document is plain JSON
const bundle: any = JSON.parse(readFileSync(join(root, 'openapi/bundled/openapi.json'), 'utf8'));
const operations = Object.entries(bundle.paths).flatMap(([path, item]) =>
  // biome-ignore lint/suspicious/noExplicitAny: path items
  Object.entries(item as any).map(([method, op]) => ({ path, method, op: op as any })),
);

describe('decorate', () => {
  const decorated = decorate(bundle);
  const find = (method: string, path: string) => decorated.paths[path][method];

  it('writes the permission of every operation and curl and client samples with its method and path', () => {
    for (const { path, method, op } of operations) {
      const out = find(method, path);
      expect(out.description).toContain(`**Permission:** ${op['x-permission']}`);
      const curl = out['x-codeSamples'].find((s: { lang: string }) => s.lang === 'curl');
      expect(curl.source).toContain(`-X ${method.toUpperCase()} "$BASE_URL${path}"`);
      expect(curl.source.includes('Authorization: Bearer')).toBe(!['None', 'API only'].includes(op['x-permission']));
      const client = out['x-codeSamples'].find((s: { lang: string }) => s.lang === 'TypeScript');
      expect(client.source).toContain(`await market.${method.toUpperCase()}('${path}'`);
    }
  });

  it('lists each documented error message and rate limit, and marks extensions', () => {
    for (const { path, method, op } of operations) {
      const out = find(method, path);
      for (const m of op['x-error-messages'] ?? []) expect(out.description).toContain(m.message.replaceAll('|', '\\|'));
      for (const limit of [op['x-rate-limit'] ?? []].flat())
        expect(out.description).toContain(`**Rate limit:** ${limit.limit} per ${limit.window} s`);
      expect(Boolean(out['x-badges'])).toBe(Boolean(op['x-extension']));
    }
  });

  it('leaves the bundle it was given untouched', () => {
    expect(JSON.stringify(bundle.paths)).not.toContain('**Permission:**');
  });
});

describe('the docs page in a browser, offline', () => {
  const out = mkdtempSync(join(tmpdir(), 'docs-page-'));
  const screenshot = join(root, 'reports', 'docs.png');
  let browser: Awaited<ReturnType<typeof chromium.launch>>;

  beforeAll(async () => {
    buildDocs(join(out, 'index.html'));
    browser = await chromium.launch({ executablePath: chromiumPath() });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('renders every operation from the file alone, and a screenshot is saved', async () => {
    const context = await browser.newContext({ offline: true, viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const requested: string[] = [];
    // Anything but the file itself would be a dependency on the network.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
      requested.push(url);
      return route.abort();
    });
    await page.goto(`file://${join(out, 'index.html')}`);
    await page.waitForSelector('#api-content', { timeout: 60_000 });
    // Redoc renders the page of one tag at a time: visit each operation by its address
    // (`#/<tag>/<operationid>`) and wait for its section to be drawn.
    const slug = (tag: string) => tag.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const missing: string[] = [];
    for (const { op } of operations) {
      const id = `${slug(op.tags[0])}/${op.operationId.toLowerCase()}`;
      await page.evaluate((hash) => {
        location.hash = hash;
      }, `/${id}`);
      await page.waitForSelector(`[id="${id}"]`, { timeout: 5_000 }).catch(() => missing.push(id));
    }
    expect(missing).toEqual([]);

    // What a reader sees (innerText: not the page's embedded JSON) on one operation's page.
    await page.evaluate(() => {
      location.hash = '/buy-orders/postitembuyorderupdate';
    });
    await page.waitForSelector('[id="buy-orders/postitembuyorderupdate"]');
    const visible = await page.evaluate(() => document.body.innerText);
    expect(visible).toContain('Permission:');
    expect(visible).toContain('You dont have buy order on this item !');
    expect(requested).toEqual([]);

    mkdirSync(join(root, 'reports'), { recursive: true });
    await page.screenshot({ path: screenshot });
    expect(existsSync(screenshot)).toBe(true);
    await context.close();
  }, 120_000);
});
