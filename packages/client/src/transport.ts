// The fetch openapi-fetch calls: it resends a request refused for its token (after a new login) and
// one answered 429 (after the wait the answer asks for), within the retry policy. Requests are
// cloned before each attempt, so a body can be sent again.
import { DEFAULT_RETRY, type RetryPolicy, retryDelay, shouldRetry } from './rate-limit.ts';
import type { Session } from './session.ts';

export interface TransportOptions {
  fetch: typeof globalThis.fetch;
  session: Session | undefined;
  retry?: Partial<RetryPolicy>;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
}

const bearer = (jwt: string) => `Bearer ${jwt}`;

/** The most specific reason of a failed fetch: Node's undici hides the code (ECONNREFUSED...) in `cause`. */
function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const inner = error.cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof inner?.code === 'string' ? inner.code : undefined;
  const detail = typeof inner?.message === 'string' && inner.message ? inner.message : undefined;
  return code && detail && !detail.includes(code)
    ? `${error.message} (${code}: ${detail})`
    : detail
      ? `${error.message} (${detail})`
      : error.message;
}

export function createTransport(options: TransportOptions): (request: Request) => Promise<Response> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  // Called unbound: a browser's fetch refuses a `this` other than the window ("Illegal invocation"),
  // which `options.fetch(...)` would pass.
  const { fetch, session, sleep, now } = options;

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

  /** One request; a target that does not answer is reported with the URL tried (fetch's own error says only "fetch failed"). */
  async function sendOnce(request: Request): Promise<Response> {
    try {
      return await fetch(request.clone());
    } catch (cause) {
      throw new Error(`${request.method} ${request.url} did not answer: ${reason(cause)}`, { cause });
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
