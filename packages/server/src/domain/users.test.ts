import { describe, expect, it } from 'vitest';
import { ITEMS } from './messages.ts';
import { testState } from './test-state.ts';
import { ADMIN_ROLE, staffList, storeInfo } from './users.ts';

describe('storeInfo', () => {
  it.each([
    ['exact short URL', 'alice-store', true],
    ['another case', 'Alice-Store', true],
    ['unknown', 'nobody', false],
  ])('%s', (_name, identifier, found) => {
    const s = testState();
    const alice = s.user({ name: 'Alice', shorturl: 'alice-store' });
    s.user({ name: 'Bob' }); // no short URL: never matched by an empty identifier
    expect(storeInfo(s.tx, identifier)).toEqual(
      found
        ? { ok: true, value: { platformId: alice.platformId, image: alice.image, name: 'Alice' } }
        : { ok: false, error: ITEMS.storeNotFound },
    );
  });
});

describe('staffList', () => {
  it('lists the administrators by name', () => {
    const s = testState();
    const zed = s.user({ name: 'Zed', admin: true });
    s.user({ name: 'Bob' });
    const amy = s.user({ name: 'Amy', admin: true });
    expect(staffList(s.tx)).toEqual([
      { name: 'Amy', platformId: amy.platformId, role: ADMIN_ROLE },
      { name: 'Zed', platformId: zed.platformId, role: ADMIN_ROLE },
    ]);
  });
});
