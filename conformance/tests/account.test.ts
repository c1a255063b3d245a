// User account (seed: "User account", "User", "Events", Limits "Short URL"). Where the seed is
// silent the document settles: the trade URL prefix `https://platform.example.com/tradeoffer/new/
// ?partner=` with the account ID (lower 32 bits of the platform ID) and an 8-character token; a
// month of the short URL limit is 30 days; left-out switches keep their stored values.
import { beforeAll, describe, it } from 'vitest';
import { avatarsOf } from '../src/kit/avatars.ts';
import { content, getOk, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { boundOf, operationOf, pastBoundMessage } from '../src/kit/bounds.ts';
import { helpers, login, session } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, assertValue, call, pinsMeaning, setUpOk } from '../src/kit/http.ts';
import { sides } from '../src/kit/rule.ts';
import { variantOf } from '../src/kit/variants.ts';

beforeAll(resetIfPossible);

type Me = Awaited<ReturnType<typeof session>>;
const post = async (me: Me | undefined, path: string, json: object) => {
  const answer = await call('POST', path, { json, token: me?.token, ip: me?.ip });
  assertConforms(answer);
  return answer;
};
const get = (me: Me, path: string, query: Record<string, string | number> = {}) => getOk(path, query, me.token, me.ip);
const refused = (a: Answer, message: string) => a.status === 300 && a.message === message;

const PREFIX = 'https://platform.example.com/tradeoffer/new/?partner=';
/** The account ID: the lower 32 bits of the 64-bit platform user ID. */
const accountId = (platformId: string) => String(BigInt(platformId) & 0xffffffffn);

describe('GET /user/infos, /user/balance, /user/getContactMail', () => {
  it('Given an account with a balance and an e-mail, the three routes show them, and 2fa is a string [R-USER-2FA-STRING, R-MONEY-CENTS]', async (ctx) => {
    await needsHelpers(ctx);
    // Created at a known second, logged in later: `since` is the creation, not the login or now.
    const since = await helpers.pinClock();
    const user = await helpers.user({
      balance: 4321,
      email: 'infos@example.com',
      name: 'Infos Owner',
      twoFactor: true,
    });
    await helpers.advance(100);
    const me = { ...user, ip: '198.51.100.10', token: await login(user.apiKey, '198.51.100.10') };
    await helpers.advance(100);
    const infos = content(await get(me, '/user/infos')).informations;
    const probe = { platformId: me.platformId, balance: 4321, name: 'Infos Owner', '2fa': 'true', notification: 1 };
    assertThat(
      await get(me, '/user/infos'),
      Object.entries(probe).every(([k, v]) => infos[k] === v),
      `the account as set up: ${JSON.stringify(probe)}`,
    );
    assertThat(
      await get(me, '/user/infos'),
      Number(infos.since) === since,
      `since is the account's creation (${since}), not the login nor now (got ${infos.since})`,
    );
    // Created, logged in 100 s later, read 100 s after that: the last activity is the login or a
    // later request, never the creation.
    const readBy = await helpers.now();
    const last = Number(infos.lastactivity);
    assertThat(
      await get(me, '/user/infos'),
      last >= since + 100 && last <= readBy,
      `lastactivity is the login (${since + 100}) or later, up to the read (${readBy}), not the creation (got ${infos.lastactivity})`,
    );
    const balance = await get(me, '/user/balance');
    assertThat(balance, content(balance).balance === 4321, 'the balance in cents');
    // A buy order of 3 x 107 reserves 321: the balance is net of it (the document's reading).
    await helpers.buyOrder({
      owner: me.platformId,
      itemId: (await helpers.item({ name: 'Infos Reserve Hat', game: 440 })).id,
      price: 107,
      amount: 3,
    });
    const reserved = await get(me, '/user/balance');
    assertThat(reserved, content(reserved).balance === 4000, 'net of the 321 a buy order reserves: 4000');
    const mail = await get(me, '/user/getContactMail');
    assertThat(mail, content(mail).address === 'infos@example.com', 'the contact address');
    const other = await session({ twoFactor: false });
    const second = await get(other, '/user/infos');
    assertThat(second, content(second).informations['2fa'] === 'false', "another user's 2fa is 'false'");
    const otherMail = await get(other, '/user/getContactMail');
    assertThat(otherMail, content(otherMail).address !== 'infos@example.com', "the address is the caller's own");
    pinsMeaning(
      'GET /user/infos informations',
      'GET /user/infos informations.balance',
      'GET /user/infos informations.since',
      'GET /user/infos informations.lastactivity',
      'GET /user/balance balance',
      'GET /user/getContactMail address',
    );
  });

  it('Given an account whose chat tag and chat user ID nobody has set, GET /user/infos shows both as empty strings', async (ctx) => {
    await needsHelpers(ctx);
    // The document's User: "Fields the caller has not set are empty strings". No route and no
    // test helper sets `chattag` or `chatid`, so a fresh account's are unset; a name is given, so
    // the account is not empty as a whole.
    const me = await session({ name: 'Chatless Owner' });
    const answer = await get(me, '/user/infos');
    const { chattag, chatid } = content(answer).informations;
    assertValue(answer, { chattag, chatid }, { chattag: '', chatid: '' }, 'the unset chat tag and chat user ID');
    pinsMeaning('GET /user/infos informations.chattag', 'GET /user/infos informations.chatid');
  });
});

