import { describe, expect, it } from 'vitest';
import { changesState, findHelper, findOperation, namedOperation, namedOperations, operations } from './document.ts';

describe('findOperation', () => {
  it.each([
    [
      'a literal segment wins over a parameter',
      'GET',
      '/user/disconnectSession/all',
      'GET /user/disconnectSession/all',
    ],
    ['a parameter takes any other value', 'GET', '/user/disconnectSession/42', 'GET /user/disconnectSession/{id}'],
    ['more literal segments win', 'GET', '/item/listing/count/5', 'GET /item/listing/count/{item}'],
    ['two parameters', 'GET', '/item/listing/5/76561198000000001', 'GET /item/listing/{item}/{userid}'],
    ['a literal beside a parameter', 'GET', '/item/pricing/bulk', 'GET /item/pricing/bulk'],
    ['the parameter beside it', 'GET', '/item/pricing/12', 'GET /item/pricing/{item}'],
    ['a deeper literal path', 'GET', '/item/details/fromid/123', 'GET /item/details/fromid/{backpackid}'],
    ['a slug', 'GET', '/item/details/mann-co-supply-crate-key', 'GET /item/details/{item}'],
    ['a trailing slash', 'GET', '/user/ipList/', 'GET /user/ipList'],
    ['the method counts', 'POST', '/item/pricing/12', undefined],
    ['an unknown path', 'GET', '/no/such/route', undefined],
    ['a prefix is not a match', 'GET', '/item/pricing/12/extra', undefined],
  ])('%s: %s %s', (_, method, path, want) => {
    expect(findOperation(method, path)?.name).toBe(want);
  });
});

describe('findHelper', () => {
  it('names a test helper by its documented path, for its documented method only', () => {
    expect(findHelper('POST', '/test_helpers/payments/12')?.name).toBe('POST /test_helpers/payments/{cashoutId}');
    expect(findHelper('GET', '/test_helpers/payments/12')).toBeUndefined();
  });
});

describe('namedOperation: the operation a test name states, by exact template', () => {
  it.each([
    ['POST /item/buyorder/update Given an order, then its price changes', 'POST /item/buyorder/update'],
    ['POST /item/buyorder/remove: Given an order, then it is gone', 'POST /item/buyorder/remove'],
    ['GET /item/listing/{item}/{userid} Given two sellers', 'GET /item/listing/{item}/{userid}'],
    ['GET /item/listing/count/{item}/{userid}: a seller', 'GET /item/listing/count/{item}/{userid}'],
    ['GET /item/listing/count/{item} counts', 'GET /item/listing/count/{item}'],
    ['POST /item/buyorder Given a balance', 'POST /item/buyorder'],
    ['POST /item/buyorder and /update: a value above the maximum', 'POST /item/buyorder'],
    [
      'contract: every operation answers as documented GET /user/disconnectSession/all ',
      'GET /user/disconnectSession/all',
    ],
    ['GET /giveaways/history/my lists mine', 'GET /giveaways/history/my'],
    ['POST /user/setMailNotificationStatus switches all', 'POST /user/setMailNotificationStatus'],
    ['the first named wins: GET /user/balance after POST /cart/checkout', 'GET /user/balance'],
    [
      'a later exact name after a longer one: GET /item/listing/{item}/{userid} then GET /user/balance',
      'GET /item/listing/{item}/{userid}',
    ],
    ['no operation named here', undefined],
  ])('%s', (name, want) => {
    expect(namedOperation(name)?.name).toBe(want);
  });
});

describe('namedOperations: every operation a test name states, shorthands of a list resolved', () => {
  it.each([
    [
      'POST /item/buyorder, /update, /remove Given a balance',
      ['POST /item/buyorder', 'POST /item/buyorder/update', 'POST /item/buyorder/remove'],
    ],
    [
      'POST /item/buyorder and /update: a value above the maximum',
      ['POST /item/buyorder', 'POST /item/buyorder/update'],
    ],
    ['POST /user/reset2FA/ask and /validate Given', ['POST /user/reset2FA/ask', 'POST /user/reset2FA/validate']],
    ['GET /inventory/onInventory and /inventory/onSale count', ['GET /inventory/onInventory', 'GET /inventory/onSale']],
    [
      'POST /giveaways/join/{url}, /leave/{url}; GET /giveaways/isIn/{url}, /joinedList Given',
      [
        'POST /giveaways/join/{url}',
        'POST /giveaways/leave/{url}',
        'GET /giveaways/isIn/{url}',
        'GET /giveaways/joinedList',
      ],
    ],
    [
      'GET /giveaways, /giveaways/history, /giveaways/my lists',
      ['GET /giveaways', 'GET /giveaways/history', 'GET /giveaways/my'],
    ],
    ['the balance: GET /user/balance after POST /cart/checkout.', ['GET /user/balance', 'POST /cart/checkout']],
    [
      'GET /item/listing/{item}/{userid} and GET /item/listing/{item}',
      ['GET /item/listing/{item}/{userid}', 'GET /item/listing/{item}'],
    ],
    // A path after a word other than a list's is no shorthand; a name extended by a letter is none.
    ['POST /cart/add Given an asset, then /cart/get lists it', ['POST /cart/add']],
    ['POST /cart/addition, /get', []],
    ['nothing named here', []],
  ])('%s', (name, want) => {
    expect(namedOperations(name).map((o) => o.name)).toEqual(want);
  });
});

describe('operations', () => {
  it('lists every operation of the bundle with its permission level', () => {
    expect(operations.length).toBeGreaterThan(0);
    for (const o of operations)
      expect(o.permission, o.name).toMatch(/^(None|API only|Connected \+ API( \+ 2FA)?|admin)$/);
  });

  it.each([
    ['GET /user/ipList', false],
    ['GET /user/disconnect', true],
    ['GET /user/disconnectSession/{id}', true],
    ['POST /user/login', true],
  ])('%s changes state: %s', (name, want) => {
    const o = operations.find((x) => x.name === name);
    expect(o && changesState(o)).toBe(want);
  });
});
