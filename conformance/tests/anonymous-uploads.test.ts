// Bodies arriving at once from callers without a JWT (openapi.yaml, "Rate limits", this document's
// limit): with as many bodies from one IP still arriving as the limit, a further one is answered 429
// (`Retry-After: 1`) and not carried out (a good login opens no session), another IP is served, and
// once one of them has arrived the IP is served again. The bodies are held on connections of their
// own: the request head and the first bytes of the body sent, the rest when the test says.
import { type ClientRequest, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { beforeAll, describe, it } from 'vitest';
import { content, getOk, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, call } from '../src/kit/http.ts';
import { sides } from '../src/kit/rule.ts';
import { settings } from '../src/kit/settings.ts';
import { skip } from '../src/kit/skip.ts';
import { document } from '../src/oracle/document.ts';
import { targetUrl } from '../src/oracle/target-url.ts';

beforeAll(resetIfPossible);

/** "Callers without a JWT may have at most 32 bodies arriving at once per IP" (the document's number). */
const LIMIT = Number(/at most (\d+) bodies arriving at once per IP/.exec(document.info?.description ?? '')?.[1]);

/** A held body: malformed JSON once complete (`Invalid request body`), so finishing it changes nothing. */
const HELD_BODY = `{"held":${' '.repeat(56)}`;
const FIRST_BYTES = 8;

interface Held {
  /** Sends the rest of the body; resolves once the target has answered (the body has arrived). */
  finish(): Promise<void>;
  close(): void;
}

/** A login body from `ip` without a JWT, its head and first bytes sent, the rest held back. */
function holdBody(ip: string): Held {
  const url = targetUrl(settings.target, '/user/login');
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const req: ClientRequest = send(url, {
    method: 'POST',
    agent: false,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(HELD_BODY)),
      'x-forwarded-for': ip,
    },
  });
  const answered = new Promise<void>((done) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', done);
    });
    // A connection closed by either side ends the wait; closing it is how the test lets go.
    req.on('error', () => done());
    req.on('close', () => done());
  });
  req.write(HELD_BODY.slice(0, FIRST_BYTES));
  return {
    finish: () => {
      req.end(HELD_BODY.slice(FIRST_BYTES));
      return answered;
    },
    close: () => req.destroy(),
  };
}

/**
 * Nothing tells when the target has counted a held body: a body that changes nothing (malformed,
 * 300) is sent until one is refused, which says the IP holds its limit (or 10 s have passed).
 */
async function untilRefused(ip: string): Promise<Answer> {
  let full = await call('POST', '/user/login', { raw: { contentType: 'application/json', body: '{' }, ip });
  for (let i = 1; i < 100 && full.status !== 429; i++) {
    await new Promise((r) => setTimeout(r, 100));
    full = await call('POST', '/user/login', { raw: { contentType: 'application/json', body: '{' }, ip });
  }
  return full;
}

const login = (apiKey: string, ip: string) => call('POST', '/user/login', { json: { apiKey }, ip });

/** The number of sessions of the user logged in as `me` (GET /user/ipList). */
const sessions = async (me: { token: string; ip: string }) =>
  content(await getOk('/user/ipList', {}, me.token, me.ip)).count as number;

describe('bodies arriving at once from callers without a JWT', () => {
  it(
    `Given as many login bodies from one IP without a JWT still arriving as the limit (${LIMIT}), then a good login from it is answered 429 with Retry-After: 1 and opens no session, another IP logs in meanwhile; once one of the bodies has arrived, a good login from the IP, the ${LIMIT}th body at once, is served and opens a session, and one more held body fills the IP again [R-LIMIT-ANONYMOUS-UPLOADS]`,
    sides(['at the limit', 'past the limit'], 'R-LIMIT-ANONYMOUS-UPLOADS'),
    async (ctx) => {
      await needsHelpers(ctx);
      if (!Number.isSafeInteger(LIMIT)) return skip(ctx, 'the document states no limit of bodies arriving at once');
      const user = await helpers.user();
      const first = await login(user.apiKey, '198.18.7.1');
      assertThat(first, first.status === 200, 'the user logs in from another IP');
      const me = { token: content(first).jwt as string, ip: '198.18.7.1' };
      const before = await sessions(me);
      const ip = '203.0.113.70';
      const held = Array.from({ length: LIMIT }, () => holdBody(ip));
      try {
        const full = await untilRefused(ip);
        assertThat(full, full.status === 429, `with ${LIMIT} bodies from the IP still arriving, a further body is 429`);
        const limited = await login(user.apiKey, ip);
        assertConforms(limited);
        assertThat(
          limited,
          limited.status === 429 && limited.headers['retry-after'] === '1',
          `with ${LIMIT} bodies from the IP still arriving, a good login from it is 429 with Retry-After: 1`,
        );
        const after = await sessions(me);
        assertThat(
          limited,
          after === before,
          `a login answered 429 opens no session (${before} before it, ${after} after)`,
        );
        const other = await helpers.user();
        const elsewhere = await login(other.apiKey, '203.0.113.71');
        assertThat(elsewhere, elsewhere.status === 200, 'another IP logs in meanwhile: the limit is per IP');
        // The side at the limit: the other held bodies were all counted (the IP was full) and stay open,
        // so once one has arrived (answered), a login is the LIMIT-th body arriving at once.
        await held.pop()!.finish();
        const again = await login(user.apiKey, ip);
        assertThat(
          again,
          again.status === 200,
          `with ${LIMIT - 1} bodies from the IP still arriving, a good login from it (the ${LIMIT}th body) is served`,
        );
        const opened = await sessions(me);
        assertThat(again, opened === after + 1, `the login served at the limit opens a session (${after} before it)`);
        // Those bodies still count: one more held fills the IP again, and a further body is refused.
        held.push(holdBody(ip));
        const refilled = await untilRefused(ip);
        assertThat(
          refilled,
          refilled.status === 429,
          `with ${LIMIT} bodies from the IP arriving again, a further body is 429`,
        );
      } finally {
        for (const h of held) h.close();
      }
    },
  );
});
