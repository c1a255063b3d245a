import { describe, expect, it } from 'vitest';
import { checkPrefer, type OperationExamples, parsePrefer } from './examples.ts';

const op: OperationExamples = {
  operationId: 'postItemBuyorder',
  method: 'POST',
  path: '/item/buyorder',
  statuses: [
    { status: '200', names: ['inserted'] },
    { status: '300', names: ['notEnoughBalance', 'maxItems'] },
    { status: '500', names: [] },
  ],
};

describe('parsePrefer', () => {
  it('reads Prism syntax, quoted values and other preferences', () => {
    expect(parsePrefer('code=300, example="maxItems"; dynamic=true')).toEqual({
      code: '300',
      example: 'maxItems',
      dynamic: 'true',
    });
    expect(parsePrefer(undefined)).toEqual({});
  });
});

describe('checkPrefer', () => {
  it('lets a documented status and name through, and no preference at all', () => {
    expect(checkPrefer('code=300, example=maxItems', op)).toEqual({ ok: true });
    expect(checkPrefer('code=500', op)).toEqual({ ok: true });
    expect(checkPrefer(undefined, op)).toEqual({ ok: true });
  });

  it('completes a name given without a status with the status that documents it', () => {
    expect(checkPrefer('example=maxItems', op)).toEqual({ ok: true, prefer: 'example=maxItems, code=300' });
  });

  it('refuses an unknown name, or a name of another status, with the list of names', () => {
    for (const header of ['example=nope', 'code=200, example=maxItems']) {
      const check = checkPrefer(header, op);
      expect(check.ok).toBe(false);
      if (!check.ok)
        expect(check.message).toContain(
          '200: inserted; 300: notEnoughBalance, maxItems; 500: (no named example). Send Prefer: code=<status>, example=<name>.',
        );
    }
  });

  it('refuses a status the operation does not document', () => {
    const check = checkPrefer('code=418', op);
    expect(check).toMatchObject({ ok: false });
    if (!check.ok) expect(check.message).toMatch(/^Unknown status 418 for postItemBuyorder: it documents 200: /);
  });
});
