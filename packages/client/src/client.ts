// The typed client: openapi-fetch on the generated `paths`, with the API key's JWT attached to the
// routes that need a user (their permission level in the document), a new login when the token
// expires or is refused, rate-limit aware retries, and calls that answer the envelope's payload
// or throw a MarketplaceError.
import type { paths } from '@marketplace/types';
import createClient, { type Client, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import { type Outcome, operationIdOf, orThrow, settle } from './envelope.ts';
import { MarketplaceError } from './errors.ts';
import { NoAnswer } from './no-answer.ts';
import { type Content, indexEntry, type Method, type Operation, type PathsWith } from './operations.ts';
import type { RetryPolicy } from './rate-limit.ts';
import { Session } from './session.ts';
import { createTransport } from './transport.ts';

export interface MarketplaceClientOptions {
  /** The API's base URL, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** The account's API key: the client logs in with it when a route needs a user. */
  apiKey?: string;
  /** Headers sent with every request (for example `Prefer` on the Prism mock). */
  headers?: Record<string, string>;
  /** Rate-limit retries: how many, and the most seconds spent waiting. */
  retry?: Partial<RetryPolicy>;
  fetch?: typeof globalThis.fetch;
  /** Waits between retries (tests replace it). */
  sleep?: (ms: number) => Promise<void>;
  /** Unix seconds, to judge a token's expiry (tests replace it). */
  now?: () => number;
}

/** The second argument of a call: path and query parameters, body, headers (as in openapi-fetch). */
export type Init<P extends keyof paths, M extends Method> = MaybeOptionalInit<paths[P], M>;
type InitArgs<P extends keyof paths, M extends Method> =
  undefined extends Init<P, M> ? [init?: Init<P, M>] : [init: Init<P, M>];

type Call<M extends Method> = <P extends PathsWith<M>>(
  path: P,
  ...init: InitArgs<P, M>
) => Promise<Content<Operation<P, M>>>;
type SafeCall<M extends Method> = <P extends PathsWith<M>>(path: P, ...init: InitArgs<P, M>) => Promise<Outcome<P, M>>;

export interface MarketplaceClient {
  /** The payload of a GET (envelope A `content`, envelope B `data`); throws a MarketplaceError. */
  GET: Call<'get'>;
  /** The payload of a POST; throws a MarketplaceError. */
  POST: Call<'post'>;
  /** The same calls answering `{ok, value}` or `{ok: false, error}` instead of throwing. */
  safe: { GET: SafeCall<'get'>; POST: SafeCall<'post'> };
  /** The underlying openapi-fetch client, with the same login and retries (`settle` reads its results). */
  api: Client<paths>;
  /** Logs in now (or reuses a valid token) and returns the JWT. */
  login(): Promise<string>;
  /** The session of the API key: its current token and login count. */
  session: Session | undefined;
}

const USER_LEVELS = new Set(['Connected + API', 'Connected + API + 2FA', 'admin']);

/** Whether the document's operation at `path` needs a user's JWT. */
export function needsUser(method: string, path: string): boolean {
  const entry = indexEntry(method, path);
  return entry !== undefined && USER_LEVELS.has(entry.permission);
}

export function createMarketplaceClient(options: MarketplaceClientOptions): MarketplaceClient {
  const baseFetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => Date.now() / 1000);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  const apiKey = options.apiKey;
  // The login goes through the same client (retries included); it needs no token itself.
  const session =
    apiKey === undefined
      ? undefined
      : new Session(async () => {
          const { jwt } = orThrow(settle('post', '/user/login', await api.POST('/user/login', { body: { apiKey } })));
          return jwt;
        }, now);
  const api: Client<paths> = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: options.headers,
    fetch: createTransport({ fetch: baseFetch, session, retry: options.retry, sleep, now }),
  });
  if (session) {
    const auth: Middleware = {
      async onRequest({ request, schemaPath }) {
        if (!needsUser(request.method, schemaPath) || request.headers.has('authorization')) return undefined;
        request.headers.set('authorization', `Bearer ${await session.token()}`);
        return request;
      },
    };
    api.use(auth);
  }

  const request = api.request as (method: Method, path: keyof paths, init: unknown) => ReturnType<typeof api.GET>;
  const call = async <P extends keyof paths, M extends Method>(
    method: M,
    path: P,
    init: unknown,
  ): Promise<Outcome<P, M>> => {
    try {
      return settle(method, path, await request(method, path, init));
    } catch (cause) {
      if (cause instanceof MarketplaceError) return { ok: false, error: cause, response: undefined };
      // No answer (refused connection, DNS, reset, a CORS refusal, an abort): status 0, and the
      // kind the transport could tell (no-answer.ts).
      const error = new MarketplaceError<P, M>({
        message: cause instanceof Error ? cause.message : String(cause),
        status: 0,
        kind: cause instanceof NoAnswer ? cause.kind : 'network',
        operation: operationIdOf(method, path),
        method,
        path,
        body: undefined,
      });
      return { ok: false, error, response: undefined };
    }
  };

  return {
    GET: (async (path: keyof paths, init?: unknown) => orThrow(await call('get', path, init))) as Call<'get'>,
    POST: (async (path: keyof paths, init?: unknown) => orThrow(await call('post', path, init))) as Call<'post'>,
    safe: {
      GET: ((path: keyof paths, init?: unknown) => call('get', path, init)) as SafeCall<'get'>,
      POST: ((path: keyof paths, init?: unknown) => call('post', path, init)) as SafeCall<'post'>,
    },
    api,
    login: () => (session ? session.token() : Promise.reject(new Error('No API key: give apiKey to log in'))),
    session,
  };
}
