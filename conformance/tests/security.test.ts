// Security: every Connected route refuses a missing, tampered, expired and other-IP token; admin
// routes refuse non-admins; a disconnected session's token stops working; one user cannot read or
// change another user's sessions or buy orders.
import { beforeAll, describe, it } from 'vitest';
import { needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { assertThat, call } from '../src/kit/http.ts';
import { buildRequest } from '../src/kit/requests.ts';
import { isConnected, type Operation, operations } from '../src/oracle/document.ts';

beforeAll(resetIfPossible);

const connected = operations.filter(isConnected);
const refused = (a: { status: number; body: unknown }) =>
  a.status === 403 && (a.body as { content?: unknown })?.content === 'forbidden';

/** Calls an operation with its documented request, as `token` from `ip`. */
function callDocumented(o: Operation, token: string | undefined, ip: string) {
  const built = buildRequest(o);
  return call(o.method, built.path, { query: built.query, json: built.json, token, ip });
}

/** The token of a logged-in user, with a signature character flipped. */
const tamper = (token: string) => `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.slice(-1)}`;

describe('security: Connected routes', () => {
  it.for(connected)(
    '$name refuses a missing, tampered and other-IP token with 403 forbidden [R-AUTH-PERMISSIONS, R-AUTH-IP, R-ERR-403]',
    async (o, ctx) => {
      await needsHelpers(ctx);
      const me = await session({}, '203.0.113.1');
      for (const [what, token, ip] of [
        ['no token', undefined, me.ip],
        ['a tampered token', tamper(me.token), me.ip],
        ['a token from another IP', me.token, '203.0.113.2'],
      ] as const) {
        const answer = await callDocumented(o, token, ip);
        assertThat(answer, refused(answer), `given ${what}, the route must answer 403 forbidden`);
      }
    },
  );

  // The seed names one way to present the JWT, `Authorization: Bearer <JWT>`; under any other
  // scheme name no bearer token is sent, which is a missing JWT (403 forbidden). `XBearer` ends in
  // the right word, so a check that looks for "Bearer" anywhere in the header is told apart.
  it('Given a live token sent under another scheme name, then a Connected route answers 403 forbidden, and under Bearer it is served [R-AUTH-PERMISSIONS, R-AUTH-LOGIN, R-ERR-403]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session({}, '203.0.113.10');
    for (const scheme of ['XBearer', 'Token']) {
      const answer = await call('GET', '/user/ipList', {
        headers: { authorization: `${scheme} ${me.token}` },
        ip: me.ip,
      });
      assertThat(answer, refused(answer), `a JWT under the scheme ${scheme} is no bearer token: 403 forbidden`);
    }
    const served = await call('GET', '/user/ipList', { token: me.token, ip: me.ip });
    assertThat(served, served.status === 200, 'the same token under Bearer must be served');
  });

  it('refuses an expired token on every Connected route [R-AUTH-EXPIRY, R-LIMIT-TOKEN-LIFETIME]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session({}, '203.0.113.3');
    await helpers.advance(32 * 24 * 3600);
    for (const o of connected) {
      const answer = await callDocumented(o, me.token, me.ip);
      assertThat(answer, refused(answer), `${o.name}: a token past its expiry must answer 403 forbidden`);
    }
  });

  it.for(operations.filter((o) => o.permission === 'admin'))(
    '$name refuses a non-admin with 403 forbidden [R-AUTH-ADMIN, R-AUTH-PERMISSIONS]',
    async (o, ctx) => {
      await needsHelpers(ctx);
      const me = await session({}, '203.0.113.4');
      const answer = await callDocumented(o, me.token, me.ip);
      assertThat(answer, refused(answer), 'an admin route must refuse a non-admin');
    },
  );
});

describe('security: sessions and isolation', () => {
  it('Given a disconnected session, when its token is used, then it is refused [R-DISCONNECT]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session({}, '203.0.113.5');
    const out = await call('GET', '/user/disconnect', { token: me.token, ip: me.ip });
    assertThat(out, out.status === 200, 'disconnect must succeed');
    const after = await call('GET', '/user/ipList', { token: me.token, ip: me.ip });
    assertThat(after, refused(after), 'the disconnected token must be refused');
  });

  it("Given another user's session, when I disconnect it, then it is not found and keeps working [R-DISCONNECT]", async (ctx) => {
    await needsHelpers(ctx);
    const me = await session({}, '203.0.113.6');
    const other = await session({}, '203.0.113.7');
    const list = await call('GET', '/user/ipList', { token: other.token, ip: other.ip });
    const id = (list.body as { content: { values: { id: number }[] } }).content.values[0]!.id;
    const attempt = await call('GET', `/user/disconnectSession/${id}`, { token: me.token, ip: me.ip });
    assertThat(attempt, attempt.status === 300, "disconnecting another user's session must fail");
    const still = await call('GET', '/user/ipList', { token: other.token, ip: other.ip });
    assertThat(still, still.status === 200, "the other user's token must keep working");
  });

  it("Given another user's buy order, when I read or remove mine on that item, then theirs is untouched [R-BUYORDER-UNIQUE]", async (ctx) => {
    await needsHelpers(ctx);
    const item = await helpers.item({ name: 'Isolation Key', game: 440 });
    const me = await session({ balance: 1000 }, '203.0.113.8');
    const other = await session({ balance: 1000 }, '203.0.113.9');
    await helpers.buyOrder({ owner: other.platformId, itemId: item.id, price: 100, amount: 2 });
    const read = await call('GET', `/user/buyorder/${item.id}`, { token: me.token, ip: me.ip });
    assertThat(read, read.status === 300, "reading an item I have no order on must not show another user's order");
    const remove = await call('POST', '/item/buyorder/remove', {
      json: { itemid: item.id },
      token: me.token,
      ip: me.ip,
    });
    assertThat(remove, remove.status === 300, "removing must not touch another user's order");
    const theirs = await call('GET', `/user/buyorder/${item.id}`, { token: other.token, ip: other.ip });
    assertThat(theirs, theirs.status === 200, "the other user's order must still exist");
  });
});
