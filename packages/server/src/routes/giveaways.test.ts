import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GIVEAWAYS } from '../domain/messages.ts';
import { startTestServer } from './test-harness.fixture.ts';

type Harness = Awaited<ReturnType<typeof startTestServer>>;
let t: Harness;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(() => t.reset());

async function loggedIn() {
  const user = await t.user();
  return { ...user, jwt: await t.login(user.apiKey) };
}

/** A creator with one asset and a running private giveaway of an hour that `joiners` joined. */
async function running(joiners: number) {
  const creator = await loggedIn();
  const item = await t.item({ name: 'Pool Key' });
  const asset = await t.asset({ owner: creator.platformId, itemId: item.id });
  const created = await t.api.POST('/giveaways/create', {
    body: {
      name: 'Route test',
      maxEntries: 10,
      type: 1,
      duration: 3600,
      items: [asset.assetId],
      descriptionBefore: '',
      descriptionAfter: '',
      chatVerification: false,
    },
    ...t.auth(creator.jwt),
  });
  expect(created.response.status).toBe(200);
  const { url } = created.data!.data.giveaway;
  const people = [];
  for (let i = 0; i < joiners; i++) {
    const person = await loggedIn();
    const joined = await t.api.POST('/giveaways/join/{url}', { params: { path: { url } }, ...t.auth(person.jwt) });
    expect(joined.response.status).toBe(200);
    people.push(person);
  }
  const stored = () => Object.values(t.deps.store.state.giveaways).find((g) => g.url === url)!;
  return { creator, asset, url, people, stored };
}

describe('the lazy ending', () => {
  it('is stored even when the request that triggered it is refused', async () => {
    const { asset, url, people, stored } = await running(2);
    await t.clock({ advance: 3600 });
    expect(stored().ended).toBe(false);
    const late = await loggedIn();
    const refused = await t.api.POST('/giveaways/join/{url}', { params: { path: { url } }, ...t.auth(late.jwt) });
    expect([refused.response.status, (refused.error as { message?: string }).message]).toEqual([
      300,
      GIVEAWAYS.cannotJoin,
    ]);
    const g = stored();
    expect(g.ended).toBe(true);
    expect(people.map((p) => p.platformId)).toContain(g.winner);
    expect(t.deps.store.state.assets[asset.id]).toMatchObject({ user: g.winner, state: 0 });
  });

  it('does not end a giveaway before its end, whatever route is called', async () => {
    const { creator, stored } = await running(1);
    // 10 s short: the test clock keeps following real time while the requests run.
    await t.clock({ advance: 3590 });
    for (const path of ['/giveaways', '/giveaways/my', '/giveaways/history/my'] as const)
      expect((await t.api.GET(path, t.auth(creator.jwt))).response.status).toBe(200);
    expect(stored().ended).toBe(false);
  });
});
