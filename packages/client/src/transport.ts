// The fetch openapi-fetch calls: it resends a request refused for its token (after a new login) and
// one answered 429 (after the wait the answer asks for), within the retry policy. Requests are
// cloned before each attempt, so a body can be sent again.
import { noAnswer, pageOrigin } from './no-answer.ts';
import { DEFAULT_RETRY, type RetryPolicy, retryDelay, shouldRetry } from './rate-limit.ts';
import type { Session } from './session.ts';

export interface TransportOptions {
  fetch: typeof globalThis.fetch;
  session: Session | undefined;
  retry?: Partial<RetryPolicy>;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  /** The origin of the page the client runs on (a browser's `location.origin`); tests give one. */
  page?: () => string | undefined;
}

const bearer = (jwt: string) => `Bearer ${jwt}`;

export function createTransport(options: TransportOptions): (request: Request) => Promise<Response> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  // Called unbound: a browser's fetch refuses a `this` other than the window ("Illegal invocation"),
  // which `options.fetch(...)` would pass.
  const { fetch, session, sleep, now, page = pageOrigin } = options;

  /** A 403 to a request that carried this session's token: the token is refused, not the caller. */
  async function refreshed(request: Request, response: Response): Promise<Request | undefined> {
    if (response.status !== 403 || !session) return undefined;
    const sent = request.headers.get('authorization');
    if (sent === null || session.current === undefined || sent !== bearer(session.current)) return undefined;
    session.invalidate(session.current);
    const retry = request.clone();
    retry.headers.set('authorization', bearer(await session.token()));
    return retry;
  }

  /**
   * One request; one without an answer is reported with the URL tried and why, as far as it can
   * be told (no-answer.ts: aborted, a CORS refusal, or no answer; fetch's own error says only
   * "fetch failed").
   */
  async function sendOnce(request: Request): Promise<Response> {
    try {
      return await fetch(request.clone());
    } catch (cause) {
      throw await noAnswer(request, cause, fetch, page());
    }
  }

  return async function send(original: Request): Promise<Response> {
    let request = original;
    let reauthenticated = false;
    let attempt = 0;
    let waited = 0;
    for (;;) {
      const response = await sendOnce(request);
      if (!reauthenticated) {
        const again = await refreshed(request, response);
        if (again) {
          await response.body?.cancel();
          reauthenticated = true;
          request = again;
          continue;
        }
      }
      if (response.status !== 429) return response;
      const delay = retryDelay(response.headers, now());
      if (!shouldRetry(policy, attempt, waited, delay)) return response;
      await response.body?.cancel();
      await sleep((delay as number) * 1000);
      waited += delay as number;
      attempt += 1;
    }
  };
}
