// How the suite's client puts a request on the wire: undici's request API on one keep-alive pool.
// fetch (the same undici underneath) builds a WHATWG Request, Headers, a body stream and a Response
// for every exchange: measured side by side on a 2-core machine, about 1 ms of CPU per request
// against about 0.25 ms here, over the 7,000 requests of a full run. What a test sees stays as
// fetch gave it: redirects are followed, a compressed body is decoded, `accept: */*` is sent unless
// the test sends its own, header names come lower case (repeated ones joined with ", "). An answer
// a target sends before reading the body (a 431, a body refused over its limit), then closing the
// connection, comes back as that answer: undici keeps a response it has read through the close or
// reset (wire.test.ts). "other side closed" means no status line came at all.
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Agent, interceptors, request } from 'undici';

const pool = new Agent().compose(interceptors.redirect({ maxRedirections: 20 }));

/** Decoders of the content codings fetch decodes (undici's own decompress interceptor is experimental). */
const DECODE: Record<string, (data: Buffer) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

export interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * Sends one request and reads its whole answer as text. `chunked`: the body goes out with
 * `Transfer-Encoding: chunked` and no `Content-Length`, in two chunks (undici frames a body of no
 * known length so), as a client that streams its body sends it.
 */
export async function send(
  method: string,
  url: URL,
  headers: Record<string, string>,
  body: string | undefined,
  chunked = false,
): Promise<WireAnswer> {
  const sent = chunked && body !== undefined ? inTwoChunks(body) : body;
  const res = await request(url, { method, headers: withAccept(headers), body: sent, dispatcher: pool });
  const received: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers))
    if (value !== undefined) received[name] = Array.isArray(value) ? value.join(', ') : value;
  const codings = (received['content-encoding'] ?? '').split(',').map((c) => c.trim().toLowerCase());
  if (!codings.some((c) => DECODE[c]))
    return { status: res.statusCode, headers: received, text: await res.body.text() };
  let data: Buffer = Buffer.from(await res.body.arrayBuffer());
  for (const c of codings.reverse()) data = DECODE[c]?.(data) ?? data;
  return { status: res.statusCode, headers: received, text: data.toString('utf8') };
}

/** The body as a stream of two chunks (a split inside a character is the UTF-8 bytes' own). */
function inTwoChunks(body: string): Readable {
  const bytes = Buffer.from(body);
  const half = Math.ceil(bytes.length / 2);
  return Readable.from([bytes.subarray(0, half), bytes.subarray(half)]);
}

/** `headers` with fetch's default `accept` (any type) unless the test sends its own. */
function withAccept(headers: Record<string, string>): Record<string, string> {
  return Object.keys(headers).some((k) => k.toLowerCase() === 'accept') ? headers : { accept: '*/*', ...headers };
}

/**
 * `headers` with filler fields (`x-filler-1: 1`, ...) so that the request puts exactly `count` header
 * fields on the wire, counting the ones added on the way: `accept` (send), `host`, `connection` and,
 * with a body or a method that expects one, `content-length` (undici). For a documented limit on
 * header fields (431 past 100), shown on both sides of it; wire.test.ts counts them at a server.
 */
export function fillHeaderFields(
  count: number,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Record<string, string> {
  const sent = withAccept(headers);
  const names = new Set(Object.keys(sent).map((k) => k.toLowerCase()));
  const length = Boolean(body) || ['POST', 'PUT', 'PATCH'].includes(method.toUpperCase());
  const added = ['host', 'connection', ...(length ? ['content-length'] : [])].filter((n) => !names.has(n));
  const fillers = count - names.size - added.length;
  if (fillers < 0) throw new Error(`the request has ${count - fillers} header fields on the wire, more than ${count}`);
  return { ...sent, ...Object.fromEntries(Array.from({ length: fillers }, (_, i) => [`x-filler-${i + 1}`, '1'])) };
}
