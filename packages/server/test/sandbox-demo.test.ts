import { createMarketplaceClient } from '@marketplace/client';
import { startSandbox } from '@marketplace/server';
import { expect, onTestFinished, test } from 'vitest';

// The first sandbox of a process builds the document's validators: seconds, more on a busy CI machine.
test("a demo sandbox starts with npm start's data: Alice has two keys in her cart", { timeout: 60_000 }, async () => {
  const sandbox = await startSandbox({ demo: true }); // the accounts and rows of `npm start`
  onTestFinished(() => sandbox.close());
  const alice = createMarketplaceClient({ baseUrl: sandbox.url, apiKey: 'demo-alice-api-key' });
  const { cart } = await alice.GET('/cart/get');
  expect(new Set(cart.map((row) => row.name))).toEqual(new Set(['Mann Co. Supply Crate Key']));
  expect(cart.reduce((keys, row) => keys + row.count, 0)).toBe(2);
});
