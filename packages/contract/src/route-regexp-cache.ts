// express-openapi-validator finds a request's operation by compiling every path of the document
// with path-to-regexp on every request (openapi.metadata.js, lookupRoute): with ~100 paths that
// was a third of the CPU time of a simple GET. The compiled expressions depend only on the path and
// the options, and a non-global RegExp keeps no state between `exec` calls, so the module's
// `pathToRegexp` is wrapped once with a cache. The validator reads the function from the module at
// call time, which is what makes the wrapper effective.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const CACHED = Symbol.for('marketplace.pathToRegexpCache');

type Options = { sensitive?: boolean; strict?: boolean; end?: boolean; trailing?: boolean; delimiter?: string };
type Compile = ((path: string, options?: Options) => unknown) & { [CACHED]?: true };

/** Wraps the path-to-regexp used by express-openapi-validator with a cache (idempotent). */
export function cacheValidatorRouteRegexps(): void {
  const location = require.resolve('path-to-regexp', { paths: [require.resolve('express-openapi-validator')] });
  const module = require(location) as { pathToRegexp: Compile };
  const original = module.pathToRegexp;
  if (original[CACHED]) return;
  const cache = new Map<string, unknown>();
  const cached: Compile = (path, options) => {
    const o = options ?? {};
    const key = `${path}\u0000${o.sensitive ? 1 : 0}${o.strict ? 1 : 0}${o.end === false ? 0 : 1}${o.trailing === false ? 0 : 1}${o.delimiter ?? ''}`;
    let compiled = cache.get(key);
    if (compiled === undefined) {
      compiled = original(path, options);
      if (cache.size < 10_000) cache.set(key, compiled);
    }
    return compiled;
  };
  cached[CACHED] = true;
  module.pathToRegexp = cached;
}
