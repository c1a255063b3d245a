// Continuing with a value a host's part gives at once or later (a database lookup): the request
// flow waits only for a promise. An `await` of a value that is already there still takes a turn of
// the microtask queue, and an async function a promise per call: a request nothing has to wait for
// takes neither on its way through the gate and the dispatch.

/**
 * Continues with `value` at once when it is there, or once its promise settles (a rejection, or a
 * failure of `then` after waiting, goes to `failed`; a synchronous throw reaches Express's layer).
 */
export function settle<T>(value: T | Promise<T>, failed: (error: unknown) => void, then: (value: T) => void): void {
  if (value instanceof Promise) value.then(then).catch(failed);
  else then(value);
}
