// Negative data for every operation (src/kit/negative.ts): bad input gets the documented error
// envelope with the documented message, never a success, never a 5xx; a route the document does
// not have is not found.
import { beforeAll, describe, it } from 'vitest';
import { type CallerTokens, callerTokens, session, tokenFor } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, call } from '../src/kit/http.ts';
import { expectedMessages, negativeCases } from '../src/kit/negative.ts';
import { LEVEL, runs } from '../src/kit/settings.ts';
import { skip } from '../src/kit/skip.ts';
import { PRISM_INVALID, PRISM_LARGE, READ_ONLY, type Target, target } from '../src/kit/target.ts';
import { messageText } from '../src/oracle/contract.ts';
import { operations } from '../src/oracle/document.ts';

let t: Target;
const IP = '198.51.100.30';
let tokens: CallerTokens = {};

beforeAll(async () => {
  t = await target();
  if (runs('contract')) tokens = await callerTokens(t, IP);
});

describe.each(operations.filter((o) => negativeCases(o).length > 0))('negative data: $name', (o) => {
  it.for(negativeCases(o))(
    'Given $name, then the answer is the documented error [R-ERR-300, R-ERR-ENVELOPE-A]',
    async (c, ctx) => {
      if (!runs('contract')) return skip(ctx, LEVEL);
      if (t.readOnly) return skip(ctx, READ_ONLY);
      const limited = o.op['x-rate-limit']?.exceeded === 'reject';
      // A route with its own tight limit gets a fresh caller per case, so the limit is not what answers.
      const token = limited && t.helpers ? (await session({}, IP)).token : tokenFor(ctx, tokens, o);
      // Prism never answers a malformed JSON body (the request hangs until the client gives up).
      if (t.ownErrors && c.request.raw?.contentType === 'application/json') return skip(ctx, PRISM_INVALID);
      if (t.ownErrors && JSON.stringify(c.request.json ?? '').length > 1_000_000) return skip(ctx, PRISM_LARGE);
      const answer: Answer = await call(o.method, c.request.path, {
        query: c.request.query,
        json: c.request.json,
        raw: c.request.raw,
        token,
        ip: IP,
        // A 404 the operation documents is an answer to bad input once the operation is known to exist.
        on404: o.op.responses['404'] ? 'documented' : 'skip',
      });
      assertThat(answer, answer.status < 500, 'bad input must not produce a server error');
      assertThat(answer, answer.status < 200 || answer.status >= 300, 'bad input must not succeed');
      if (t.ownErrors) return skip(ctx, PRISM_INVALID);
      // 300, or 403 / 404 where the document says so for this operation.
      const allowed = [
        300,
        ...((o.op['x-error-messages'] ?? []).some((m: { status?: number }) => m.status === 403) ? [403] : []),
        ...(o.op.responses['404'] ? [404] : []),
      ];
      assertThat(
        answer,
        allowed.includes(answer.status),
        `bad input must get a documented error status (${allowed.join(', ')}), got ${answer.status}`,
      );
      assertConforms(answer);
      const expected = expectedMessages(o, c);
      if (expected.length)
        assertThat(
          answer,
          expected.includes(messageText(answer.message) ?? ''),
          `the document names ${expected.map((m) => JSON.stringify(m)).join(' or ')} for this failure`,
        );
    },
  );
});

describe('unknown routes', () => {
  // The document ("Errors" and the protocol's answers): an unknown route, a path it has no
  // operation for or a method it has none for at a known path, answers 404.
  it.for([
    { method: 'GET', path: '/no-such-route' },
    { method: 'POST', path: '/user/no-such-operation' },
    { method: 'PUT', path: '/user/login' },
  ])('Given $method $path, which the document does not have, then the answer is 404 [R-ERR-404]', async (r) => {
    // Not an operation: left out of the coverage of the document's operations.
    const answer = await call(r.method, r.path, { ip: IP, record: false });
    assertThat(answer, answer.status === 404, `an unknown route is not found (404), got ${answer.status}`);
  });
});
