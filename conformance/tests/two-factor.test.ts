// Two-factor authentication (seed: "Two-factor authentication", "Messages by endpoint", Limits
// "2FA reset: link valid 24 hours (second variant)"). The reference variant is the second
// (envelope A); the checks read the payload of either envelope, and follow the variant each answer
// shows (variants.ts): a check of the second variant's own rules skips on a first-variant target.
// TOTP codes are computed by the suite (src/kit/two-factor.ts), an independent check of the server's TOTP.
import { beforeAll, describe, it } from 'vitest';
import { content, getOk, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { boundOf, operationOf, pastBoundMessage, statedNumber } from '../src/kit/bounds.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, call, pinsMeaning } from '../src/kit/http.ts';
import { sides } from '../src/kit/rule.ts';
import { activateTwoFactor as activate, clockADayAhead, totp } from '../src/kit/two-factor.ts';
import { needsVariant, variantOf } from '../src/kit/variants.ts';

beforeAll(resetIfPossible);

type Me = Awaited<ReturnType<typeof session>>;
const post = async (me: Me, path: string, json?: object) => {
  const answer = await call('POST', path, { json: json ?? {}, token: me.token, ip: me.ip });
  assertConforms(answer);
  return answer;
};
const refused = (a: Answer, message: string) => a.status === 300 && a.message === message;

/** The code of the last e-mail sent to `address`. */
async function lastCode(address: string): Promise<string> {
  const mail = (await helpers.outbox('email', address)).at(-1);
  return String((mail?.data as Record<string, unknown> | undefined)?.code);
}

const twoFa = async (me: Me) => content(await getOk('/user/infos', {}, me.token, me.ip)).informations['2fa'];

describe('GET /user/2FA/create and POST /user/2FA/validate', () => {
  it('Given a created secret, the current TOTP code activates 2FA and GET /user/infos shows it [R-2FA, R-MSG-2FA-VALIDATE, R-AUTH-2FA]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const created = await getOk('/user/2FA/create', {}, me.token, me.ip);
    const { base32, key, qrCode } = content(created);
    assertThat(
      created,
      /^[A-Z2-7]+=*$/.test(base32) && typeof key === 'string' && typeof qrCode === 'string',
      'a base32 secret, a key and a QR code URL',
    );
    // TOTP (RFC 6238) keys are HOTP's, which "MUST be at least 128 bits" (RFC 4226, R6): 26 base32 characters.
    assertThat(created, base32.replace(/=+$/, '').length * 5 >= 128, `a secret of at least 128 bits (${base32})`);
    // A key is bytes, and base32 (RFC 4648) writes whole bytes: 8 characters per 5 bytes, the last
    // group 2, 4, 5 or 7 characters (then padded to 8, if padded). Another length is no key's base32.
    const bare = base32.replace(/=+$/, '');
    assertThat(
      created,
      [0, 2, 4, 5, 7].includes(bare.length % 8) && (bare === base32 || base32.length % 8 === 0),
      `the base32 of whole bytes (${base32.length} characters: ${base32})`,
    );
    // The seed: "qrCode: string URL of QR image"; any scheme (an https link, a data: image) is a URL.
    assertThat(created, URL.canParse(qrCode), `qrCode is a URL (${JSON.stringify(qrCode)})`);
    assertThat(created, (await twoFa(me)) === 'false', 'not active before validation');
    const now = await helpers.now();
    const badCode = await post(me, '/user/2FA/validate', {
      secret: key,
      code: totp(base32, now + 300),
      email: 'backup@example.com',
    });
    assertThat(badCode, refused(badCode, 'Invalid code'), 'a code of another time window');
    const badKey = await post(me, '/user/2FA/validate', {
      secret: `${key}x`,
      code: totp(base32, now),
      email: 'backup@example.com',
    });
    assertThat(
      badKey,
      variantOf(badKey) === 'second' ? refused(badKey, '2FA not set up') : badKey.status === 300,
      'not the key create gave (2FA not set up in the second variant)',
    );
    const badEmail = await post(me, '/user/2FA/validate', { secret: key, code: totp(base32, now), email: 'nope' });
    assertThat(badEmail, refused(badEmail, 'Invalid email'), 'the backup address is checked');
    const missing = await post(me, '/user/2FA/validate', { secret: key, code: totp(base32, now) });
    assertThat(missing, refused(missing, 'Missing post parameters'), 'all three fields are required');
    const ok = await post(me, '/user/2FA/validate', {
      secret: key,
      code: totp(base32, now),
      email: 'backup@example.com',
    });
    assertThat(ok, ok.status === 200 && content(ok) === '2FA activated', 'the current code activates');
    assertThat(ok, (await twoFa(me)) === 'true', 'GET /user/infos shows 2fa true');
    // The codes of base32's TOTP, sent with key as the secret, activate; another window or key does not.
    pinsMeaning('GET /user/2FA/create base32', 'GET /user/2FA/create key');
  });

  it("Given the test clock a day ahead of real time, the code of the clock's time activates 2FA and the code of real time is refused [R-2FA, R-MSG-2FA-VALIDATE]", async (ctx) => {
    await needsHelpers(ctx);
    // Every time-based rule reads the test clock (shared/test-helpers.md, "Clock"), the TOTP check
    // too: the code is the one of the target's time, not of the machine's. A day apart, the two
    // times are 2,880 steps apart, beyond any drift a server allows.
    const at = await clockADayAhead();
    const me = await session();
    const { base32, key } = content(await getOk('/user/2FA/create', {}, me.token, me.ip));
    const clockCode = totp(base32, at);
    const realCode = totp(base32, Math.floor(Date.now() / 1000));
    // Two codes of different steps agree one time in a million: then the refusal tells nothing.
    if (realCode !== clockCode) {
      const real = await post(me, '/user/2FA/validate', { secret: key, code: realCode, email: 'clock@example.com' });
      assertThat(real, refused(real, 'Invalid code'), `the code of real time, a day before the clock (${realCode})`);
    }
    const ok = await post(me, '/user/2FA/validate', { secret: key, code: clockCode, email: 'clock@example.com' });
    assertThat(
      ok,
      ok.status === 200 && content(ok) === '2FA activated',
      `the code of the test clock's time ${at} (${clockCode}) activates`,
    );
  });

  it("Given two users who each created a secret, each activates 2FA with their own key and code: one user's create does not replace another's [R-2FA, R-MSG-2FA-VALIDATE]", async (ctx) => {
    await needsHelpers(ctx);
    // At the start of a 30-second step: both codes stay current while the test runs.
    const at = await clockADayAhead();
    const first = await session();
    const second = await session();
    const mine = content(await getOk('/user/2FA/create', {}, first.token, first.ip));
    const theirs = content(await getOk('/user/2FA/create', {}, second.token, second.ip));
    for (const [who, secret, backup] of [
      [first, mine, 'first-backup@example.com'],
      [second, theirs, 'second-backup@example.com'],
    ] as const) {
      const answer = await post(who, '/user/2FA/validate', {
        secret: secret.key,
        code: totp(secret.base32, at),
        email: backup,
      });
      assertThat(
        answer,
        answer.status === 200 && content(answer) === '2FA activated',
        `${backup.split('-')[0]} user's own key and code activate, the other's create in between`,
      );
      assertThat(
        answer,
        (await twoFa(who)) === 'true',
        `GET /user/infos shows 2fa true for the ${backup.split('-')[0]} user`,
      );
    }
  });

  it('Given no secret was created, validate answers 2FA not set up [R-MSG-2FA-VALIDATE]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const answer = await post(me, '/user/2FA/validate', { secret: 'abc', code: '123456', email: 'b@example.com' });
    needsVariant(answer, 'second'); // the first variant documents no message for it
    assertThat(answer, refused(answer, '2FA not set up'), 'nothing to validate');
  });
});