describe('GET /user/notifications, POST /user/closePaymentReviews, /user/closePaymentAlert', () => {
  it('Given a new account, every list is empty, nothing is closed, and an unknown alert is refused [R-EVENT-NOTIFICATIONS, R-NOTIFICATIONS-READ]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const notes = await get(me, '/user/notifications', { unreadOnly: 'true', limit: 5 });
    const n = content(notes);
    const counts =
      variantOf(notes) === 'first'
        ? [n.alertCount, n.paymentReviewsCount, n.messagesCount, n.offersCount, n.tradesCount, n.alerts.length]
        : [n.count, n.paymentReviews];
    assertThat(
      notes,
      counts.every((c: number) => c === 0),
      'no notifications yet (in either variant)',
    );
    const closed = await post(me, '/user/closePaymentReviews', {});
    assertThat(closed, closed.status === 200 && content(closed).closed === 0, 'nothing to close');
    const alert = await post(me, '/user/closePaymentAlert', { id: 999_999 });
    assertThat(alert, refused(alert, 'Payment alert not found'), 'no such alert');
  });
});

describe('GET /user/notifications counts and the close routes', () => {
  it("Given three payment reviews and two alerts of mine and one of each of another user's, the counts are my unread ones; closing one alert closes that review only, closing the reviews closes the rest and no alert [R-EVENT-NOTIFICATIONS, R-NOTIFICATIONS-READ]", async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const other = await session();
    const reviews = [];
    for (const n of [1, 2, 3])
      reviews.push(
        await helpers.notification({ platformId: me.platformId, kind: 'paymentReview', message: `Review ${n}` }),
      );
    for (const n of [1, 2])
      await helpers.notification({ platformId: me.platformId, kind: 'alert', message: `Alert ${n}` });
    const theirs = await helpers.notification({ platformId: other.platformId, kind: 'paymentReview' });
    await helpers.notification({ platformId: other.platformId, kind: 'alert' });
    const [r1, r2, r3] = reviews.map((r) => r.id);
    /** The unread alerts and payment reviews in either variant, and (variant 1) the reviews listed. */
    const read = async (who: Me, query: Record<string, string | number> = { limit: 10 }) => {
      const answer = await get(who, '/user/notifications', query);
      const c = content(answer);
      return variantOf(answer) === 'first'
        ? {
            answer,
            alerts: c.alertCount as number,
            reviews: c.paymentReviewsCount as number,
            listed: (c.paymentReviews as { id: number }[]).map((r) => r.id).sort((a, b) => a - b),
          }
        : { answer, alerts: c.count as number, reviews: c.paymentReviews as number, listed: undefined };
    };
    const ids = (...list: (number | undefined)[]) => list.sort((a, b) => a! - b!).join();
    const start = await read(me);
    assertThat(
      start.answer,
      start.alerts === 2 &&
        start.reviews === 3 &&
        (start.listed === undefined || start.listed.join() === ids(r1, r2, r3)),
      `my 2 unread alerts and 3 unread reviews, not the other user's (got ${JSON.stringify(content(start.answer))})`,
    );
    const foreign = await post(me, '/user/closePaymentAlert', { id: theirs.id });
    assertThat(foreign, refused(foreign, 'Payment alert not found'), "another user's review is not mine to close");
    const one = await post(me, '/user/closePaymentAlert', { id: r2 });
    assertThat(one, one.status === 200 && content(one).message === 'Payment alert closed', 'Payment alert closed');
    const afterOne = await read(me);
    const unread = await read(me, { unreadOnly: 'true', limit: 10 });
    assertThat(
      afterOne.answer,
      afterOne.reviews === 2 &&
        afterOne.alerts === 2 &&
        (afterOne.listed === undefined ||
          (afterOne.listed.join() === ids(r1, r2, r3) && unread.listed?.join() === ids(r1, r3))),
      `that review is read: 2 unread reviews (the read one still listed, not unread), the alerts untouched (got ${JSON.stringify(content(afterOne.answer))})`,
    );
    const all = await post(me, '/user/closePaymentReviews', {});
    assertThat(
      all,
      all.status === 200 && content(all).closed === 2 && content(all).message === 'Payment reviews closed',
      `the two still unread are closed, not the three listed (got ${JSON.stringify(content(all))})`,
    );
    const afterAll = await read(me);
    const others = await read(other);
    assertThat(
      afterAll.answer,
      afterAll.reviews === 0 &&
        afterAll.alerts === 2 &&
        (afterAll.listed === undefined || afterAll.listed.join() === ids(r1, r2, r3)) &&
        others.reviews === 1 &&
        others.alerts === 1,
      `no unread review left (the three still listed, read), the alerts untouched, the other user's review and alert still unread (got ${JSON.stringify(content(afterAll.answer))})`,
    );
    const again = await post(me, '/user/closePaymentReviews', {});
    assertThat(again, again.status === 200 && content(again).closed === 0, 'nothing left to close');
    // An alert is no payment alert: a user with an alert and no payment review has no payment
    // alert to close by any ID, so closing the alert's is refused and the alert stays unread.
    const alertsOnly = await session();
    const alert = await helpers.notification({ platformId: alertsOnly.platformId, kind: 'alert' });
    const notAReview = await post(alertsOnly, '/user/closePaymentAlert', { id: alert.id });
    const stillUnread = await read(alertsOnly);
    assertThat(
      notAReview,
      refused(notAReview, 'Payment alert not found') && stillUnread.alerts === 1,
      `an alert's ID is no payment alert: refused, the alert still unread (got ${stillUnread.alerts} unread alerts)`,
    );
    pinsMeaning(
      'GET /user/notifications paymentReviews',
      'GET /user/notifications paymentReviewsCount',
      'GET /user/notifications count',
      'POST /user/closePaymentAlert message',
      'POST /user/closePaymentReviews closed',
      'POST /user/closePaymentReviews message',
    );
  });
});

