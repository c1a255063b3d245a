// The suite on a team that implements the other seed description of the operations the seed
// describes twice (ADR 3): the reference server behind a proxy that rewrites its answers into the
// description the reference does not implement, as the document's `oneOf` allows. The 2FA routes
// answer in envelope B (the first variant: reset validate takes the code only), the compact price
// list in envelope A with its string form, the sales summary as `{nb, price, user}`, the balance
// history as `{transactions, total, page, perpage, currentBalance}`, the notifications as variant 2's
// unread counts. The run has no failure; the
// tests of the other description's own rules skip, naming both descriptions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPACT_PRICES_CACHE } from '../../../packages/server/src/domain/price-lists.ts';
import { startTestServer } from '../../../packages/server/src/routes/test-harness.fixture.ts';
import { runCli } from './cli-process.ts';
import { type Fault, startFaultyProxy } from './faults.ts';

const scratch = mkdtempSync(join(tmpdir(), 'conformance-variants-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// biome-ignore lint/suspicious/noExplicitAny: answers are rewritten as plain JSON
type Json = any;
const TWO_FACTOR = ['/user/2FA/create', '/user/2FA/validate', '/user/reset2FA/ask', '/user/reset2FA/validate'];

/** The in-process reference server the proxy stands in front of. */
type Reference = Awaited<ReturnType<typeof startTestServer>>;

/**
 * The caller's own state on the target, read through its public routes with the caller's
 * credentials and address (a JWT is bound to its IP): what the other description's fields report.
 */
async function callersOwn(reference: Reference, path: string, headers: Record<string, string>): Promise<Json> {
  const credentials = Object.fromEntries(
    Object.entries(headers).filter(([k]) => ['authorization', 'x-forwarded-for'].includes(k)),
  );
  const answer = await fetch(new URL(path, reference.baseUrl), { headers: credentials });
  return ((await answer.json()) as Json).content;
}

/**
 * The reference server's answers, rewritten into the descriptions it does not implement. The values
 * only the other description carries are computed from the target's state: the compact list's
 * refresh time from its cache, the balance and the items on sale from the caller's public reads.
 */
const otherVariants = (reference: Reference): Fault => ({
  description: 'the other seed description of the operations described twice',
  grep: '',
  // The first 2FA variant's reset validate takes the code only: the proxy adds the request ID of
  // the caller's last ask, which the reference server (second variant) needs.
  request: (r, memory) => {
    const requestId = memory.get(`reset ${r.headers.authorization}`);
    if (r.url.pathname === '/user/reset2FA/validate' && r.body && typeof r.body === 'object' && requestId)
      r.body = { requestId, ...r.body };
  },
  response: async (x, memory) => {
    const b: Json = x.body;
    if (typeof b !== 'object' || b === null) return;
    if (TWO_FACTOR.includes(x.path) && 'success' in b) {
      // Business errors in envelope B; a 403 or 429 stays the general envelope A answer.
      if (x.status === 300) x.body = { status: 'error', message: b.content };
      else if (x.status !== 200) return;
      else if (x.path === '/user/reset2FA/ask') {
        memory.set(`reset ${x.headers.authorization}`, b.content.requestId);
        x.body = { status: 'success', data: b.content.message };
      } else if (x.path === '/user/reset2FA/validate') x.body = { status: 'success', data: b.content.message };
      else x.body = { status: 'success', data: b.content };
    }
    if (x.status !== 200) return;
    if (x.path === '/infos/prices/buyorderAndLowestSales' && Array.isArray(b.data?.prices))
      x.body = {
        err: false,
        success: true,
        content: {
          // The refresh the answer comes from: forced now by update=1, or the cached one.
          lastUpdate: reference.deps.caches.get(COMPACT_PRICES_CACHE)?.at,
          format: 'itemId;buyOrderPrice;lowestSalePrice',
          prices: b.data.prices.map((p: Json) => `${p.item_id};${p.buyorder_price};${p.lowest_sale_price}`).join(','),
        },
      };
    // The caller's items on sale: the on-sale rows group assets of one price (`count` of them).
    if (x.path === '/user/getSalesInfos' && b.content?.totalSales !== undefined) {
      const rows: Json[] = (await callersOwn(reference, '/inventory/onSale', x.headers)).items;
      b.content = {
        nb: rows.reduce((n, r) => n + r.count, 0),
        price: rows.reduce((n, r) => n + r.count * r.price, 0),
        user: x.user,
      };
    }
    if (x.path === '/user/notifications' && b.content?.alertCount !== undefined)
      b.content = { count: b.content.alertCount, paymentReviews: b.content.paymentReviewsCount };
    if (x.path === '/user/getBalanceHistory' && Array.isArray(b.content?.values))
      b.content = {
        transactions: b.content.values,
        total: b.content.count,
        page: Number(x.query.get('page') ?? 0),
        perpage: Number(x.query.get('count') ?? x.query.get('limit') ?? 10),
        currentBalance: (await callersOwn(reference, '/user/balance', x.headers)).balance,
      };
  },
});

describe('a target implementing the other seed description of the operations described twice', () => {
  it('has no failure on them; the tests of the reference description only skip, naming both', {
    timeout: 300_000,
  }, async () => {
    const server = await startTestServer({});
    const proxy = await startFaultyProxy(server.baseUrl, otherVariants(server));
    let run: Awaited<ReturnType<typeof runCli>>;
    try {
      run = await runCli(
        ['--target', proxy.url, '--grep', '2FA|buyorderAndLowestSales|getSalesInfos|getBalanceHistory|notification'],
        { scratch, env: { NO_COLOR: '1' } },
      );
    } finally {
      await proxy.close();
      await server.close();
    }
    const { result, stdout, stderr } = run;
    expect(
      (result?.failed ?? []).map((f) => `${f.name}: ${f.reason}`),
      `${stdout.slice(-3000)}${stderr}`,
    ).toEqual([]);
    const passed = (pattern: RegExp) => result!.outcomes.filter((o) => pattern.test(o.name) && o.state === 'passed');
    // The behaviour tests of either description still run and pass on this target.
    expect(passed(/code mailed to the backup address removes it/)).toHaveLength(1);
    expect(passed(/current TOTP code activates 2FA/)).toHaveLength(1);
    const reasons = result!.skipped.map((s) => s.reason ?? '');
    expect(reasons).toContain(
      'the target implements the first seed description (envelope B) of POST /user/reset2FA/ask; this test checks the second seed description (envelope A)',
    );
    for (const operation of ['GET /user/getSalesInfos', 'GET /user/notifications'])
      expect(reasons.some((r) => r.includes(`of ${operation}; this test checks `))).toBe(true);
  });
});
