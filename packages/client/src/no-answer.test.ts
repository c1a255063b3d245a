// What the client can tell about a request without an answer: an abort, a CORS refusal (a page on
// another origin whose server answers a no-cors request), or no answer at all.
import { describe, expect, it } from 'vitest';
import { noAnswer } from './no-answer.ts';

const PAGE = 'http://127.0.0.1:5173';
const failed = new TypeError('Failed to fetch');
const request = (init: RequestInit = {}) => new Request('http://127.0.0.1:8080/user/balance', init);

/** A fetch for the probe: answers (opaque) or fails; records what it was asked. */
function probe(answers: boolean) {
  const asked: { url: string; init: RequestInit | undefined }[] = [];
  const fetch = (async (url: string, init?: RequestInit) => {
    asked.push({ url, init });
    if (!answers) throw new TypeError('Failed to fetch');
    return new Response(null, { status: 200 });
  }) as unknown as typeof globalThis.fetch;
  return { asked, fetch };
}

describe('noAnswer', () => {
  it('Given the caller aborted, the kind is aborted and nothing more is asked', async () => {
    const controller = new AbortController();
    controller.abort();
    const { asked, fetch } = probe(true);
    const why = await noAnswer(
      request({ signal: controller.signal }),
      new DOMException('This operation was aborted', 'AbortError'),
      fetch,
      PAGE,
    );
    expect([why.kind, why.message]).toEqual([
      'aborted',
      'GET http://127.0.0.1:8080/user/balance was aborted: This operation was aborted',
    ]);
    expect(asked).toEqual([]);
  });

  it('Given a timeout signal (AbortSignal.timeout), the kind is aborted', async () => {
    const why = await noAnswer(
      request(),
      new DOMException('The operation timed out.', 'TimeoutError'),
      probe(true).fetch,
      PAGE,
    );
    expect(why.kind).toBe('aborted');
  });

  it('Given a page on another origin whose server answers a no-cors request, the kind is cors', async () => {
    const { asked, fetch } = probe(true);
    const why = await noAnswer(request(), failed, fetch, PAGE);
    expect(why.kind).toBe('cors');
    expect(why.message).toBe(
      'GET http://127.0.0.1:8080/user/balance: the server answers, but the browser kept its answer from this page: a CORS refusal (the server does not allow the origin http://127.0.0.1:5173; reference server: MARKETPLACE_CORS_ORIGINS)',
    );
    expect(why.cause).toBe(failed);
    expect(asked.map((a) => [a.url, a.init?.method, a.init?.mode])).toEqual([
      ['http://127.0.0.1:8080/', 'HEAD', 'no-cors'],
    ]);
  });

  it('Given a page on another origin whose server answers nothing, the kind is network and CORS is ruled out in words', async () => {
    const why = await noAnswer(request(), failed, probe(false).fetch, PAGE);
    expect(why.kind).toBe('network');
    expect(why.message).toBe(
      'GET http://127.0.0.1:8080/user/balance did not answer: Failed to fetch (a browser reports a CORS refusal the same way, but http://127.0.0.1:8080 did not answer a request the CORS check does not apply to either: it is down or not reachable from this page)',
    );
  });

  it.each([
    ['outside a browser', undefined],
    ['on a page of the same origin', 'http://127.0.0.1:8080'],
  ])('Given a failure %s, the kind is network and nothing more is asked', async (_where, page) => {
    const { asked, fetch } = probe(true);
    const why = await noAnswer(request(), failed, fetch, page);
    expect([why.kind, why.message]).toEqual([
      'network',
      'GET http://127.0.0.1:8080/user/balance did not answer: Failed to fetch',
    ]);
    expect(asked).toEqual([]);
  });
});
