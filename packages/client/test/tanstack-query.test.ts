import { createMarketplaceClient, isMarketplaceError } from '@marketplace/client';
import { startSandbox } from '@marketplace/server';
import { CancelledError, MutationObserver, QueryClient } from '@tanstack/query-core';
import { expect, onTestFinished, test } from 'vitest';

// Retry what may pass on a second try (a server error, no answer), twice; never a documented
// refusal (business, forbidden, not_found), a CORS refusal or a cancel (cors, aborted). The client
// already waited out a 429's Retry-After.
const retry = (failures: number, error: unknown) =>
  failures < 2 && isMarketplaceError(error) && (error.kind === 'server' || error.kind === 'network');

// The first sandbox of a process builds the document's validators: seconds, more on a busy CI machine.
test('TanStack Query: a query, a mutation, retries by error.kind, abort', { timeout: 120_000 }, async () => {
  const sandbox = await startSandbox({ demo: true }); // Alice and the rest of npm start's world
  onTestFinished(() => sandbox.close());
  const market = createMarketplaceClient({ baseUrl: sandbox.url, apiKey: 'demo-alice-api-key' });
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry, retryDelay: 10 }, mutations: { retry, retryDelay: 10 } },
  });
  // The query function passes TanStack's signal on: cancelling the query aborts the request.
  const balance = (Prefer?: string) =>
    queryClient.fetchQuery({
      queryKey: ['balance', Prefer],
      queryFn: ({ signal }) => market.GET('/user/balance', { signal, headers: Prefer ? { Prefer } : {} }),
    });

  // A query, then a mutation that makes it stale: a buy order reserves value x amount.
  const before = (await balance()).balance;
  const buyOrder = new MutationObserver(queryClient, {
    mutationFn: (body: { itemid: number; value: number; amount: number }) => market.POST('/item/buyorder', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['balance'] }),
  });
  await buyOrder.mutate({ itemid: 3, value: 90, amount: 2 });
  expect((await balance()).balance).toBe(before - 180);

  // A documented refusal is tried once, and says which message it is.
  const refused = await buyOrder.mutate({ itemid: 2, value: 5_000_000, amount: 1000 }).catch((error) => error);
  expect(isMarketplaceError(refused, 'post', '/item/buyorder') && refused.is('Not enough balance')).toBe(true);
  expect(buyOrder.getCurrentResult().failureCount).toBe(1);

  // A server error is tried three times (`Prefer: code=500` fails every one, on purpose).
  await expect(balance('code=500')).rejects.toMatchObject({ kind: 'server', status: 500 });
  expect(queryClient.getQueryState(['balance', 'code=500'])?.fetchFailureCount).toBe(3);

  // Cancelling a slow query rejects it at once (its signal aborts the request).
  const started = Date.now();
  const slow = balance('delay=5000');
  setTimeout(() => queryClient.cancelQueries({ queryKey: ['balance', 'delay=5000'] }), 200);
  await expect(slow).rejects.toBeInstanceOf(CancelledError);
  expect(Date.now() - started).toBeLessThan(4_000);
});
