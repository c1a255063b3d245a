// The README's Playwright example: a browser test of a frontend against a sandbox. The sandbox is a
// worker fixture (one server per test worker) and every test starts on an emptied world (`reset`
// in the test fixture), the browser is Debian's Chromium driven by playwright-core. The same
// fixture functions work in @playwright/test's `test.extend` unchanged.
import { type Sandbox, startSandbox } from '@marketplace/server';
import { type Browser, chromium, type Page } from 'playwright-core';
import { test as base, describe, expect } from 'vitest';
import { chromiumPath } from '../../../scripts/ensure-chromium.ts';

/** A frontend's page: log in with an API key, show the balance (what a team builds against the sandbox). */
const APP = `<!doctype html><title>Balance</title>
<form id="login"><input name="apiKey" aria-label="API key"><button>Log in</button></form><p id="balance"></p>
<script>
document.getElementById('login').addEventListener('submit', async (event) => {
  event.preventDefault();
  const out = document.getElementById('balance');
  const login = await (await fetch('/user/login', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: new FormData(event.target).get('apiKey') }) })).json();
  if (!login.success) return (out.textContent = login.content);
  const res = await (await fetch('/user/balance', { headers: { authorization: 'Bearer ' + login.content.jwt } })).json();
  out.textContent = 'Balance: $' + (res.content.balance / 100).toFixed(2);
});
</script>`;

const test = base.extend<{ sandbox: Sandbox; browser: Browser; page: Page }>({
  sandbox: [
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const sandbox = await startSandbox({ users: 1, balance: 4_250 });
      await use(sandbox);
      await sandbox.close();
    },
    { scope: 'worker' },
  ],
  browser: [
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const browser = await chromium.launch({ executablePath: chromiumPath() });
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],
  page: async ({ browser, sandbox }, use) => {
    await sandbox.reset(); // a fresh world for every test, on the worker's server
    const context = await browser.newContext();
    const page = await context.newPage();
    // The frontend is served from the sandbox's origin, so its API calls are same-origin.
    await page.route(`${sandbox.url}/app`, (route) => route.fulfill({ contentType: 'text/html', body: APP }));
    await page.goto(`${sandbox.url}/app`);
    await use(page);
    await context.close();
  },
});

describe('startSandbox with Playwright: a sandbox per worker, reset for every test', () => {
  test('Given a sandbox user, when they log in on the page, then the page shows their balance', async ({
    page,
    sandbox,
  }) => {
    await page.getByLabel('API key').fill(sandbox.users[0]!.apiKey);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.locator('#balance').textContent()).toBe('Balance: $42.50');
  });

  test('Given an unknown API key, when it logs in, then the page shows the API message', async ({ page }) => {
    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.locator('#balance').textContent()).not.toBe('');
    expect(await page.locator('#balance').textContent()).not.toContain('Balance');
  });

  test('Given a user created by an earlier test, after the reset only the sandbox users exist', async ({
    page,
    sandbox,
  }) => {
    // Item 1 is created in every test: the reset between tests is what lets it succeed each time.
    const put = () =>
      fetch(`${sandbox.url}/test_helpers/items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 1, name: 'Tour of Duty Ticket', game: 440 }),
      });
    expect((await put()).status).toBe(200);
    expect((await put()).status).toBe(300);
    await page.getByLabel('API key').fill(sandbox.users[0]!.apiKey);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.locator('#balance').textContent()).toBe('Balance: $42.50');
  });
});
