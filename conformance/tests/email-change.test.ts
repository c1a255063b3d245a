// E-mail change (seed: "E-mail change", "Messages by endpoint", Limits "E-mail change: 1 request
// per 5 minutes; code valid 24 hours"; Authentication, Rules: an API JWT satisfies the 2FA filter).
// The code is read from the e-mail sent to the new address (`data.code` in the outbox). The
// document's design: a new request replaces a pending one; after 5 wrong codes the request answers
// `Too many attempts`; on success the other sessions' JWTs are refused with 403.
import { beforeAll, describe, it } from 'vitest';
import { content, getOk, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { operationOf, statedNumber } from '../src/kit/bounds.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { type Answer, assertThat, call, pinsMeaning } from '../src/kit/http.ts';
import { sides } from '../src/kit/rule.ts';
import { activateTwoFactor } from '../src/kit/two-factor.ts';
import { postAs } from '../src/kit/user-calls.ts';
import { variantOf } from '../src/kit/variants.ts';
import { findOperation } from '../src/oracle/document.ts';

beforeAll(resetIfPossible);

type Me = Awaited<ReturnType<typeof session>>;
const post = postAs;
const refused = (a: Answer, message: string) => a.status === 300 && a.message === message;
const request = (me: Me, email: string) => post(me, '/user/email/change/request', { email });
const validate = (me: Me, code: string | string[]) => post(me, '/user/email/change/validate', { code });

/** The code of the last e-mail sent to `address`. */
async function codeSentTo(address: string): Promise<string> {
  const mails = await helpers.outbox('email', address);
  const code = (mails.at(-1)?.data as Record<string, unknown> | undefined)?.code;
  if (typeof code !== 'string') throw new Error(`no code was e-mailed to ${address}: ${JSON.stringify(mails)}`);
  return code;
}
/** A wrong code of the same length as `code`. */
const wrong = (code: string) => code.replace(/./g, (d, i) => (i === 0 ? String((Number(d) + 1) % 10) : d));

describe('POST /user/email/change/request and /validate', () => {
  it('Given a request, the code e-mailed to the new address changes the account e-mail and ends the other sessions [R-EMAIL-CHANGE, R-MSG-EMAIL-CHANGE-VALIDATE]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session({ email: 'before@example.com' });
    const other = await call('POST', '/user/login', { json: { apiKey: me.apiKey }, ip: me.ip });
    const otherToken = content(other).jwt as string;
    const created = await request(me, 'after@example.com');
    assertThat(
      created,
      created.status === 200 && content(created) === 'Email change request created successfully',
      'the request is created',
    );
    // The code goes to the new address (read from its mails only), not the account's old one.
    const code = await codeSentTo('after@example.com');
    pinsMeaning('event email: POST /user/email/change/request (the code to the new address)');
    const done = await validate(me, code.split(''));
    assertThat(
      done,
      done.status === 200 && content(done) === 'Email change validation success',
      'the code, as an array of characters, validates',
    );
    const mail = await getOk('/user/getContactMail', {}, me.token, me.ip);
    assertThat(mail, content(mail).address === 'after@example.com', 'the account e-mail is the new address');
    const stale = await call('GET', '/user/balance', { token: otherToken, ip: me.ip });
    assertThat(stale, stale.status === 403, "the other session's JWT is refused");
    const again = await validate(me, code);
    assertThat(again, refused(again, 'Request not found'), 'the request is used up');
  });

  /** The request's own limit (`x-rate-limit`): how many requests per how many seconds. */
  const LIMIT: { limit: number; window: number } = findOperation('POST', '/user/email/change/request')?.op[
    'x-rate-limit'
  ];
  it(
    `Given requests, the limit of ${LIMIT.limit} per ${LIMIT.window} seconds (one more refused within them, served at their end), the format and addresses in use are refused [R-MSG-EMAIL-CHANGE-REQUEST, R-LIMIT-EMAIL-CHANGE]`,
    sides(['at the limit', 'past the limit'], 'R-LIMIT-EMAIL-CHANGE'),
    async (ctx) => {
      await needsHelpers(ctx);
      await session({ email: 'taken@example.com' });
      const me = await session({ email: 'mine@example.com' });
      const taken = await request(me, 'taken@example.com');
      assertThat(taken, refused(taken, 'Email already in use'), "another account's address");
      const own = await request(me, 'mine@example.com');
      assertThat(own, refused(own, 'Email already in use'), 'the own address');
      const format = await request(me, 'not-an-address');
      assertThat(format, refused(format, 'Invalid email format'), 'not an address');
      // The last of the limit's requests asks for first@example.com, whose code is replaced below.
      for (let n = LIMIT.limit; n >= 1; n -= 1) {
        const first = await request(me, n === 1 ? 'first@example.com' : `first-${n}@example.com`);
        assertThat(first, first.status === 200, `request ${LIMIT.limit - n + 1} of ${LIMIT.limit} in the window`);
      }
      // Margins of 10 s: the test clock keeps following real time between requests.
      await helpers.advance(LIMIT.window - 10);
      const soon = await request(me, 'second@example.com');
      assertThat(soon, refused(soon, 'Too many requests'), `one more request within ${LIMIT.window} seconds`);
      await helpers.advance(10);
      const later = await request(me, 'second@example.com');
      assertThat(later, later.status === 200, `a request ${LIMIT.window} seconds later`);
      const oldCode = await codeSentTo('first@example.com');
      const newCode = await codeSentTo('second@example.com');
      if (oldCode !== newCode) {
        const replaced = await validate(me, oldCode);
        assertThat(
          replaced,
          refused(replaced, 'Invalid or expired code'),
          'the replaced request’s code no longer works',
        );
      }
      const ok = await validate(me, newCode);
      assertThat(ok, ok.status === 200, 'the new request’s code works');
      if (oldCode !== newCode) {
        // Replaced, the first request is not pending again once the second is used up.
        const stale = await validate(me, oldCode);
        assertThat(stale, stale.status === 300, 'the replaced request’s code, after the new one was used');
      }
    },
  );

  it('Given a pending request, a code older than 24 hours is expired [R-LIMIT-EMAIL-CHANGE, R-MSG-EMAIL-CHANGE-VALIDATE]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session({ email: 'slow@example.com' });
    await request(me, 'slow-new@example.com');
    const code = await codeSentTo('slow-new@example.com');
    await helpers.advance(24 * 3600 + 1);
    const late = await validate(me, code);
    assertThat(late, refused(late, 'Invalid or expired code'), 'after 24 hours');
    const none = await validate((await session()) as Me, code);
    assertThat(none, refused(none, 'Request not found'), 'a user without a request');
  });

  /** How many wrong codes end a request: its `Too many attempts` condition ("5 wrong codes were sent …"). */
  const ATTEMPTS = statedNumber(
    operationOf('POST', '/user/email/change/validate'),
    'Too many attempts',
    /(\d+) wrong codes/,
  );
  it(
    `Given ${ATTEMPTS - 1} wrong codes, the right one still changes the address; given ${ATTEMPTS}, the request answers Too many attempts even to the right code [R-MSG-EMAIL-CHANGE-VALIDATE]`,
    sides(['at the limit', 'past the limit'], 'R-MSG-EMAIL-CHANGE-VALIDATE'),
    async (ctx) => {
      await needsHelpers(ctx);
      /** A fresh request of `me` answered `wrongs` times with a wrong code, and its right code. */
      const guessed = async (me: Me, address: string, wrongs: number) => {
        await request(me, address);
        const code = await codeSentTo(address);
        for (let i = 1; i <= wrongs; i += 1) {
          const miss = await validate(me, wrong(code));
          assertThat(miss, refused(miss, 'Invalid or expired code'), `wrong code ${i}`);
        }
        return code;
      };
      const lucky = await session({ email: 'lucky@example.com' });
      const luckyCode = await guessed(lucky, 'lucky-new@example.com', ATTEMPTS - 1);
      const served = await validate(lucky, luckyCode);
      assertThat(
        served,
        served.status === 200,
        `attempt ${ATTEMPTS}, the right code after ${ATTEMPTS - 1} wrong ones, is served`,
      );
      const changed = await getOk('/user/getContactMail', {}, lucky.token, lucky.ip);
      assertThat(changed, content(changed).address === 'lucky-new@example.com', 'the e-mail is changed');
      const me = await session({ email: 'guess@example.com' });
      const code = await guessed(me, 'guess-new@example.com', ATTEMPTS);
      const blocked = await validate(me, code);
      assertThat(blocked, refused(blocked, 'Too many attempts'), `try ${ATTEMPTS + 1}, although right`);
      const mail = await getOk('/user/getContactMail', {}, me.token, me.ip);
      assertThat(mail, content(mail).address === 'guess@example.com', 'the e-mail is unchanged');
    },
  );

  it("Given a 2FA reset asked, an e-mail change request is served at once, its code changes the address, and the reset's code still removes 2FA [R-EMAIL-CHANGE, R-LIMIT-EMAIL-CHANGE, R-2FA-RESET]", async (ctx) => {
    await needsHelpers(ctx);
    const me = await session({ email: 'both@example.com' });
    await activateTwoFactor(me, 'both-backup@example.com');
    const ask = await post(me, '/user/reset2FA/ask', {});
    assertThat(ask, ask.status === 200, 'the 2FA reset is asked');
    const resetCode = await codeSentTo('both-backup@example.com');
    // A 2FA reset request is no e-mail change request: the limit of 1 per 5 minutes does not count it.
    const change = await request(me, 'both-new@example.com');
    assertThat(change, change.status === 200, 'an e-mail change request right after a 2FA reset request');
    const changed = await validate(me, await codeSentTo('both-new@example.com'));
    assertThat(
      changed,
      changed.status === 200 && content(changed) === 'Email change validation success',
      "the e-mail change's own code",
    );
    // Each request keeps its own code: the e-mail change replaced no 2FA reset request.
    const requestId = variantOf(ask) === 'first' ? undefined : content(ask).requestId;
    const reset = await post(me, '/user/reset2FA/validate', { code: resetCode, requestId });
    assertThat(reset, reset.status === 200, "the 2FA reset's code, asked before the e-mail change, removes 2FA");
  });

  it('Given an account whose address has capitals, a request for that very address is refused Email already in use [R-MSG-EMAIL-CHANGE-REQUEST]', async (ctx) => {
    await needsHelpers(ctx);
    await session({ email: 'Mixed.Case@Example.com' });
    const me = await session({ email: 'plain@example.com' });
    // The same characters as the other account's address: in use under any reading of case.
    const taken = await request(me, 'Mixed.Case@Example.com');
    assertThat(taken, refused(taken, 'Email already in use'), "another account's address, written as it is");
  });

  it(`Given requests ${LIMIT.window} seconds apart, one more at once is refused: the window counts from the newest request [R-LIMIT-EMAIL-CHANGE, R-MSG-EMAIL-CHANGE-REQUEST]`, async (ctx) => {
    await needsHelpers(ctx);
    const me = await session({ email: 'steady@example.com' });
    for (let n = 1; n <= 3; n += 1) {
      const asked = await request(me, `steady-${n}@example.com`);
      assertThat(asked, asked.status === 200, `request ${n}, ${LIMIT.window} seconds after the one before`);
      if (n < 3) await helpers.advance(LIMIT.window);
    }
    const soon = await request(me, 'steady-4@example.com');
    assertThat(soon, refused(soon, 'Too many requests'), 'one more right after the third');
  });
});