describe('GET /user/generateCSVToken', () => {
  it('Given two requests, each gives a different 128-character SHA-512 hex token [R-CSV-TOKEN]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const a = content(await get(me, '/user/generateCSVToken')).token;
    const b = await get(me, '/user/generateCSVToken');
    assertThat(
      b,
      /^[0-9a-f]{128}$/.test(a) && /^[0-9a-f]{128}$/.test(content(b).token) && a !== content(b).token,
      'two distinct SHA-512 digests',
    );
  });
});

describe('POST /user/setAffiliates', () => {
  it('Given a referral code, anonymous or connected, each click reaches the affiliate service with its code [R-AFFILIATES]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const before = (await helpers.outbox('affiliate')).length;
    const anonymous = await post(undefined, '/user/setAffiliates', { code: 'anon-promo_1' });
    assertThat(anonymous, anonymous.status === 200, 'no login needed');
    const mine = await post(me, '/user/setAffiliates', { code: 'my-promo_2' });
    assertThat(mine, content(mine).message === 'Affiliate click registered', 'the documented confirmation');
    pinsMeaning('POST /user/setAffiliates message');
    // The seed: the route "registers an affiliate click with an affiliate tracking service". Which
    // key of the message carries the code, and whether it names the caller, is not shown (the
    // helper contract's `data` names only a verification `code`): the code is looked for anywhere.
    const clicks = (await helpers.outbox('affiliate')).slice(before);
    const carries = (c: (typeof clicks)[number], code: string) =>
      Object.values(c.data as Record<string, unknown>).includes(code) || `${c.subject} ${c.body}`.includes(code);
    assertThat(
      mine,
      clicks.length === 2 && carries(clicks[0]!, 'anon-promo_1') && carries(clicks[1]!, 'my-promo_2'),
      `one click per call, in order, each carrying its code (got ${JSON.stringify(clicks)})`,
    );
    pinsMeaning('event affiliate: POST /user/setAffiliates');
    const bad = await post(me, '/user/setAffiliates', { code: 'no spaces' });
    assertThat(bad, refused(bad, 'Invalid code parameter'), 'a malformed code');
  });
});

