// Contract level: every operation of the document, called with a documented request, answers
// something the document allows for it (status, envelope, schema, message). Against the Prism
// mock, every documented business error (Prefer: code=300, example=<name>) is checked too.
import { beforeAll, describe, it } from 'vitest';
import { deref, isConnected, operations } from '../src/document.ts';
import { session } from '../src/helpers.ts';
import { assertConforms, call } from '../src/http.ts';
import { buildRequest } from '../src/requests.ts';
import { LEVEL, runs, settings } from '../src/settings.ts';
import { skip } from '../src/skip.ts';
import { READ_ONLY, type Target, target } from '../src/target.ts';

let t: Target;
let tokens: { user?: string; admin?: string } = {};
const IP = '198.51.100.20';

beforeAll(async () => {
  t = await target();
  if (t.helpers && !t.readOnly) {
    tokens = {
      user: (await session({ balance: 1_000_000 }, IP)).token,
      admin: (await session({ admin: true, balance: 1_000_000 }, IP)).token,
    };
  } else if (t.prism) {
    tokens = { user: 'mock-token', admin: 'mock-token' };
  } else if (settings.apiKey) {
    const login = await call('POST', '/user/login', { json: { apiKey: settings.apiKey } });
    tokens.user = (login.body as { content?: { jwt?: string } })?.content?.jwt;
  }
});

describe('contract: every operation answers as documented', () => {
  describe.each(operations)('$name', (o) => {
    it('answers a documented request with a documented response', async (ctx) => {
      if (!runs('contract')) return skip(ctx, LEVEL);
      if (t.readOnly && o.method === 'POST') return skip(ctx, READ_ONLY);
      const token = o.permission === 'admin' ? tokens.admin : tokens.user;
      if (isConnected(o) && !token)
        return skip(ctx, 'no credentials for a Connected route (give --api-key, or a target with test helpers)');
      const built = buildRequest(o);
      const answer = await call(o.method, built.path, { query: built.query, json: built.json, token, ip: IP });
      assertConforms(answer);
    });

    const errors = Object.keys(deref(o.op.responses['300'])?.content?.['application/json']?.examples ?? {});
    if (errors.length === 0) return;
    it('serves every documented business error (mock)', async (ctx) => {
      if (!runs('contract')) return skip(ctx, LEVEL);
      if (!t.prism) return skip(ctx, 'only a mock can be asked for a given example (Prefer: example=<name>)');
      const built = buildRequest(o);
      for (const name of errors) {
        const answer = await call(o.method, built.path, {
          query: built.query,
          json: built.json,
          token: tokens.user,
          headers: { prefer: `code=300, example=${name}` },
        });
        assertConforms(answer);
      }
    });
  });
});
