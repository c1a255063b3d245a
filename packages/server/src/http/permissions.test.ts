// Permission levels (seed: "Permission levels"), for every operation of the bundled document:
// the pipeline refuses before anything else, so operations without a handler yet refuse too.
import { type Permission, readDocument } from '@marketplace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORBIDDEN } from '../domain/messages.ts';
import { startTestServer, type TestServer } from '../routes/test-harness.fixture.ts';

interface Operation {
  method: 'GET' | 'POST';
  /** The path with every parameter filled in (`/item/listing/1`). */
  url: string;
  name: string;
  permission: Permission;
}

// biome-ignore lint/suspicious/noExplicitAny: the bundled document is plain JSON
const document: { paths: Record<string, any> } = readDocument();
const operations: Operation[] = Object.entries(document.paths).flatMap(([path, item]) =>
  (['get', 'post'] as const)
    .filter((m) => item[m])
    .map((m) => ({
      method: m.toUpperCase() as 'GET' | 'POST',
      url: path.replace(/\{[^}]+\}/g, '1'),
      name: `${m.toUpperCase()} ${path}`,
      permission: item[m]['x-permission'],
    })),
);
const guarded = operations.filter((o) => ['Connected + API', 'Connected + API + 2FA', 'admin'].includes(o.permission));
const admin = operations.filter((o) => o.permission === 'admin');
const open = operations.filter((o) => ['None', 'API only'].includes(o.permission));

let t: TestServer;
const tokens = { user: '', admin: '' };
beforeAll(async () => {
  t = await startTestServer();
  tokens.user = await t.login((await t.user()).apiKey);
  tokens.admin = await t.login((await t.user({ admin: true })).apiKey);
});
afterAll(() => t.close());

/** Status and body of `o` called with `authorization` (none when undefined). */
async function call(o: Operation, authorization?: string) {
  const res = await fetch(`${t.baseUrl}${o.url}`, {
    method: o.method,
    headers: authorization ? { authorization } : {},
  });
  return [res.status, await res.json()];
}
const refused = [403, { err: true, success: false, content: FORBIDDEN }];

it('the document has operations of every level', () => {
  expect(guarded.length).toBeGreaterThan(80);
  expect(admin.length).toBeGreaterThan(5);
  expect(open.length).toBeGreaterThan(10);
  expect(guarded.length + open.length).toBe(operations.length);
});

describe.each(guarded)('$name ($permission)', (o) => {
  it('refuses a request without a token with 403 forbidden', async () => {
    expect(await call(o)).toEqual(refused);
  });

  it('refuses a token that is not a valid JWT of this server with 403 forbidden', async () => {
    expect(await call(o, 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl')).toEqual(refused);
  });
});

describe.each(admin)('$name (admin)', (o) => {
  it("refuses a user's token with 403 forbidden, and lets an administrator's through", async () => {
    expect(await call(o, `Bearer ${tokens.user}`)).toEqual(refused);
    const [status, body] = await call(o, `Bearer ${tokens.admin}`);
    expect([200, 300, 404]).toContain(status);
    expect(body.content ?? body.message).not.toBe(FORBIDDEN);
  });
});

describe.each(open)('$name ($permission)', (o) => {
  it('takes a request without a token (a bad token is ignored)', async () => {
    const [status] = await call(o, 'Bearer not-a-jwt');
    expect([200, 300, 404]).toContain(status);
  });
});
