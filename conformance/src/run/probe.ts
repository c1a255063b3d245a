// The check the CLI makes before anything else: is the target an http(s) URL, does it answer, and
// does it answer like the Item Marketplace API (two requests, changing nothing: one answered in one
// of the API's two envelopes is enough, as a partial implementation may lack the other route)? A static file server or another API is told so in one line
// instead of hundreds of failures. Only the envelope is required here, not the exact answer: an
// implementation with a wrong status or message is this API with a bug, for the suite to report.

import { targetUrl } from '../oracle/target-url.ts';

const PROBES: { name: string; method: 'GET' | 'POST'; path: string; body?: string }[] = [
  { name: 'GET /item/listing/count/{item}', method: 'GET', path: '/item/listing/count/1' },
  // Without apiKey the API answers 300 `Missing required parameter: apiKey`, Prism its own 422.
  { name: 'POST /user/login', method: 'POST', path: '/user/login', body: '{}' },
];

/** The required fields of envelope A (`err`, `success`, `content`) or B (`status` success or error). */
function isEnvelope(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  return (
    (typeof b.err === 'boolean' && typeof b.success === 'boolean' && 'content' in b) ||
    b.status === 'success' ||
    b.status === 'error'
  );
}

/**
 * Why the target cannot be tested (one line), or undefined when it looks like this API. `scope`
 * (--operations): only the probes of listed operations are sent; with none listed, only whether
 * the target answers at all (`GET /`, no operation) is checked.
 */
export async function probeTarget(
  target: string,
  // A cold start is slow on a busy machine: the first request to the reference server's first
  // sandbox (validators compiled then) took 25 s on a loaded 2-core machine, under 0.2 s after.
  timeoutMs = 60_000,
  scope?: ReadonlySet<string>,
): Promise<string | undefined> {
  if (!/^[a-z][a-z\d+.-]*:\/\//i.test(target))
    return `--target ${target} has no scheme: did you mean http://${target}?`;
  let base: URL;
  try {
    base = new URL(target);
  } catch {
    return `--target ${target} is not a URL`;
  }
  if (!['http:', 'https:'].includes(base.protocol)) return `--target ${target} must be an http:// or https:// URL`;
  // One probe answering like the API is enough: a team's implementation may lack the other route
  // (its framework's 404 page), which the run then reports as not implemented.
  let problem: string | undefined;
  const probes = scope ? PROBES.filter((p) => scope.has(p.name)) : PROBES;
  for (const probe of probes.length ? probes : [{ method: 'GET', path: '/', body: undefined, any: true }]) {
    const url = targetUrl(base, probe.path);
    let res: Response;
    try {
      res = await fetch(url, {
        method: probe.method,
        headers: probe.body ? { 'content-type': 'application/json' } : {},
        body: probe.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const error = e as Error & { cause?: { code?: string; message?: string } };
      const why =
        error.name === 'TimeoutError'
          ? `no answer within ${timeoutMs / 1000} s`
          : (error.cause?.message ?? error.cause?.code ?? error.message);
      return `the target ${target} does not answer: ${why}`;
    }
    const text = await res.text();
    if ('any' in probe) return undefined;
    const contentType = res.headers.get('content-type') ?? '';
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    if (res.status === 422 && contentType.includes('problem+json')) return undefined; // Prism
    const json = contentType.includes('json');
    if (json && isEnvelope(body)) return undefined;
    const what = `${contentType.split(';')[0] || 'no content type'} ${res.status}`;
    const detail = json ? ' (not in envelope A or B)' : '';
    problem ??= `the target ${target} answered ${what} to ${probe.method} ${probe.path}${detail}: is this the Item Marketplace API?`;
  }
  return problem;
}