describe('POST /user/reset2FA/ask and /validate', () => {
  it('Given active 2FA, the code mailed to the backup address removes it [R-2FA-RESET, R-MSG-2FA-RESET-VALIDATE]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session({ email: 'main@example.com' });
    await activate(me, 'reset-backup@example.com');
    // The test clock follows real time between requests: the request happened between two reads.
    const before = await helpers.now();
    const ask = await post(me, '/user/reset2FA/ask', { reason: 'Lost my phone.' });
    const asked = content(ask);
    const after = await helpers.now();
    const code = await lastCode('reset-backup@example.com');
    assertThat(ask, /^[0-9]+$/.test(code), 'a code went to the backup address');
    if (variantOf(ask) === 'first') {
      assertThat(ask, ask.status === 200 && asked === 'Reset code sent to email', 'Reset code sent to email');
      const removed = await post(me, '/user/reset2FA/validate', { code });
      assertThat(removed, removed.status === 200 && content(removed) === '2FA has been removed', '2FA is removed');
    } else {
      const expires = Number(asked.expiresAt);
      assertThat(
        ask,
        asked.emailSent === true &&
          asked.message === 'Reset code sent to email' &&
          expires >= before + 86_400 &&
          expires <= after + 86_400,
        'the reset is valid 24 hours',
      );
      const noId = await post(me, '/user/reset2FA/validate', { code });
      assertThat(noId, refused(noId, 'Request not found'), 'the second variant needs requestId');
      const removed = await post(me, '/user/reset2FA/validate', { code, requestId: asked.requestId });
      assertThat(
        removed,
        removed.status === 200 &&
          content(removed).twoFactorEnabled === false &&
          content(removed).message === '2FA has been removed',
        '2FA is removed',
      );
      // The requestId of the ask is the one validate needs; the reset expires 24 h after it.
      pinsMeaning(
        'POST /user/reset2FA/ask requestId',
        'POST /user/reset2FA/ask emailSent',
        'POST /user/reset2FA/ask expiresAt',
        'POST /user/reset2FA/ask message',
        'POST /user/reset2FA/validate message',
        'POST /user/reset2FA/validate twoFactorEnabled',
      );
    }
    assertThat(ask, (await twoFa(me)) === 'false', 'GET /user/infos shows 2fa false');
    const notActive = await post(me, '/user/reset2FA/ask');
    assertThat(notActive, refused(notActive, '2FA is not activated'), 'nothing left to reset');
  });

  // The reason's bound is the document's own (the seed shows none), read from its schema with the
  // message it lists: a reason of that length sends the code, one character more sends nothing.
  const askOp = operationOf('POST', '/user/reset2FA/ask');
  const REASON = boundOf(askOp, 'reason', 'maxLength');
  it(
    `Given active 2FA, a reset asked with a reason of ${REASON + 1} characters is refused with the document's message and mails no code; with ${REASON} characters a code goes to the backup address [R-LIMIT-2FA-RESET-REASON]`,
    sides(['at the limit', 'past the limit'], 'R-LIMIT-2FA-RESET-REASON'),
    async (ctx) => {
      await needsHelpers(ctx);
      const me = await session();
      const backup = `reason-${me.platformId}@example.com`;
      await activate(me, backup);
      const mailed = (await helpers.outbox('email', backup)).length;
      const past = await post(me, '/user/reset2FA/ask', { reason: 'r'.repeat(REASON + 1) });
      const message = pastBoundMessage(askOp, 'reason', 'maxLength');
      assertThat(past, refused(past, message), `a reason of ${REASON + 1} characters: ${message}`);
      assertThat(
        past,
        (await helpers.outbox('email', backup)).length === mailed,
        'the refused ask mails no code to the backup address',
      );
      const at = await post(me, '/user/reset2FA/ask', { reason: 'r'.repeat(REASON) });
      assertThat(at, at.status === 200, `a reason of ${REASON} characters is served`);
      const sent = (await helpers.outbox('email', backup)).slice(mailed);
      assertThat(
        at,
        sent.some((m) => /^[0-9]+$/.test(String((m.data as Record<string, unknown> | undefined)?.code))),
        `and a code goes to the backup address (got ${sent.length} new e-mails)`,
      );
    },
  );

  /** How many wrong codes end a reset request: its `Too many attempts` condition ("5 wrong codes were sent …"). */
  const ATTEMPTS = statedNumber(
    operationOf('POST', '/user/reset2FA/validate'),
    'Too many attempts',
    /(\d+) wrong codes/,
  );
  it(
    `Given ${ATTEMPTS} wrong reset codes, the request answers Too many attempts; after ${ATTEMPTS - 1}, the right code still resets; an expired one is refused [R-MSG-2FA-RESET-VALIDATE, R-LIMIT-2FA-RESET]`,
    sides(['at the limit', 'past the limit'], 'R-MSG-2FA-RESET-VALIDATE'),
    async (ctx) => {
      await needsHelpers(ctx);
      const me = await session();
      await activate(me, 'guess-backup@example.com');
      const ask = await post(me, '/user/reset2FA/ask');
      needsVariant(ask, 'second'); // the attempt limit and the 24-hour expiry are the second variant's
      const asked = content(ask);
      const code = await lastCode('guess-backup@example.com');
      /** `wrongs` wrong codes sent to the reset request `requestId` of `who`. */
      const miss = async (who: Me, requestId: number, right: string, wrongs: number) => {
        for (let i = 1; i <= wrongs; i += 1) {
          const answer = await post(who, '/user/reset2FA/validate', {
            code: right === '000000' ? '111111' : '000000',
            requestId,
          });
          assertThat(answer, refused(answer, 'Invalid or expired code'), `wrong code ${i}`);
        }
      };
      await miss(me, asked.requestId, code, ATTEMPTS);
      const blocked = await post(me, '/user/reset2FA/validate', { code, requestId: asked.requestId });
      assertThat(blocked, refused(blocked, 'Too many attempts'), `try ${ATTEMPTS + 1}, although right`);
      assertThat(blocked, (await twoFa(me)) === 'true', '2FA is still active');

      const again = content(await post(me, '/user/reset2FA/ask'));
      const fresh = await lastCode('guess-backup@example.com');
      await helpers.advance(86_400 + 1);
      const late = await post(me, '/user/reset2FA/validate', { code: fresh, requestId: again.requestId });
      assertThat(late, refused(late, 'Invalid or expired code'), 'after 24 hours');
      // The side at the limit: one wrong code fewer, and the right code is still the one that resets.
      const lucky = await session();
      await activate(lucky, 'lucky-backup@example.com');
      const luckyAsk = content(await post(lucky, '/user/reset2FA/ask'));
      const luckyCode = await lastCode('lucky-backup@example.com');
      await miss(lucky, luckyAsk.requestId, luckyCode, ATTEMPTS - 1);
      const served = await post(lucky, '/user/reset2FA/validate', { code: luckyCode, requestId: luckyAsk.requestId });
      assertThat(
        served,
        served.status === 200 && (await twoFa(lucky)) === 'false',
        `try ${ATTEMPTS}, the right code after ${ATTEMPTS - 1} wrong ones, resets 2FA`,
      );
    },
  );

  it("Given another user's reset request and its code, validate answers Request not found and removes nobody's 2FA; its owner then redeems it [R-2FA-RESET, R-MSG-2FA-RESET-VALIDATE]", async (ctx) => {
    await needsHelpers(ctx);
    // The document: `Request not found` when "no pending reset request of the caller has it".
    const [owner, other] = [await session(), await session()];
    await activate(owner, `owner-${owner.platformId}@example.com`);
    await activate(other, `other-${other.platformId}@example.com`);
    const ask = await post(owner, '/user/reset2FA/ask');
    needsVariant(ask, 'second'); // requestId is the second variant's
    const { requestId } = content(ask);
    const code = await lastCode(`owner-${owner.platformId}@example.com`);
    const stranger = await post(other, '/user/reset2FA/validate', { code, requestId });
    assertThat(stranger, refused(stranger, 'Request not found'), "another user's request, with its right code");
    assertThat(stranger, (await twoFa(other)) === 'true', "the caller's 2FA stays active");
    const own = await post(owner, '/user/reset2FA/validate', { code, requestId });
    assertThat(own, own.status === 200 && content(own).twoFactorEnabled === false, 'its owner still redeems it');
  });

  it('Given 2FA set by the account without a backup address, ask answers No 2FA email found [R-MSG-2FA-RESET-ASK]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session({ twoFactor: true });
    const answer = await post(me, '/user/reset2FA/ask');
    assertThat(answer, refused(answer, 'No 2FA email found for this user'), 'no backup address');
  });
});
