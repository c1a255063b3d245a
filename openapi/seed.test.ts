import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED_FILE, seedMessages, seedOperations } from './seed.ts';

describe('reading the seed', () => {
  it('finds every operation row, both paths of the two-path rows, and the described-only routes', () => {
    const ops = seedOperations();
    expect(ops).toEqual(
      expect.arrayContaining([
        'POST /user/login',
        'GET /item/listing/{item}/{userid}',
        'GET /item/listing/count/{item}/{userid}',
        'POST /giveaways/join/{url}',
        'POST /cashout/process',
        'GET /trades/resend',
      ]),
    );
    expect(ops.length).toBe(97);
  });

  it.each([
    ['a message with its own space', 'POST /item/buyorder/update', 'You dont have buy order on this item !'],
    ['" / " separated messages', 'POST /user/login', 'Country blocked'],
    ['the /update shorthand', 'POST /item/buyorder/update', 'Max 5000 items'],
    ['the /remove shorthand', 'POST /item/buyorder/remove', 'No buy order found'],
    ['second-variant lists', 'POST /user/reset2FA/validate', 'Too many attempts'],
    [
      'a message with commas',
      'POST /support/create',
      'Missing required parameters: subject, description, topic, concern',
    ],
    ['a placeholder', 'POST /deposit/trade', 'invalid deposit key for assetId: <asset_id>'],
  ])('splits %s', (_, endpoint, message) => {
    expect(
      seedMessages()
        .filter((m) => m.endpoints.includes(endpoint))
        .map((m) => m.message),
    ).toContain(message);
  });

  it('reads the deposit trade status row as response types', () => {
    const types = seedMessages()
      .filter((m) => m.type)
      .map((m) => m.type);
    expect(types).toEqual(['error', 'notFound', 'forbidden']);
  });

  it('keeps the committed seed identical to the shared one when that is present', () => {
    const shared = resolve(import.meta.dirname, '../../shared/seed/item-marketplace-api.md');
    if (!existsSync(shared)) return;
    expect(readFileSync(SEED_FILE, 'utf8')).toBe(readFileSync(shared, 'utf8'));
  });
});
