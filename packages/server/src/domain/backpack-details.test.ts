import { describe, expect, it } from 'vitest';
import { backpackDetails, stripStrings, stripTrailing } from './backpack-details.ts';
import { ITEMS } from './messages.ts';
import { testState } from './test-state.fixture.ts';

describe('stripTrailing', () => {
  it.each([
    ['plain', 'Team Shine', 'Team Shine'],
    ['trailing semicolon', 'Hot Rod;', 'Hot Rod'],
    ['trailing spaces', 'Fire Horns  ', 'Fire Horns'],
    ['mixed run', 'Strange; ;  ', 'Strange'],
    ['inner separators stay', 'a; b c', 'a; b c'],
    ['leading spaces stay', '  x', '  x'],
    ['only separators', ' ; ', ''],
  ])('%s', (_name, given, want) => {
    expect(stripTrailing(given)).toBe(want);
  });

  it('strips every string field and leaves the others', () => {
    expect(stripStrings({ a: 'x; ', b: 3, c: null, d: { e: 'y;' } })).toEqual({
      a: 'x',
      b: 3,
      c: null,
      d: { e: 'y;' },
    });
  });
});

describe('backpackDetails', () => {
  it.each([
    ['game 440 keeps craftable 1', 440, 1, 1],
    ['game 440 keeps craftable 0', 440, 0, 0],
    ['game 730 has an empty craftable', 730, 1, ''],
    ['game 570 has an empty craftable', 570, 0, ''],
  ] as const)('%s', (_name, game, craftable, want) => {
    const s = testState();
    const owner = s.user();
    const item = s.item({ game, craftable });
    const asset = s.asset({ owner: owner.platformId, itemId: item.id });
    const details = backpackDetails(s.tx, asset.assetId, false);
    expect(details.ok && details.value.craftable).toBe(want);
  });

  it('joins the item fields, strips trailing separators and hides the seller from non-admins', () => {
    const s = testState();
    const owner = s.user();
    const item = s.item({ name: 'Strange Scattergun ', effect: 'Sunbeams;', quality: 'Strange', color: 'CF6A32' });
    const asset = s.asset({
      owner: owner.platformId,
      itemId: item.id,
      state: 1,
      price: 900,
      sheen: 'Hot Rod; ',
      wear: 0.5,
    });
    const details = backpackDetails(s.tx, asset.assetId, false);
    expect(details).toEqual({
      ok: true,
      value: expect.objectContaining({
        id: asset.id,
        assetId: asset.assetId,
        price: 900,
        wear: 0.5,
        sheen: 'Hot Rod',
        name: 'Strange Scattergun',
        effect: 'Sunbeams',
        quality: 'Strange',
        url: item.url,
        color: 'CF6A32',
        lastupdate: s.now,
      }),
    });
    expect(details.ok && 'user' in details.value).toBe(false);
    const admin = backpackDetails(s.tx, asset.assetId, true);
    expect(admin.ok && admin.value.user).toBe(owner.platformId);
  });

  it('answers Item not found for an unknown asset ID', () => {
    expect(backpackDetails(testState().tx, '123', false)).toEqual({ ok: false, error: ITEMS.itemNotFound });
  });
});
