// Negative data, "largest allowed numbers" (src/kit/negative.ts, largestNumberCases): every numeric
// field at its documented maximum is answered without a 5xx, and one above it gets the documented
// error with its message. Fields without a maximum get the largest safe integer and 2^53: still no
// 5xx (a server whose arithmetic overflows answers 500 here).
import { beforeAll, describe, it } from 'vitest';
import { type CallerTokens, callerTokens, session, tokenFor } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, call } from '../src/kit/http.ts';
import { expectedMessages, largestNumberCases } from '../src/kit/negative.ts';
import { LEVEL, runs } from '../src/kit/settings.ts';
import { skip } from '../src/kit/skip.ts';
import { PRISM_INVALID, READ_ONLY, type Target, target } from '../src/kit/target.ts';
import { messageText } from '../src/oracle/contract.ts';
import { operations } from '../src/oracle/document.ts';

let t: Target;
const IP = '198.51.100.31';
let tokens: CallerTokens = {};

beforeAll(async () => {
  t = await target();
  if (runs('contract')) tokens = await callerTokens(t, IP);
});

describe.each(operations.filter((o) => largestNumberCases(o).length > 0))('largest allowed numbers: $name', (o) => {
  it.for(largestNumberCases(o))('Given $name, then no server error', async (c, ctx) => {
    if (!runs('contract')) return skip(ctx, LEVEL);
    if (t.readOnly) return skip(ctx, READ_ONLY);
    // A route with its own tight limit gets a fresh caller per case, so the limit is not what answers.
    const limited = [o.op['x-rate-limit'] ?? []].flat().some((r: { exceeded?: string }) => r.exceeded === 'reject');
    const token = limited && t.helpers ? (await session({}, IP)).token : tokenFor(ctx, tokens, o);
    const answer: Answer = await call(o.method, c.request.path, {
      query: c.request.query,
      json: c.request.json,
      token,
      ip: IP,
    });
    assertThat(
      answer,
      answer.status < 500,
      'a number the document allows, or one above its maximum, must not produce a server error',
    );
    if (c.allowed) return;
    assertThat(answer, answer.status < 200 || answer.status >= 300, 'a number above the maximum must not succeed');
    if (t.ownErrors) return skip(ctx, PRISM_INVALID);
    assertThat(
      answer,
      answer.status === 300,
      `a number above the maximum gets the documented 300, got ${answer.status}`,
    );
    assertConforms(answer);
    const expected = expectedMessages(o, c);
    assertThat(
      answer,
      expected.includes(messageText(answer.message) ?? ''),
      `the document names ${expected.map((m) => JSON.stringify(m)).join(' or ')} for this failure`,
    );
  });
});
