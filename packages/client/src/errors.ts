// Every failure of a call as one typed error: the documented business errors (HTTP 300, in either
// envelope), the shared refusals (403 `forbidden`, 404, 429, 500) and a request without an answer:
// aborted by its caller, kept from the page by the browser's CORS check, or not answered at all.
import type { paths } from '@marketplace/types';
import type {
  BusinessErrorBody,
  DocumentedMessage,
  GlobalMessage,
  Method,
  Operation,
  OperationId,
} from './operations.ts';

export type ErrorKind =
  | 'business'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'cors'
  | 'aborted';

export function kindOf(status: number): ErrorKind {
  if (status === 0) return 'network';
  if (status === 300) return 'business';
  // The API refuses with 403; a 401 comes from mocks that check the security scheme (Prism).
  if (status === 401 || status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  return 'server';
}

export class MarketplaceError<P extends keyof paths = keyof paths, M extends Method = Method> extends Error {
  override readonly name = 'MarketplaceError';
  /** The message of the answer: envelope A's `content` string, envelope B's `message`. */
  override readonly message: string;
  /** HTTP status (300 for business errors; 0 without an answer: kind `network`, `cors` or `aborted`). */
  readonly status: number;
  readonly kind: ErrorKind;
  /** The document's operationId, or `METHOD /path` for a path the document lacks. */
  readonly operation: OperationId<P, M> | string;
  readonly method: M;
  readonly path: P;
  /** The parsed body: for a 300, typed as the document's business error of the operation. */
  readonly body: BusinessErrorBody<Operation<P, M>> | unknown;
  /** Seconds to wait, when the answer is a 429 with `Retry-After`. */
  readonly retryAfter: number | undefined;

  constructor(init: {
    message: string;
    status: number;
    operation: string;
    method: M;
    path: P;
    body: unknown;
    retryAfter?: number;
    /** Why a request without an answer (status 0) got none; `network` unless said. */
    kind?: 'network' | 'cors' | 'aborted';
  }) {
    super(init.message);
    this.message = init.message;
    this.status = init.status;
    this.kind = init.status === 0 && init.kind ? init.kind : kindOf(init.status);
    this.operation = init.operation;
    this.method = init.method;
    this.path = init.path;
    this.body = init.body;
    this.retryAfter = init.retryAfter;
  }

  /**
   * Whether this is the business error with `message`. Only messages the document lists for the
   * operation (or the global ones) compile, so a typo or a message of another route is caught.
   */
  is(message: DocumentedMessage<P, M> | GlobalMessage): boolean {
    return this.kind === 'business' && this.message === message;
  }

  override toString(): string {
    return `MarketplaceError: ${this.operation} answered ${this.status}: ${this.message}`;
  }
}

/** Narrows an unknown caught value to the error of one operation. */
export function isMarketplaceError<P extends keyof paths, M extends Method>(
  error: unknown,
  method?: M,
  path?: P,
): error is MarketplaceError<P, M> {
  return (
    error instanceof MarketplaceError &&
    (method === undefined || error.method === method) &&
    (path === undefined || error.path === path)
  );
}
