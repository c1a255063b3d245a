// Administration (seed: "Administration", "Transitions shown", "Events"): POST /admin/ban bans for
// `time` seconds (0 unbans) and posts a notice to the moderation channel; a banned user can neither
// log in nor use a token issued before the ban; GET /admin/banList is the user's ban history and
// GET /admin/getSteamInventory reads the external platform. Envelope B throughout.
import { beforeAll, describe, it } from 'vitest';
import { content, getOk, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { boundOf, operationOf, pastBoundMessage } from '../src/kit/bounds.ts';
import { helpers, imagedItem, session } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, call, pinsMeaning, setUpOk } from '../src/kit/http.ts';
import { sides } from '../src/kit/rule.ts';
import { skip } from '../src/kit/skip.ts';
import { getAs, postAs } from '../src/kit/user-calls.ts';
import type { Json } from '../src/oracle/document.ts';

beforeAll(resetIfPossible);

type Me = Awaited<ReturnType<typeof session>>;

const ban = (admin: Me, json: Record<string, unknown>) => postAs(admin, '/admin/ban', json);
const login = async (who: Me) => {
  const answer = await call('POST', '/user/login', { json: { apiKey: who.apiKey }, ip: who.ip });
  assertConforms(answer);
  return answer;
};
const acts = (who: Me) => getAs(who, '/user/balance');
const banList = async (admin: Me, platformId: string) =>
  content(await getOk('/admin/banList', { platformId }, admin.token, admin.ip)).bans as {
    id: number;
    time: number;
    until: number | null;
    active: boolean;
    reason: string;
    admin: string;
  }[];
const refusedWith = (a: Answer, message: string, why: string) =>
  assertThat(a, a.status === 300 && a.message === message, `${why}: ${message}`);

