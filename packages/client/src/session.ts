// The JWT of an API key: one login, reused until it is about to expire or the server refuses it.
// Concurrent callers share one login in flight, so a burst of requests logs in once.
import { decodeJwt } from 'jose';

/** Seconds before `exp` at which a token counts as expired (clock skew, a request in flight). */
export const EXPIRY_MARGIN = 60;

export class Session {
  #jwt: string | undefined;
  #exp = 0;
  #pending: Promise<string> | undefined;
  readonly #login: () => Promise<string>;
  readonly #now: () => number;
  /** How many logins this session made (the tests count them). */
  logins = 0;

  constructor(login: () => Promise<string>, now: () => number) {
    this.#login = login;
    this.#now = now;
  }

  /** The current JWT, if any, without logging in. */
  get current(): string | undefined {
    return this.#jwt;
  }

  /** A JWT that is not about to expire: the cached one, or a new login. */
  token(): Promise<string> {
    if (this.#jwt !== undefined && this.#now() < this.#exp - EXPIRY_MARGIN) return Promise.resolve(this.#jwt);
    this.#pending ??= this.#fresh().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** Forgets `jwt` (the server refused it), unless a newer one replaced it meanwhile. */
  invalidate(jwt: string): void {
    if (this.#jwt === jwt) this.#jwt = undefined;
  }

  async #fresh(): Promise<string> {
    this.#jwt = undefined;
    const jwt = await this.#login();
    this.logins += 1;
    const { exp } = decodeJwt(jwt);
    this.#jwt = jwt;
    // A token without `exp` is used until the server refuses it.
    this.#exp = typeof exp === 'number' ? exp : Number.POSITIVE_INFINITY;
    return jwt;
  }
}
