// Contract level: every operation of the document, called with a documented request, answers
// something the document allows for it (status, envelope, schema, message). Against a mock, every
// documented example of every status is asked for by name (`Prefer: code=<status>,
// example=<name>`) and checked: the document is self-consistent as a mock.
import { beforeAll, describe, it } from 'vitest';
import { type CallerTokens, callerTokens, tokenFor } from '../src/kit/helpers.ts';
import { assertConforms, assertThat, call } from '../src/kit/http.ts';
import { buildRequest } from '../src/kit/requests.ts';
import { LEVEL, runs } from '../src/kit/settings.ts';
import { skip } from '../src/kit/skip.ts';
import { READ_ONLY, type Target, target } from '../src/kit/target.ts';
import {
  changesState,
  deref,
  endsSession,
  isConnected,
  type Json,
  type Operation,
  operations,
} from '../src/oracle/document.ts';

let t: Target;
let tokens: CallerTokens = {};
const IP = '198.51.100.20';

/** Whether the target is a mock, found out before the tests are defined. */
const mock = (await target()).prism;

beforeAll(async () => {
  t = await target();
  if (runs('contract')) tokens = await callerTokens(t, IP);
});

/** Every named example the operation documents: status, media type and name. */
function documentedExamples(o: Operation): { status: string; media: string; name: string }[] {
  return Object.entries(o.op.responses as Json).flatMap(([status, raw]) =>
    Object.entries(deref(raw)?.content ?? {}).flatMap(([media, m]) =>
      Object.keys((m as Json).examples ?? {}).map((name) => ({ status, media, name })),
    ),
  );
}

describe('contract: every operation answers as documented', () => {
  describe.each(operations)('$name', (o) => {
    it('Given a documented request, then the answer is a documented response [R-ENVELOPE-A, R-ENVELOPE-B, R-ERR-200, R-ERR-ENVELOPE-A, R-ERR-ENVELOPE-B]', async (ctx) => {
      if (!runs('contract')) return skip(ctx, LEVEL);
      if (t.readOnly && changesState(o)) return skip(ctx, READ_ONLY);
      // Logging out ends the session the other operations are called with: it gets its own.
      const token = tokenFor(ctx, endsSession(o) ? await callerTokens(t, IP) : tokens, o);
      const built = buildRequest(o);
      const answer = await call(o.method, built.path, { query: built.query, json: built.json, token, ip: IP });
      assertConforms(answer);
      assertThat(
        answer,
        !(isConnected(o) && answer.status === 403 && (answer.body as Json)?.content === 'forbidden'),
        "the target refused the suite's valid session with 403 forbidden",
      );
    });

    const examples = documentedExamples(o);
    // Only a mock can be asked for a given example: against an implementation the test does not exist.
    if (mock)
      it(`Given a mock, when each of its ${examples.length} documented examples is asked for by name, then each is a documented response`, async (ctx) => {
        if (!runs('contract')) return skip(ctx, LEVEL);
        const built = buildRequest(o);
        for (const e of examples) {
          const answer = await call(o.method, built.path, {
            query: built.query,
            json: built.json,
            token: o.permission === 'admin' ? tokens.admin : tokens.user,
            headers: { prefer: `code=${e.status}, example=${e.name}`, accept: e.media },
            on404: 'answer', // a documented 404 example is asked for
          });
          assertThat(
            answer,
            String(answer.status) === e.status,
            `the mock must serve example ${e.name} with status ${e.status}`,
          );
          assertConforms(answer);
        }
      });
  });
});