describe('POST /admin/ban', () => {
  it('Given a user banned for an hour, their token and a new login are refused until the admin unbans them with time 0 [R-TRANS-BAN, R-TRANS-UNBAN, R-ERR-403]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true });
    const user = await session();
    // The test clock follows real time between requests: the ban happened between two reads.
    const before = await helpers.now();
    const banned = await ban(admin, { platformId: user.platformId, time: 3600, reason: 'Chargeback fraud' });
    const after = await helpers.now();
    assertThat(banned, banned.status === 200, 'the ban is recorded');
    const until = content(banned).bannedUntil;
    assertThat(banned, until >= before + 3600 && until <= after + 3600, 'it ends time seconds from now');
    assertThat(
      banned,
      content(banned).platformId === user.platformId,
      'the answer names the banned user, not the admin',
    );
    const token = await acts(user);
    assertThat(token, token.status === 403, 'a token issued before the ban is refused');
    const again = await login(user);
    assertThat(again, again.status === 403 && again.message === 'forbidden', 'a banned user cannot log in');
    const unban = await ban(admin, { platformId: user.platformId, time: 0, reason: 'Appeal accepted' });
    assertThat(unban, unban.status === 200 && content(unban).bannedUntil === null, 'time 0 unbans');
    pinsMeaning('POST /admin/ban bannedUntil', 'POST /admin/ban platformId');
    const back = await login(user);
    assertThat(back, back.status === 200, 'the unbanned user logs in again');
    const other = await acts(user);
    assertThat(other, other.status === 200, 'and the old token works again');
  });

  it('Given a ban of 60 seconds, the user logs in again once it has run out [R-TRANS-BAN]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true });
    const user = await session();
    setUpOk(await ban(admin, { platformId: user.platformId, time: 60, reason: 'Cool down' }));
    const during = await login(user);
    assertThat(during, during.status === 403, 'refused during the ban');
    await helpers.advance(61);
    const after = await login(user);
    assertThat(after, after.status === 200, 'accepted once the ban ended');
  });

  it('Given a ban and an unban, the moderation channel receives a notice of each [R-TRANS-BAN, R-TRANS-UNBAN, R-EVENT-MODERATION]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true });
    const user = await session();
    const before = (await helpers.outbox('moderation')).length;
    const answer = await ban(admin, { platformId: user.platformId, time: 86_400, reason: 'Spam in trade offers' });
    const notices = await helpers.outbox('moderation');
    const notice = notices.at(-1);
    assertThat(answer, notices.length === before + 1, `one notice per ban (got ${notices.length - before})`);
    // Every call of POST /admin/ban notifies the channel (seed "Events"), the unban (time 0) too.
    // What a notice carries is not shown (the helper contract's `data` names only a verification
    // `code`): which keys name the user, the time and the reason is the target's, so none is demanded.
    const unban = await ban(admin, { platformId: user.platformId, time: 0, reason: 'Appeal accepted' });
    const after = await helpers.outbox('moderation');
    assertThat(
      unban,
      after.length === notices.length + 1,
      `the unban sends a notice of its own (got ${JSON.stringify(after.slice(notices.length))})`,
    );
    // A chat message says something: each notice has a text, its body. Its wording is not shown
    // (seed "Events": "send a message to an internal moderation chat channel"), so any text passes.
    assertThat(
      unban,
      [notice, after.at(-1)].every((m) => typeof m?.body === 'string' && m.body.trim() !== ''),
      `the ban's and the unban's notice each carry a text (got ${JSON.stringify([notice?.body, after.at(-1)?.body])})`,
    );
    pinsMeaning('event moderation: POST /admin/ban bans', 'event moderation: POST /admin/ban unbans (time 0)');
  });

  it('Given bad input or a caller who is not an admin, the seed messages and 403 answer [R-MSG-ADMIN-BAN, R-AUTH-ADMIN]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true });
    const user = await session();
    refusedWith(
      await ban(admin, { platformId: user.platformId, time: 60 }),
      'Missing required parameters: platformId, time, reason',
      'no reason',
    );
    refusedWith(
      await ban(admin, { platformId: user.platformId, time: 60, reason: '' }),
      'Missing required parameters: platformId, time, reason',
      'an empty reason counts as missing',
    );
    const unknown = user.platformId === '76561190000000001' ? '76561190000000002' : '76561190000000001';
    refusedWith(await ban(admin, { platformId: unknown, time: 60, reason: 'x' }), 'Admin user not found', 'no account');
    const notAdmin = await ban(user, { platformId: admin.platformId, time: 60, reason: 'x' });
    assertThat(notAdmin, notAdmin.status === 403, 'only administrators ban');
    const stillAdmin = await login(admin);
    assertThat(stillAdmin, stillAdmin.status === 200, 'and nobody was banned');
  });

  // The document's bounds on a ban (its own limits: the seed shows none), both sides of each, the
  // numbers and messages read from the document: the longest ban is served and ends that many
  // seconds on, the longest reason is recorded whole; one second or one character more is refused
  // and records nothing.
  it(
    `Given a ban of the document's longest time with a reason of its longest length, then it is served, ends that many seconds on and the reason is recorded whole; one second or one character more is refused with the document's message and records nothing [R-LIMIT-ADMIN-BAN]`,
    sides(['at the limit', 'past the limit'], 'R-LIMIT-ADMIN-BAN'),
    async (ctx) => {
      await needsHelpers(ctx);
      const o = operationOf('POST', '/admin/ban');
      const longest = boundOf(o, 'time', 'maximum');
      const reasonMax = boundOf(o, 'reason', 'maxLength');
      const admin = await session({ admin: true });
      const user = await session();
      const reason = 'r'.repeat(reasonMax);
      const before = await helpers.now();
      const banned = await ban(admin, { platformId: user.platformId, time: longest, reason });
      const after = await helpers.now();
      assertThat(
        banned,
        banned.status === 200,
        `a ban of ${longest} s with a reason of ${reasonMax} characters is served`,
      );
      const until = content(banned).bannedUntil;
      assertThat(
        banned,
        until >= before + longest && until <= after + longest,
        `it ends ${longest} s from now (got ${until}, now between ${before} and ${after})`,
      );
      const recorded = await banList(admin, user.platformId);
      assertThat(
        banned,
        recorded.length === 1 && recorded[0]?.reason === reason && recorded[0].time === longest,
        `the ban is recorded with its ${reasonMax}-character reason whole (got ${recorded.length} entries, reason of ${recorded[0]?.reason.length} characters)`,
      );
      refusedWith(
        await ban(admin, { platformId: user.platformId, time: longest + 1, reason: 'x' }),
        pastBoundMessage(o, 'time', 'maximum'),
        `a ban of ${longest + 1} s`,
      );
      refusedWith(
        await ban(admin, { platformId: user.platformId, time: 60, reason: `${reason}r` }),
        pastBoundMessage(o, 'reason', 'maxLength'),
        `a reason of ${reasonMax + 1} characters`,
      );
      const still = await getAs(admin, '/admin/banList', { platformId: user.platformId });
      assertThat(
        still,
        still.status === 200 && content(still).bans.length === 1,
        'the refused bans are not recorded: the history still holds the one ban',
      );
    },
  );
});