describe('POST /user/setMailNotification, /user/setMailNotificationStatus, /user/setPrivacySetting', () => {
  it('Given changes to some switches, the others keep their values and the answers echo all of them [R-MAIL-SETTINGS]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const first = await post(me, '/user/setMailNotification', { notifications: { itemSold: false, marketing: true } });
    const echoed = content(first).notifications;
    assertThat(
      first,
      echoed.itemSold === false && echoed.marketing === true && Object.keys(echoed).length === 6,
      'the two switches changed, six echoed',
    );
    const second = await post(me, '/user/setMailNotification', { notifications: { tradeCompleted: false } });
    const now = content(second).notifications;
    assertThat(
      second,
      now.tradeCompleted === false && now.itemSold === false && now.marketing === true,
      'earlier changes kept',
    );
    // All six stored values after each change: the keys left out kept, each key its own switch.
    const KINDS = ['tradeCompleted', 'offerReceived', 'buyOrderFilled', 'itemSold', 'depositCompleted', 'marketing'];
    const steps: [Record<string, boolean>, Record<string, boolean>][] = [
      [{}, { ...echoed, tradeCompleted: false }],
      [
        { offerReceived: false, buyOrderFilled: false, depositCompleted: false, marketing: false },
        Object.fromEntries(KINDS.map((k) => [k, false])),
      ],
      [
        { buyOrderFilled: true, itemSold: true },
        { ...Object.fromEntries(KINDS.map((k) => [k, false])), buyOrderFilled: true, itemSold: true },
      ],
    ];
    for (const [change, want] of steps) {
      const answer =
        Object.keys(change).length === 0
          ? second
          : await post(me, '/user/setMailNotification', { notifications: change });
      const got = content(answer).notifications;
      assertThat(
        answer,
        KINDS.every((k) => got[k] === want[k]) && content(answer).message === 'Notification settings updated',
        `every switch as stored: ${JSON.stringify(want)} (got ${JSON.stringify(got)})`,
      );
    }
    pinsMeaning(
      'POST /user/setMailNotification message',
      'POST /user/setMailNotification notifications',
      'POST /user/setMailNotification notifications.tradeCompleted',
      'POST /user/setMailNotification notifications.offerReceived',
      'POST /user/setMailNotification notifications.buyOrderFilled',
      'POST /user/setMailNotification notifications.itemSold',
      'POST /user/setMailNotification notifications.depositCompleted',
      'POST /user/setMailNotification notifications.marketing',
    );
    const unknown = await post(me, '/user/setMailNotification', { notifications: { sms: true } });
    assertThat(unknown, refused(unknown, 'Invalid notifications parameter'), 'an unknown kind is refused');

    const off = await post(me, '/user/setMailNotificationStatus', { enabled: false });
    assertThat(
      off,
      content(off).emailNotifications === false && content(off).message === 'Email notifications disabled',
      'all e-mail off',
    );
    const infos = await get(me, '/user/infos');
    assertThat(infos, content(infos).informations.notification === 0, 'GET /user/infos shows notification 0');
    const on = await post(me, '/user/setMailNotificationStatus', { enabled: true });
    assertThat(
      on,
      content(on).message === 'Email notifications enabled' && content(on).emailNotifications === true,
      'all e-mail on again',
    );
    const back = await get(me, '/user/infos');
    assertThat(back, content(back).informations.notification === 1, 'GET /user/infos shows notification 1 again');
    pinsMeaning(
      'POST /user/setMailNotificationStatus emailNotifications',
      'POST /user/setMailNotificationStatus message',
      'GET /user/infos informations.notification',
    );

    const privacy = await post(me, '/user/setPrivacySetting', { settings: { inventoryPublic: false } });
    const settings = content(privacy).settings;
    assertThat(
      privacy,
      settings.inventoryPublic === false &&
        Object.keys(settings).length === 4 &&
        content(privacy).message === 'Privacy settings updated',
      'one setting changed, four echoed',
    );
    // Each key its own switch, the keys left out kept: all four set, then one, then two others.
    const privacySteps: [Record<string, boolean>, string][] = [
      [
        { profilePublic: true, inventoryPublic: false, tradeHistoryPublic: false, showOnLeaderboard: true },
        'true,false,false,true',
      ],
      [{ showOnLeaderboard: false }, 'true,false,false,false'],
      [{ profilePublic: false, tradeHistoryPublic: true }, 'false,false,true,false'],
    ];
    for (const [change, want] of privacySteps) {
      const answer = await post(me, '/user/setPrivacySetting', { settings: change });
      const got = content(answer).settings;
      const seen = [got.profilePublic, got.inventoryPublic, got.tradeHistoryPublic, got.showOnLeaderboard].join();
      assertThat(
        answer,
        seen === want,
        `after ${JSON.stringify(change)}: profile, inventory, trade history, leaderboard ${want} (got ${seen})`,
      );
    }
    pinsMeaning(
      'POST /user/setPrivacySetting message',
      'POST /user/setPrivacySetting settings',
      'POST /user/setPrivacySetting settings.profilePublic',
      'POST /user/setPrivacySetting settings.inventoryPublic',
      'POST /user/setPrivacySetting settings.tradeHistoryPublic',
      'POST /user/setPrivacySetting settings.showOnLeaderboard',
    );
  });
});

