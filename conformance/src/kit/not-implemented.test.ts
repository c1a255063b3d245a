// The names of --operations and the scope they set: report names or operationIds, of the document
// or of the test helpers; helpers stay callable unless the list names some.
import { describe, expect, it } from 'vitest';
import { inScope, isNotImplemented, notImplementedReason, parseOperations } from './not-implemented.ts';

describe('parseOperations', () => {
  it('reads a comma-separated list of report names and operationIds', () => {
    expect(parseOperations('GET /user/balance, getUserInfos,post /item/buyorder')).toEqual({
      names: new Set(['GET /user/balance', 'GET /user/infos', 'POST /item/buyorder']),
      unknown: [],
    });
  });

  it('reads a file of one per line with comments, and lists the entries it does not know', () => {
    const text =
      '# our backend\nGET  /item/listing/{item}\n\nPOST /test_helpers/users # set-up\nGET /nowhere\nnoSuchId\n';
    expect(parseOperations(text)).toEqual({
      names: new Set(['GET /item/listing/{item}', 'POST /test_helpers/users']),
      unknown: ['GET /nowhere', 'noSuchId'],
    });
  });
});

describe('inScope', () => {
  const scope = new Set(['GET /user/balance']);
  it('lets everything through without a list', () => expect(inScope(undefined, 'POST /cart/add')).toBe(true));
  it('keeps the operations of the document to the list', () => {
    expect(inScope(scope, 'GET /user/balance')).toBe(true);
    expect(inScope(scope, 'POST /cart/add')).toBe(false);
  });
  it('keeps the test helpers callable unless the list names some', () => {
    expect(inScope(scope, 'POST /test_helpers/users')).toBe(true);
    const withHelpers = new Set([...scope, 'GET /test_helpers/clock']);
    expect(inScope(withHelpers, 'POST /test_helpers/users')).toBe(false);
    expect(inScope(withHelpers, 'GET /test_helpers/clock')).toBe(true);
  });
});

describe('names and reasons', () => {
  it('counts any 404 as not implemented, and says what the operation was needed for', () => {
    expect([404, 300, 403, 405].map(isNotImplemented)).toEqual([true, false, false, false]);
    expect(notImplementedReason('POST /cashout/process', 'request a cashout')).toBe(
      'not implemented: POST /cashout/process answered 404 (needed to request a cashout)',
    );
  });
});
