import { describe, expect, it } from 'vitest';
import type { Answer } from './http.ts';
import { balancePage, compactPrices, otherVariantReason, variantOf } from './variants.ts';

const answer = (operation: string, body: unknown, status = 200) => ({ operation, status, body }) as Answer;

describe('variantOf', () => {
  it.each([
    ['GET /user/2FA/create', { status: 'success', data: { key: 'k' } }, 'first'],
    ['GET /user/2FA/create', { err: false, success: true, content: { key: 'k' } }, 'second'],
    ['POST /user/reset2FA/validate', { status: 'error', message: 'Invalid reset code' }, 'first'],
    ['POST /user/reset2FA/validate', { err: true, success: false, content: 'Request not found' }, 'second'],
    ['GET /infos/prices/buyorderAndLowestSales', { status: 'success', data: { prices: [] } }, 'first'],
    ['GET /infos/prices/buyorderAndLowestSales', { err: false, success: true, content: { prices: '' } }, 'second'],
    ['GET /user/notifications', { success: true, content: { alertCount: 0, alerts: [] } }, 'first'],
    ['GET /user/notifications', { success: true, content: { count: 0, paymentReviews: 0 } }, 'second'],
    ['GET /user/getSalesInfos', { success: true, content: { totalSales: 0 } }, 'first'],
    ['GET /user/getSalesInfos', { success: true, content: { nb: 0, price: 0, user: '1' } }, 'second'],
    ['GET /user/getBalanceHistory', { success: true, content: { values: [] } }, 'first'],
    ['GET /user/getBalanceHistory', { success: true, content: { transactions: [], total: 0 } }, 'second'],
    ['GET /user/balance', { err: false, success: true, content: { balance: 0 } }, 'first'],
  ])('%s %j follows the %s description', (operation, body, variant) => {
    expect(variantOf(answer(operation, body))).toBe(variant);
  });

  it('names both descriptions in the skip reason', () => {
    expect(otherVariantReason('POST /user/reset2FA/ask', 'first', 'second')).toBe(
      'the target implements the first seed description (envelope B) of POST /user/reset2FA/ask; this test checks the second seed description (envelope A)',
    );
  });
});

describe('readers of either description', () => {
  it('reads the compact price list as an array or as its string form', () => {
    const rows = [{ item_id: 5021, buyorder_price: 190, lowest_sale_price: 0 }];
    expect(compactPrices({ prices: rows })).toEqual(rows);
    expect(compactPrices({ prices: '5021;190;0' })).toEqual(rows);
    expect(compactPrices({ prices: '' })).toEqual([]);
  });

  it('reads a balance history page as values/count or transactions/total, count absent after page 0', () => {
    const rows = [{ amount: -800 }];
    expect(balancePage({ values: rows, count: 2 })).toEqual({ values: rows, count: 2 });
    expect(balancePage({ values: rows })).toEqual({ values: rows, count: undefined });
    expect(balancePage({ transactions: rows, total: 2, page: 0, perpage: 1, currentBalance: 0 })).toEqual({
      values: rows,
      count: 2,
    });
  });
});