describe('POST /user/setTradeUrl', () => {
  it("Given the caller's account ID as partner, the URL is stored; another account's or a malformed one is refused [R-TRADE-URL, R-MSG-TRADE-URL]", async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const mine = `${PREFIX}${accountId(me.platformId)}&token=AbC123xY`;
    const set = await post(me, '/user/setTradeUrl', { tradeUrl: mine });
    assertThat(
      set,
      set.status === 200 && content(set).tradeUrl === mine && typeof content(set).validated === 'boolean',
      'the URL is stored',
    );
    const infos = await get(me, '/user/infos');
    assertThat(infos, content(infos).informations.tradeurl === mine, 'GET /user/infos shows it');
    assertThat(set, content(set).message === 'Trade URL updated', 'the documented confirmation');
    pinsMeaning('POST /user/setTradeUrl tradeUrl', 'POST /user/setTradeUrl message');
    const theirs = `${PREFIX}${(BigInt(accountId(me.platformId)) + 1n).toString()}&token=AbC123xY`;
    const other = await post(me, '/user/setTradeUrl', { tradeUrl: theirs });
    assertThat(other, refused(other, 'Trade URL belongs to different account'), 'partner of another account');
    const malformed = await post(me, '/user/setTradeUrl', { tradeUrl: `https://elsewhere.example.com/?partner=1` });
    assertThat(malformed, refused(malformed, 'Invalid trade URL format'), 'not the platform prefix');
  });
});

