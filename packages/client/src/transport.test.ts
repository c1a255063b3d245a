// The transport with a scripted server: each test lists the answers in order and checks what was
// sent and waited for.
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { Session } from './session.ts';
import { createTransport } from './transport.ts';

const token = (n: number) =>
  new SignJWT({ n })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode('a test secret of enough length'));

function scripted(answers: Response[]) {
  const sent: { auth: string | null; body: string }[] = [];
  const fetch = (async (input: Request) => {
    sent.push({ auth: input.headers.get('authorization'), body: await input.text() });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next;
  }) as typeof globalThis.fetch;
  return { sent, fetch };
}

const tooMany = (retryAfter: number) =>
  new Response('{"err":true,"success":false,"content":"Rate limit exceeded."}', {
    status: 429,
    headers: { 'retry-after': String(retryAfter) },
  });
const okAnswer = () => new Response('{"err":false,"success":true,"content":1}', { status: 200 });
const forbidden = () => new Response('{"err":true,"success":false,"content":"forbidden"}', { status: 403 });
const post = (auth?: string) =>
  new Request('http://x/item/buyorder', {
    method: 'POST',
    body: '{"itemid":1}',
    headers: auth ? { authorization: `Bearer ${auth}` } : {},
  });

describe('the transport', () => {
  it('calls fetch unbound, as a browser requires of window.fetch', async () => {
    // A browser's fetch throws "Illegal invocation" when `this` is anything but the window.
    const browserLike = function (this: unknown) {
      if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
      return Promise.resolve(okAnswer());
    } as typeof globalThis.fetch;
    const send = createTransport({ fetch: browserLike, session: undefined, sleep: async () => {}, now: () => 0 });
    expect((await send(post())).status).toBe(200);
  });

  it('names the method, the URL and the reason when the target does not answer', async () => {
    const refused = (async () => {
      throw new TypeError('fetch failed', {
        cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.0.0.1:8080' },
      });
    }) as typeof globalThis.fetch;
    const send = createTransport({ fetch: refused, session: undefined, sleep: async () => {}, now: () => 0 });
    const error: Error = await send(post()).then(
      () => expect.fail('a refused connection answered'),
      (e: Error) => e,
    );
    expect(error.message).toBe(
      'POST http://x/item/buyorder did not answer: fetch failed (connect ECONNREFUSED 10.0.0.1:8080)',
    );
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('resends a 429 after Retry-After, with the same body', async () => {
    const { sent, fetch } = scripted([tooMany(2), tooMany(3), okAnswer()]);
    const waits: number[] = [];
    const send = createTransport({ fetch, session: undefined, sleep: async (ms) => void waits.push(ms), now: () => 0 });
    const res = await send(post());
    expect(res.status).toBe(200);
    expect(waits).toEqual([2000, 3000]);
    expect(sent.map((s) => s.body)).toEqual(Array(3).fill('{"itemid":1}'));
  });

  it('gives the 429 back after the retry count, or when the wait would exceed the budget', async () => {
    const counted = scripted([tooMany(1), tooMany(1), tooMany(1)]);
    const send = createTransport({
      ...counted,
      session: undefined,
      retry: { retries: 2 },
      sleep: async () => {},
      now: () => 0,
    });
    expect((await send(post())).status).toBe(429);
    expect(counted.sent).toHaveLength(3);

    const budget = scripted([tooMany(4), tooMany(4), okAnswer()]);
    const waits: number[] = [];
    const bounded = createTransport({
      ...budget,
      session: undefined,
      retry: { maxWaitSeconds: 6 },
      sleep: async (ms) => void waits.push(ms),
      now: () => 0,
    });
    expect((await bounded(post())).status).toBe(429);
    expect(waits).toEqual([4000]);
  });

  it('on a 403 to its own token, logs in again and resends once with the new token', async () => {
    const tokens = [await token(1), await token(2)];
    const session = new Session(
      async () => tokens.shift()!,
      () => 0,
    );
    const first = await session.token();
    const { sent, fetch } = scripted([forbidden(), okAnswer()]);
    const send = createTransport({ fetch, session, sleep: async () => {}, now: () => 0 });
    expect((await send(post(first))).status).toBe(200);
    expect(sent.map((s) => s.auth)).toEqual([`Bearer ${first}`, `Bearer ${session.current}`]);
    expect(session.current).not.toBe(first);
    expect(session.logins).toBe(2);
  });

  it('does not log in again for a 403 to a request without its token, nor twice in a row', async () => {
    const session = new Session(
      async () => token(Math.random()),
      () => 0,
    );
    const mine = await session.token();
    const other = scripted([forbidden()]);
    await createTransport({ ...other, session, sleep: async () => {}, now: () => 0 })(post('someone-else'));
    expect(session.logins).toBe(1);
    const twice = scripted([forbidden(), forbidden()]);
    const res = await createTransport({ ...twice, session, sleep: async () => {}, now: () => 0 })(post(mine));
    expect(res.status).toBe(403);
    expect(twice.sent).toHaveLength(2);
    expect(session.logins).toBe(2);
  });
});
