// The messages every operation may answer before its own rules run (the document's global
// messages): a request that is not HTTP a server reads, no such route, a caller the permission
// level refuses, too many requests, a failure of the server itself.
export const FORBIDDEN = 'forbidden';
export const NOT_FOUND = 'Not found';
export const INTERNAL_ERROR = 'Internal server error';
/** Seed, Errors: the 429 content. */
export const rateLimited = (seconds: number) => `Rate limit exceeded. Retry after ${seconds} seconds.` as const;

/** Document (`x-protocol-errors`): answers to a request that is not HTTP the server reads, before any operation. */
export const PROTOCOL = {
  badRequest: 'Bad request',
  timeout: 'Request timeout',
  expectationFailed: 'Expectation failed',
  headersTooLarge: 'Request header fields too large',
} as const;
