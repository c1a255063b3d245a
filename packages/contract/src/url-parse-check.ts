// express-openapi-validator calls Node's legacy `url.parse` on every request (its parameter step
// reads the raw query with it). Node 24 deprecates `url.parse` (DEP0169) and, until it has warned
// once, asks on every call whether the caller lives in node_modules, capturing the caller's stack
// to find out: about 4 µs per call, most of what the call costs, and ~7% of the JavaScript of a
// validated GET. The warning is for code outside node_modules; none of ours calls `url.parse`
// (url-parse-check.test.ts holds that), so our own processes (the reference server, the mock)
// settle the question once at start: the warning is marked as given, silently, and the
// validator's calls skip the check. `createApi` does not do it for a team's project: the warning
// may be for the team's code there.
import { parse } from 'node:url';

let settled = false;

/** Marks DEP0169 as given for this process (without printing it), so `url.parse` stops checking its caller. */
export function settleUrlParseCheck(): void {
  if (settled) return;
  settled = true;
  const quiet = process.noDeprecation;
  process.noDeprecation = true;
  try {
    parse('/');
  } finally {
    process.noDeprecation = quiet;
  }
}
