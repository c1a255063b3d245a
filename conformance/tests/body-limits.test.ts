// The body limits of the document ("Request bodies", this document's rules) and of the test-helpers
// document, from both sides: a body as long as the limit allows is read (the answer is anything but
// `Invalid request body`), a longer one gets 300 `Invalid request body`. Where the document states
// the number (`x-body-limit`, the helpers' 10 MiB) both sides are at it, one byte apart. Where the
// limit is what the request schema admits, the document's sentence leaves the count of names,
// numbers and separators open (body-size.ts): a body of its least count is read, and one of twice
// its most generous count plus 64 KiB is refused. Bodies are the documented request padded with JSON
// whitespace, sent by a caller with a JWT (callers without one have a smaller limit of their own).
import { beforeAll, describe, it } from 'vitest';
import { needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { bodyBytes } from '../src/kit/body-size.ts';
import { session } from '../src/kit/helpers.ts';
import { type Answer, assertThat, call } from '../src/kit/http.ts';
import { buildRequest } from '../src/kit/requests.ts';
import { sides } from '../src/kit/rule.ts';
import { document, helperDocument, isConnected, type Operation, operations } from '../src/oracle/document.ts';

beforeAll(resetIfPossible);

const TOO_LARGE = 'Invalid request body';
/** Past the most generous count by this much and twice over: no reading of "Request bodies" reads it. */
const FAR = 65_536;
/** "A helper reads a body of at most 10 MiB" (test-helpers document). */
const HELPER_LIMIT = 10 * 1024 * 1024;

/** `json` followed by JSON whitespace up to `bytes` bytes. */
const padded = (json: string, bytes: number) => ({
  contentType: 'application/json',
  body: `${json}${' '.repeat(Math.max(0, bytes - Buffer.byteLength(json)))}`,
});

const read = (a: Answer, bytes: number, why: string) =>
  assertThat(a, a.message !== TOO_LARGE, `a body of ${bytes} bytes (${why}) is read`);
const refused = (a: Answer, bytes: number, why: string) =>
  assertThat(a, a.status === 300 && a.message === TOO_LARGE, `a body of ${bytes} bytes (${why}) gets 300 ${TOO_LARGE}`);

/**
 * Sends the documented request of `o` padded to each size, as a caller its permission lets through
 * (the permission is checked before the body is read): a fresh user (an admin for admin routes; an
 * API JWT passes the 2FA filter), or nobody.
 */
async function sender(o: Operation, anonymousIp: string) {
  const me = isConnected(o) ? await session({ admin: o.permission === 'admin' }) : undefined;
  const built = buildRequest(o);
  const json = JSON.stringify(built.json ?? {});
  return {
    json,
    send: (bytes: number) =>
      call(o.method, built.path, {
        query: built.query,
        raw: padded(json, bytes),
        token: me?.token,
        ip: me?.ip ?? anonymousIp,
      }),
  };
}

describe('request body limits', () => {
  const stated = operations.filter(
    (o) => isConnected(o) && typeof o.op['x-body-limit'] === 'number' && o.op['x-body-limit'] <= 65_536,
  );

  it.for(stated)(
    '$name reads a body of its x-body-limit in bytes and refuses one byte more [R-LIMIT-BODY]',
    sides(['at the limit', 'past the limit'], 'R-LIMIT-BODY'),
    async (o, ctx) => {
      await needsHelpers(ctx);
      const limit = o.op['x-body-limit'] as number;
      const { send } = await sender(o, '');
      read(await send(limit), limit, 'the limit');
      refused(await send(limit + 1), limit + 1, 'one past the limit');
    },
  );

  const counted = operations.filter(
    (o) =>
      o.op.requestBody &&
      typeof o.op['x-body-limit'] !== 'number' &&
      Number.isFinite(bodyBytes(document, o.op.requestBody, 'most')),
  );

  it.for(counted.map((o, i) => ({ ...o, i })))(
    '$name reads a body as long as its schema admits and refuses one far past it [R-LIMIT-BODY]',
    async (o, ctx) => {
      await needsHelpers(ctx);
      const least = bodyBytes(document, o.op.requestBody, 'least');
      const far = 2 * bodyBytes(document, o.op.requestBody, 'most') + FAR;
      // A caller without a JWT gets an IP of its own: refused logins count per IP.
      const { json, send } = await sender(o, `198.51.100.${200 + o.i}`);
      const most = Math.max(least, Buffer.byteLength(json));
      read(await send(most), most, "what its schema admits, by the document's count");
      refused(await send(far), far, 'twice the most generous count of its schema, plus 64 KiB');
    },
  );
});

describe('test helper body limits', () => {
  it('POST /test_helpers/items, whose schema bounds nothing, reads a body of 10 MiB and refuses one byte more', async (ctx) => {
    await needsHelpers(ctx);
    const json = JSON.stringify({ name: 'Body Limit Crate', game: 440 });
    const send = (bytes: number) => call('POST', '/test_helpers/items', { raw: padded(json, bytes) });
    read(await send(HELPER_LIMIT), HELPER_LIMIT, '10 MiB');
    refused(await send(HELPER_LIMIT + 1), HELPER_LIMIT + 1, 'one byte past 10 MiB');
  });

  it('POST /test_helpers/clock, whose schema bounds its body, reads what its schema admits and refuses a body far past it', async (ctx) => {
    await needsHelpers(ctx);
    const body = helperDocument.paths['/test_helpers/clock'].post.requestBody;
    const json = JSON.stringify({ advance: 0 });
    const send = (bytes: number) => call('POST', '/test_helpers/clock', { raw: padded(json, bytes) });
    const least = bodyBytes(helperDocument, body, 'least');
    const far = 2 * bodyBytes(helperDocument, body, 'most') + FAR;
    read(await send(least), least, "what its schema admits, by the document's count");
    refused(await send(far), far, 'twice the most generous count of its schema, plus 64 KiB');
  });
});
