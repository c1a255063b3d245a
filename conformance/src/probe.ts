// The check the CLI makes before anything else: is the target an http(s) URL, does it answer, and
// does it answer like the Item Marketplace API (two requests every implementation answers in its
// envelopes, changing nothing)? A static file server or another API is told so in one line instead
// of hundreds of failures.
import { checkResponse } from './contract.ts';

const PROBES: { method: 'GET' | 'POST'; path: string; body?: string }[] = [
  { method: 'GET', path: '/item/listing/count/1' },
  // Without apiKey the API answers 300 `Missing required parameter: apiKey`, Prism its own 422.
  { method: 'POST', path: '/user/login', body: '{}' },
];

/** Why the target cannot be tested (one line), or undefined when it looks like this API. */
export async function probeTarget(target: string, timeoutMs = 15_000): Promise<string | undefined> {
  if (!/^[a-z][a-z\d+.-]*:\/\//i.test(target))
    return `--target ${target} has no scheme: did you mean http://${target}?`;
  let base: URL;
  try {
    base = new URL(target);
  } catch {
    return `--target ${target} is not a URL`;
  }
  if (!['http:', 'https:'].includes(base.protocol)) return `--target ${target} must be an http:// or https:// URL`;
  for (const probe of PROBES) {
    const url = new URL(probe.path, base);
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
    const contentType = res.headers.get('content-type') ?? '';
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    if (res.status === 422 && contentType.includes('problem+json')) continue; // Prism
    const exchange = {
      method: probe.method,
      url: url.toString(),
      status: res.status,
      headers: Object.fromEntries(res.headers.entries()),
      body,
      contentType,
    };
    const violations = contentType.includes('json') ? checkResponse(exchange) : ['not JSON'];
    if (violations.length) {
      const what = `${contentType.split(';')[0] || 'no content type'} ${res.status}`;
      const detail = violations[0] === 'not JSON' ? '' : ` (${violations[0]})`;
      return `the target ${target} answered ${what} to ${probe.method} ${probe.path}${detail}: is this the Item Marketplace API?`;
    }
  }
  return undefined;
}
