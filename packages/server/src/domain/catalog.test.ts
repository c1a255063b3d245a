import { describe, expect, it } from 'vitest';
import { findItem, itemView } from './catalog.ts';
import { ITEMS } from './messages.ts';
import { testState } from './test-state.fixture.ts';

describe('findItem', () => {
  function catalogue() {
    const s = testState();
    const key = s.item({ name: 'Mann Co. Supply Crate Key' });
    const numeric = s.item({ name: '1999' }); // a slug made of digits
    return { s, key, numeric };
  }

  it.each([
    ['a numeric ID', (c: ReturnType<typeof catalogue>) => String(c.key.id), 'key'],
    ['a slug', () => 'mann-co-supply-crate-key', 'key'],
    ['a numeric slug that is no ID', () => '1999', 'numeric'],
  ] as const)('by %s', (_name, ref, want) => {
    const c = catalogue();
    const found = findItem(c.s.tx, ref(c));
    expect(found.ok && found.value.id).toBe(c[want].id);
  });

  it('answers Item not found otherwise', () => {
    expect(findItem(catalogue().s.tx, 'no-such-item')).toEqual({ ok: false, error: ITEMS.itemNotFound });
  });
});

describe('itemView', () => {
  it('hides the internal price maximum', () => {
    const s = testState();
    const view = itemView(s.item({ maxPrice: 1000 }));
    expect('maxPrice' in view).toBe(false);
    expect(view).toMatchObject({ name: 'Test Item', game: 440, craftable: 1, featured: 0 });
  });
});