describe('GET /admin/banList', () => {
  it('Given two bans and an unban, the history lists them newest first, only the one in force active [R-ADMIN-BANLIST]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true });
    const user = await session();
    const untouched = await session();
    const first = await helpers.pinClock();
    setUpOk(await ban(admin, { platformId: user.platformId, time: 100, reason: 'First' }));
    await helpers.advance(200);
    const second = await helpers.pinClock();
    setUpOk(await ban(admin, { platformId: user.platformId, time: 3600, reason: 'Second' }));
    let bans = await banList(admin, user.platformId);
    const list = await getAs(admin, '/admin/banList', { platformId: user.platformId });
    assertThat(list, bans.map((b) => b.reason).join() === 'Second,First', 'newest first');
    assertThat(list, bans.map((b) => b.active).join() === 'true,false', 'the expired ban is not active');
    assertThat(
      list,
      bans.every((b) => b.admin === admin.platformId),
      'the issuing admin is recorded',
    );
    // Each entry: issued when it was, ending time seconds later, on the user asked for.
    const data = content(list);
    assertThat(
      list,
      data.platformId === user.platformId &&
        data.bans
          .map((b: { platformId: string; time: number; created: number; until: number }) =>
            [b.platformId, b.time, b.created, b.until].join(':'),
          )
          .join() ===
          [
            [user.platformId, 3600, second, second + 3600].join(':'),
            [user.platformId, 100, first, first + 100].join(':'),
          ].join(),
      `the bans of 3600 s at ${second} and 100 s at ${first}, each with its end (got ${JSON.stringify(data.bans)})`,
    );
    pinsMeaning(
      'GET /admin/banList platformId',
      'GET /admin/banList bans',
      'GET /admin/banList bans[].active',
      'GET /admin/banList bans[].admin',
      'GET /admin/banList bans[].created',
      'GET /admin/banList bans[].platformId',
      'GET /admin/banList bans[].reason',
      'GET /admin/banList bans[].time',
      'GET /admin/banList bans[].until',
    );
    const idsBefore = bans.map((b) => `${b.reason}:${b.id}`).join();
    setUpOk(await ban(admin, { platformId: user.platformId, time: 0, reason: 'Lifted' }));
    bans = await banList(admin, user.platformId);
    assertThat(list, bans[0]?.time === 0 && bans[0].until === null, 'the unban is an entry with until null');
    // An entry's ID is its own: the unban's entry moves the others down the list, and each keeps
    // the ID it had (a position or a count read as the ID changes), none shared.
    assertThat(
      list,
      bans
        .slice(1)
        .map((b) => `${b.reason}:${b.id}`)
        .join() === idsBefore && new Set(bans.map((b) => b.id)).size === 3,
      `each entry keeps its own ID once the unban is listed above it (before ${idsBefore}, got ${JSON.stringify(bans)})`,
    );
    pinsMeaning('GET /admin/banList bans[].id');
    assertThat(
      list,
      bans.every((b) => !b.active),
      'nothing is in force after the unban',
    );
    assertThat(list, (await banList(admin, untouched.platformId)).length === 0, 'a user never banned has no history');
  });
});

