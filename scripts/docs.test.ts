// The published docs page: what `decorate` adds to each operation, and the built page opened in a
// headless Chromium with the network cut off, so the page is proven self-contained and rendering
// every operation with its permission, limits, messages and extension marks.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import express from 'express';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_BODY_LIMIT } from '../packages/server/src/http/app.ts';
import { bodyLimitOf } from '../packages/server/src/http/body-limit.ts';
import { documentsRouter, SERVER_PLACEHOLDER } from '../packages/server/src/routes/documents.ts';
import { buildDocs, decorate } from './docs.ts';
import { errorExamples } from './docs-examples.ts';
import { addWorkflowPages, readWorkflows, slug } from './docs-workflows.ts';
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

  it('writes the permission of every operation and curl, TypeScript and Python samples of its method and path', () => {
    // The request URL with path parameters filled in: `/item/listing/{item}` → `/item/listing/<example>`.
    const prefix = (path: string) => path.split('{')[0]!;
    for (const { path, method, op } of operations) {
      const out = find(method, path);
      expect(out.description).toContain(`**Permission:** ${op['x-permission']}`);
      const sample = (lang: string) => out['x-codeSamples'].find((s: { lang: string }) => s.lang === lang).source;
      expect(sample('curl')).toContain(`-X ${method.toUpperCase()} "$BASE_URL${prefix(path)}`);
      expect(sample('curl')).not.toMatch(/\$BASE_URL[^"]*\{/);
      expect(sample('curl').includes('Authorization: Bearer $JWT')).toBe(
        !['None', 'API only'].includes(op['x-permission']),
      );
      expect(sample('TypeScript')).toContain(`await market.${method.toUpperCase()}('${path}'`);
      expect(sample('Python')).toContain(`requests.${method}(\n    f"{BASE_URL}${prefix(path)}`);
    }
  });

  it('shows, for each documented error, the Prefer header that makes the mock answer it', () => {
    const op = bundle.paths['/item/buyorder/remove'].post;
    const description = find('post', '/item/buyorder/remove').description;
    expect(description).toMatch(
      /\| 300 \| `No buy order found` \|[^|]+\| `Prefer: code=300, example=noBuyOrderFound` \|/,
    );
    // Every named error example of every operation is reachable from its page.
    for (const { path, method, op: each } of operations) {
      const text = find(method, path).description;
      for (const e of errorExamples(bundle, each))
        expect(text).toContain(`Prefer: code=${e.status}, example=${e.name}`);
    }
    expect(Object.keys(op.responses['300'].content['application/json'].examples)).toContain('noBuyOrderFound');
  });

  it('points the servers box at a placeholder that the server replaces with its origin', () => {
    expect(decorate(bundle).servers).toEqual([expect.objectContaining({ url: SERVER_PLACEHOLDER })]);
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

  it("states each body's limit, the one the server reads it with (a caller without a JWT: at most 16,384 bytes)", () => {
    const limit = (method: string, path: string) =>
      /\*\*Body limit:\*\* ([\d,]+) bytes \(([\d,]+) bytes without a JWT/.exec(find(method, path).description);
    for (const { path, method, op } of operations) {
      const expected = bodyLimitOf(bundle, op);
      const shown = limit(method, path);
      if (expected === undefined) expect(shown, `${method} ${path}`).toBeNull();
      else {
        expect(Number(shown?.[1]?.replaceAll(',', '')), `${method} ${path}`).toBe(expected);
        expect(Number(shown?.[2]?.replaceAll(',', '')), `${method} ${path}`).toBe(
          Math.min(expected, ANONYMOUS_BODY_LIMIT),
        );
      }
    }
    // Megabytes only where the document admits attachments.
    expect(bodyLimitOf(bundle, bundle.paths['/support/post'].post)).toBeGreaterThan(1_000_000);
    expect(bodyLimitOf(bundle, bundle.paths['/user/login'].post)).toBeLessThan(10_000);
  });

  it('links the Postman and Bruno collections and llms.txt, files of the package beside the page', () => {
    const links = [...decorated.info.description.matchAll(/\]\((tools\/[^)]+)\)/g)].map((m) => m[1]);
    expect(links).toEqual(
      expect.arrayContaining([
        'tools/llms.txt',
        'tools/postman/item-marketplace.postman_collection.json',
        'tools/bruno/bruno.json',
      ]),
    );
    for (const link of links) expect(existsSync(join(root, 'openapi', link)), link).toBe(true);
  });

  it('leaves the bundle it was given untouched', () => {
    expect(JSON.stringify(bundle.paths)).not.toContain('**Permission:**');
  });
});

/** Redoc's address of an operation: `<tag>/<operationid>` (`#/<address>` in the URL). */
const address = (op: { tags: string[]; operationId: string }) => `${slug(op.tags[0]!)}/${op.operationId.toLowerCase()}`;
// A sample of operations across tags and shapes: path parameter, required query, JSON body, no parameter.
const SAMPLED = ['getItemListingItem', 'getAdminBanList', 'postItemBuyorderRemove', 'postCartCheckout'];
const sampled = SAMPLED.map((id) => {
  const found = operations.find(({ op }) => op.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
});

/** Opens an operation by its address and waits for its section. */
async function openOperation(page: Page, id: string) {
  await page.evaluate((hash) => {
    location.hash = hash;
  }, `/${id}`);
  const section = page.locator(`[id="${id}"]`);
  await section.waitFor({ timeout: 20_000 });
  return section;
}

/** Picks a language in an operation's sample switcher: the languages offered, and the section's text. */
async function pickSample(page: Page, id: string, language: string) {
  const section = await openOperation(page, id);
  const switcher = section
    .locator('button[aria-haspopup=menu]', { hasText: /^(curl|TypeScript|Python|Payload)$/ })
    .first();
  await switcher.click();
  const items = page.locator('[role=menuitem]:visible');
  await items.first().waitFor({ timeout: 20_000 });
  const languages = await items.allInnerTexts();
  await items
    .filter({ hasText: new RegExp(`^${language}$`) })
    .first()
    .click();
  await expect.poll(() => switcher.innerText(), { timeout: 20_000 }).toBe(language);
  return { languages, text: await section.innerText() };
}

const workflowsDir = join(root, 'openapi/workflows');
const workflows = readWorkflows(workflowsDir).flatMap(({ arazzo }) => arazzo.workflows);
const helpersDoc = JSON.parse(readFileSync(join(root, 'openapi/bundled/test-helpers.json'), 'utf8'));

describe('addWorkflowPages', () => {
  const doc = structuredClone(bundle);
  addWorkflowPages(doc, workflowsDir, helpersDoc);

  it('adds a text page per workflow, listing every step, in a navigation group of its own', () => {
    expect(workflows.length).toBeGreaterThanOrEqual(7);
    for (const workflow of workflows) {
      const page = doc.tags.find((t: { name: string }) => t.name === `Workflow ${workflow.workflowId}`);
      expect(page?.['x-traitTag']).toBe(true);
      for (const step of workflow.steps) expect(page.description).toContain(`**\`${step.stepId}\`**`);
    }
    const groups = doc['x-tagGroups'].flatMap((g: { tags: string[] }) => g.tags);
    // Once groups exist Redoc shows only grouped tags: every tag must be in one.
    expect(groups.sort()).toEqual(doc.tags.map((t: { name: string }) => t.name).sort());
  });

  it('links each API step to the section of its operation', () => {
    const page = doc.tags.find((t: { name: string }) => t.name === 'Workflow cartAddAndCheckout').description;
    expect(page).toContain('[`POST /cart/add`](#/cart/postcartadd)');
    expect(page).toContain('test helper `POST /test_helpers/assets`');
    const anchors = doc.tags
      .flatMap((t: { description?: string }) => [...(t.description ?? '').matchAll(/\]\(#\/([^)]+)\)/g)])
      .map((m: string[]) => m[1]);
    const known = new Set(operations.map(({ op }) => address(op)));
    expect(anchors.length).toBeGreaterThan(10);
    expect(anchors.filter((a: string) => !known.has(a))).toEqual([]);
  });
});

describe('the docs page in a browser', () => {
  const out = mkdtempSync(join(tmpdir(), 'docs-page-'));
  const pageFile = join(out, 'index.html');
  const screenshot = join(root, 'reports', 'docs.png');
  let browser: Browser;
  let server: Server;
  const serverPort = () => (server.address() as AddressInfo).port;

  beforeAll(async () => {
    buildDocs(pageFile);
    browser = await chromium.launch({ executablePath: chromiumPath() });
    // The router the reference server mounts, on the page built here.
    const app = express().use(documentsRouter(bundle, pageFile));
    server = await new Promise<Server>((done) => {
      const s = app.listen(0, '127.0.0.1', () => done(s));
    });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => (server ? server.close(done) : done(undefined)));
    rmSync(out, { recursive: true, force: true });
  });

  /** A page that may load only what `allowed` accepts; everything else is recorded and aborted. */
  async function isolatedPage(allowed: (url: string) => boolean) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const requested: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (allowed(url) || url.startsWith('data:')) return route.continue();
      requested.push(url);
      return route.abort();
    });
    return { context, page, requested };
  }

  it('renders every operation from the file alone without stray quotes or headings; a screenshot is saved', async () => {
    const { context, page, requested } = await isolatedPage((url) => url.startsWith('file:'));
    await page.goto(`file://${pageFile}`);
    await page.waitForSelector('#api-content', { timeout: 60_000 });
    // Redoc renders the page of one tag at a time: visit each operation by its address and wait
    // for its section to be drawn, then read what its Markdown rendered.
    const missing: string[] = [];
    const stray: string[] = [];
    for (const { op } of operations) {
      const id = address(op);
      const section = await openOperation(page, id).catch(() => undefined);
      if (!section) {
        missing.push(id);
        continue;
      }
      // A blockquote other than the Extension mark, or a heading inside Markdown, comes from a
      // description line that happens to start with `>` or `#` (a wrapped sentence).
      const found = await section.evaluate((el) =>
        [...el.querySelectorAll('[data-component-name="Markdown/Markdown"]')].flatMap((md) => [
          ...[...md.querySelectorAll('blockquote')]
            .map((q) => (q as HTMLElement).innerText.trim())
            .filter((text) => !text.startsWith('Extension'))
            .map((text) => `blockquote: ${text.slice(0, 60)}`),
          ...[...md.querySelectorAll('h1,h2,h3,h4,h5,h6')].map(
            (h) => `heading: ${(h as HTMLElement).innerText.slice(0, 60)}`,
          ),
        ]),
      );
      stray.push(...found.map((f) => `${id}: ${f}`));
    }
    expect(missing).toEqual([]);
    expect(stray).toEqual([]);

    // What a reader sees (innerText: not the page's embedded JSON) on one operation's page.
    const section = await openOperation(page, 'buy-orders/postitembuyorderupdate');
    const visible = await section.innerText();
    expect(visible).toContain('Permission:');
    expect(visible).toContain('You dont have buy order on this item !');
    expect(visible).toMatch(/Prefer: code=300, example=\w+/);
    // Opened as a file, the servers box shows the placeholder, not a guessed address.
    expect(await section.textContent()).toContain(`${SERVER_PLACEHOLDER}/item/buyorder/update`);
    expect(requested).toEqual([]);

    mkdirSync(join(root, 'reports'), { recursive: true });
    await page.screenshot({ path: screenshot });
    expect(existsSync(screenshot)).toBe(true);
    await context.close();
  }, 240_000);

  it('offers curl, TypeScript and Python samples; the selected one shows the call of the operation', async () => {
    const { context, page } = await isolatedPage((url) => url.startsWith('file:'));
    await page.goto(`file://${pageFile}`);
    await page.waitForSelector('#api-content', { timeout: 60_000 });
    for (const { path, method, op } of sampled) {
      const id = address(op);
      const { languages, text: typescript } = await pickSample(page, id, 'TypeScript');
      expect(languages.slice(0, 3)).toEqual(['curl', 'TypeScript', 'Python']);
      expect(typescript).toContain("import { createMarketplaceClient } from '@marketplace/client';");
      expect(typescript).toContain(`await market.${method.toUpperCase()}('${path}'`);
      const { text: python } = await pickSample(page, id, 'Python');
      expect(python).toContain('import requests');
      expect(python).toContain(`requests.${method}(`);
      expect(python).toContain(`f"{BASE_URL}${path.split('{')[0]}`);
    }
    await context.close();
  }, 240_000);

  it('shows each Arazzo workflow on a page of its own, with its steps', async () => {
    const { context, page } = await isolatedPage((url) => url.startsWith('file:'));
    await page.goto(`file://${pageFile}`);
    await page.waitForSelector('#api-content', { timeout: 60_000 });
    const nav = await page.evaluate(() => document.body.innerText);
    expect(nav).toContain('Workflows (Arazzo)');
    for (const workflow of workflows) {
      const section = await openOperation(page, `workflow-${workflow.workflowId.toLowerCase()}`);
      // Redoc renders a section's body after its anchor: wait for the text rather than read it once.
      const wanted: string[] = [workflow.summary, ...workflow.steps.map((step: { stepId: string }) => step.stepId)];
      await expect
        .poll(
          async () => {
            const text = await section.innerText();
            return wanted.filter((w) => !text.includes(w));
          },
          { timeout: 30_000 },
        )
        .toEqual([]);
    }
    await context.close();
  }, 240_000);

  it('finds the tool files it links beside the page file and, served, under /tools/', async () => {
    const html = readFileSync(pageFile, 'utf8');
    for (const link of ['tools/llms.txt', 'tools/postman/item-marketplace.postman_collection.json']) {
      expect(html).toContain(link);
      expect(existsSync(join(out, link)), link).toBe(true);
      expect((await fetch(`http://127.0.0.1:${serverPort()}/${link}`)).status, link).toBe(200);
    }
  });

  it('opens an operation from a deep link', async () => {
    const { context, page } = await isolatedPage((url) => url.startsWith('file:'));
    const { op } = sampled[2]!;
    await page.goto(`file://${pageFile}#/${address(op)}`);
    const heading = page.locator(`[id="${address(op)}"] h2`).first();
    await heading.waitFor({ timeout: 60_000 });
    expect(await heading.innerText()).toBe(op.summary);
    // Scrolled to: the operation's heading is inside the viewport.
    await expect
      .poll(async () => {
        const box = await heading.boundingBox();
        return box !== null && box.y >= 0 && box.y < 900;
      })
      .toBe(true);
    await context.close();
  }, 240_000);

  it('served by the server at /docs, shows the origin it is served from in the servers box', async () => {
    const origin = `http://127.0.0.1:${serverPort()}`;
    const { context, page, requested } = await isolatedPage((url) => url.startsWith(origin));
    await page.goto(`${origin}/docs`);
    await page.waitForSelector('#api-content', { timeout: 60_000 });
    const section = await openOperation(page, 'buy-orders/postitembuyorderremove');
    const text = await section.textContent();
    expect(text).toContain(`${origin}/item/buyorder/remove`);
    expect(text).not.toContain(SERVER_PLACEHOLDER);
    expect(requested).toEqual([]);
    await context.close();
  }, 240_000);

  it('keeps the placeholder when the Host header is not a plain host and port', async () => {
    // The Host header is client input written into the page: a crafted one must not get in.
    const body = await new Promise<string>((done, fail) => {
      get({ host: '127.0.0.1', port: serverPort(), path: '/docs', headers: { Host: 'evil"><script>' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => done(text));
      }).on('error', fail);
    });
    expect(body).toContain(SERVER_PLACEHOLDER);
    expect(body).not.toContain('evil"><script>');
  });
});