describe('POST /user/updateShortUrl and GET /user/store/{identifier}', () => {
  const shortUrl = operationOf('POST', '/user/updateShortUrl');
  const fewest = boundOf(shortUrl, 'shortUrl', 'minLength');
  const most = boundOf(shortUrl, 'shortUrl', 'maxLength');
  it(
    `Given a short URL, the store answers by it; the rules refuse length (${fewest - 1} and ${most + 1} characters; ${fewest} and ${most} are stored), characters, taken and reserved names [R-SHORT-URL-RULES, R-MSG-SHORT-URL, R-STORE, R-LIMIT-SHORT-URL]`,
    sides(['at the limit', 'past the limit'], 'R-LIMIT-SHORT-URL'),
    async (ctx) => {
      await needsHelpers(ctx);
      const me = await session({ name: 'Short Owner' });
      const them = await session();
      const name = `st-${me.platformId.slice(-8)}`;
      const set = await post(me, '/user/updateShortUrl', { shortUrl: name });
      assertThat(
        set,
        set.status === 200 && content(set).shortUrl === name && String(content(set).fullUrl).endsWith(`/u/${name}`),
        'stored, with its full URL',
      );
      const store = await call('GET', `/user/store/${name}`);
      assertConforms(store);
      assertThat(
        store,
        content(store).platformId === me.platformId && content(store).name === 'Short Owner',
        'the store by its short URL',
      );
      const infos = await get(me, '/user/infos');
      assertThat(
        infos,
        content(infos).informations.shorturl === name && content(set).message === 'Short URL updated',
        "GET /user/infos shows the caller's short URL; the documented confirmation",
      );
      pinsMeaning(
        'POST /user/updateShortUrl shortUrl',
        'POST /user/updateShortUrl fullUrl',
        'POST /user/updateShortUrl message',
        'GET /user/infos informations.shorturl',
        'GET /user/store/{identifier} platformId',
        'GET /user/store/{identifier} name',
      );
      const cases: [string, string][] = [
        ['a'.repeat(fewest - 1), pastBoundMessage(shortUrl, 'shortUrl', 'minLength')],
        ['a'.repeat(most + 1), pastBoundMessage(shortUrl, 'shortUrl', 'maxLength')],
        ['no_underscore', 'Invalid characters'],
        [name.toUpperCase(), 'Short URL already taken'],
        ['admin', 'Short URL is reserved'],
      ];
      for (const [shortUrl, message] of cases) {
        const answer = await post(them, '/user/updateShortUrl', { shortUrl });
        assertThat(answer, refused(answer, message), `${shortUrl}: ${message}`);
      }
      // The bounds themselves are allowed (one user each: once a month), each name the user's own:
      // its platform ID in base 36, its end kept to fit the shortest, padded to fill the longest.
      const named = (who: Me, n: number) =>
        `q${BigInt(who.platformId)
          .toString(36)
          .slice(-(n - 1))}`.padEnd(n, '0');
      for (const n of [fewest, most]) {
        const who = await session();
        const answer = await post(who, '/user/updateShortUrl', { shortUrl: named(who, n) });
        assertThat(
          answer,
          answer.status === 200 && content(answer).shortUrl === named(who, n),
          `${n} characters is within ${fewest} to ${most}: ${named(who, n)} is stored`,
        );
      }
    },
  );

  it("Given two stores, each shows its owner's own avatar, the one GET /user/infos shows them [R-STORE]", async (ctx) => {
    await needsHelpers(ctx);
    const owners = [await session(), await session()];
    const avatars = await avatarsOf(ctx, owners);
    const names = owners.map((o) => `av-${o.platformId.slice(-8)}`);
    for (const [i, o] of owners.entries()) setUpOk(await post(o, '/user/updateShortUrl', { shortUrl: names[i] }));
    for (const [i, o] of owners.entries()) {
      const store = await call('GET', `/user/store/${names[i]}`);
      assertConforms(store);
      assertThat(
        store,
        content(store).image === avatars.get(o.platformId),
        `the store ${names[i]} shows its owner's avatar ${avatars.get(o.platformId)}, not the other owner's`,
      );
    }
    pinsMeaning('GET /user/store/{identifier} image', 'GET /user/infos informations.image');
  });

  it('Given a short URL set today, a change is refused until 30 days later [R-LIMIT-SHORT-URL]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const base = `m-${me.platformId.slice(-8)}`;
    setUpOk(await post(me, '/user/updateShortUrl', { shortUrl: `${base}-a` }));
    await helpers.advance(30 * 86_400 - 60);
    const early = await post(me, '/user/updateShortUrl', { shortUrl: `${base}-b` });
    assertThat(early, refused(early, 'Short URL can only be changed once per month'), 'within 30 days');
    await helpers.advance(60);
    const later = await post(me, '/user/updateShortUrl', { shortUrl: `${base}-b` });
    assertThat(later, later.status === 200, 'after 30 days');
    const old = await call('GET', `/user/store/${base}-a`);
    assertThat(old, refused(old, 'Store not found'), 'the old short URL is free again');
    // My own short URL is not "taken" (another user has it): 30 days on, I may set it in other case.
    await helpers.advance(30 * 86_400);
    const recased = `${base.toUpperCase()}-B`;
    const again = { ...me, token: await login(me.apiKey, me.ip) }; // the first login's JWT has expired
    const mine = await post(again, '/user/updateShortUrl', { shortUrl: recased });
    assertThat(
      mine,
      mine.status === 200 && content(mine).shortUrl === recased,
      `my own ${base}-b, set again as ${recased}, is not taken by another user (got ${mine.status} ${mine.message ?? ''})`,
    );
  });
});