describe('GET /admin/getSteamInventory', () => {
  it('Given what a user holds on the platform, the admin reads it for that user and game only [R-ADMIN-INVENTORY]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true });
    const user = await session();
    const item = await imagedItem({ name: 'Admin Inventory Hat', game: 440 });
    // The attributes of one asset only: each is that asset's own, null on the other.
    const attributes = {
      sheen: 'Team Shine',
      killstreaker: 'Fire Horns',
      spell: 'Exorcism',
      parts: 'Kills',
      paint: 'Pink as Hell',
    };
    await helpers.platformInventory({
      platformId: user.platformId,
      game: 440,
      assets: [
        { assetId: '900001', itemId: item.id, ...attributes },
        { assetId: '900002', itemId: item.id },
      ],
    });
    const neighbour = await session();
    await helpers.platformInventory({
      platformId: neighbour.platformId,
      game: 440,
      assets: [{ assetId: '900003', itemId: item.id }],
    });
    const answer = await getOk(
      '/admin/getSteamInventory',
      { game: 440, platformId: user.platformId },
      admin.token,
      admin.ip,
    );
    const data = content(answer);
    assertThat(
      answer,
      data.assets.map((a: { assetId: string }) => a.assetId).join() === '900001,900002',
      "the user's platform assets, not another user's",
    );
    assertThat(
      answer,
      data.assets.every((a: { name: string }) => a.name === item.name),
      'with their item names',
    );
    const keys = ['sheen', 'killstreaker', 'spell', 'parts', 'paint'] as const;
    const [dressed, plain] = data.assets as Record<string, unknown>[];
    assertThat(
      answer,
      data.platformId === user.platformId &&
        data.game === 440 &&
        data.assets.every((a: { itemId: number; image: string }) => a.itemId === item.id && a.image === item.image) &&
        keys.every((k) => dressed?.[k] === attributes[k] && (plain?.[k] ?? null) === null),
      `the user and game asked for; each asset its catalogue item and image, the first its own attributes (got ${JSON.stringify(data)})`,
    );
    const other = await getOk(
      '/admin/getSteamInventory',
      { game: 730, platformId: user.platformId },
      admin.token,
      admin.ip,
    );
    assertThat(other, content(other).assets.length === 0 && content(other).game === 730, 'nothing held for game 730');
    pinsMeaning(
      'GET /admin/getSteamInventory platformId',
      'GET /admin/getSteamInventory game',
      'GET /admin/getSteamInventory assets',
      'GET /admin/getSteamInventory assets[].assetId',
      'GET /admin/getSteamInventory assets[].itemId',
      'GET /admin/getSteamInventory assets[].name',
      'GET /admin/getSteamInventory assets[].image',
      'GET /admin/getSteamInventory assets[].sheen',
      'GET /admin/getSteamInventory assets[].killstreaker',
      'GET /admin/getSteamInventory assets[].spell',
      'GET /admin/getSteamInventory assets[].parts',
      'GET /admin/getSteamInventory assets[].paint',
    );
    const forbidden = await getAs(user, '/admin/getSteamInventory', { game: 440, platformId: user.platformId });
    assertThat(forbidden, forbidden.status === 403, 'admins only');
  });

  it('Given two platform assets apart in wear and tradability, the admin reads each its own [R-ADMIN-INVENTORY]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true });
    const user = await session();
    const item = await helpers.item({ name: 'Admin Inventory Rifle', game: 730 });
    // Each given explicitly: shared/test-helpers.md names no default for either.
    const given = [
      { assetId: '900011', itemId: item.id, wear: 0.07, tradable: false },
      { assetId: '900012', itemId: item.id, wear: 0.61, tradable: true },
    ];
    await helpers.platformInventory({ platformId: user.platformId, game: 730, assets: given });
    const answer = await getOk(
      '/admin/getSteamInventory',
      { game: 730, platformId: user.platformId },
      admin.token,
      admin.ip,
    );
    const seen = (content(answer).assets as Json[]).map((a) => [a.assetId, a.wear, a.tradable]);
    const want = given.map((a) => [a.assetId, a.wear, a.tradable]);
    const wearsRight =
      JSON.stringify(seen.map(([id, wear]) => [id, wear])) === JSON.stringify(want.map(([id, wear]) => [id, wear]));
    // The test-helpers document keeps "further attributes (wear, sheen, ...)": a wear not read back
    // is the target's. Tradability it does not name: when neither this route nor the deposit list
    // shows the untradable asset as untradable, the helper did not keep it, and the test cannot run.
    assertThat(
      answer,
      wearsRight,
      `each asset its own wear (want ${JSON.stringify(want)}, got ${JSON.stringify(seen)})`,
    );
    if (JSON.stringify(seen) !== JSON.stringify(want)) {
      const offered = content(await getAs(user, '/deposit/730'))?.informations as Json[] | undefined;
      const kept = offered?.find((r) => r.assetId === '900011')?.tradable === false;
      if (!kept)
        skip(
          ctx,
          'the platform inventory helper kept no `tradable: false` (GET /deposit/730 shows the asset tradable too): shared/test-helpers.md promises "...attributes" without naming tradable',
        );
      assertThat(
        answer,
        false,
        `each asset its own tradability, as the deposit list shows it (want ${JSON.stringify(want)}, got ${JSON.stringify(seen)})`,
      );
    }
    pinsMeaning('GET /admin/getSteamInventory assets[].wear', 'GET /admin/getSteamInventory assets[].tradable');
  });
});
