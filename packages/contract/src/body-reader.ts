// The request body, read by us and never past its limit (issue 24, point 1). Express's readers
// (body-parser) read the rest of a refused body before answering, to keep the connection: an
// endless chunked upload was read for as long as its sender kept sending. Here the moment a body
// passes its limit (or its Content-Length already does) reading stops, the socket is paused and
// the answer goes out with `Connection: close`, so Node neither reads nor keeps the connection.
// Parsing keeps body-parser's rules (strict JSON, an empty body as `{}`, qs with a bounded depth
// and parameter count, UTF charsets, gzip/deflate/br bodies) so answers do not change.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import qs from 'qs';

/** Form bodies: the parser's own bounds, named so the document can state them. */
export const FORM_DEPTH = 32;
export const FORM_PARAMETERS = 1000;

/** A refusal of the body, shaped as body-parser's errors (`status`, `type`) so one mapping answers both. */
export class BodyError extends Error {
  readonly status: number;
  readonly type: string;
  constructor(status: number, type: string, message: string) {
    super(message);
    this.status = status;
    this.type = type;
  }
}

const tooLarge = () => new BodyError(413, 'entity.too.large', 'request entity too large');

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

const decompressors: Record<string, (body: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/** How long a cut connection stays half-closed before it is dropped: its answer's time to arrive. */
export const LINGER_MS = 500;

/**
 * Cuts a request whose body is not read (refused before reading, over its limit): reading stops
 * for good and the answer that follows carries `Connection: close`. Node would read the rest of
 * the body to keep the connection or to discard it (`resume` after the answer): on this socket
 * nothing resumes reading any more. After the answer the connection is half-closed and dropped
 * LINGER_MS later, not at once (Go's net/http waits 500 ms the same way): closing a socket with
 * unread bytes sends a reset, which can destroy an answer still on its way to a client that keeps
 * sending. Unread bytes wait in the kernel meanwhile.
 */
export function cutBody(req: IncomingMessage, res: ServerResponse): void {
  req.removeAllListeners('data');
  req.pause();
  res.setHeader('Connection', 'close');
  const socket = req.socket;
  if (!socket || socket.destroyed) return;
  socket.pause();
  socket.resume = () => socket;
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

/** Whether a request sends body bytes: a length above 0, or a transfer encoding. */
const sendsBytes = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;

const guarded = new WeakSet<IncomingMessage>();

/**
 * Guards a request's body from its first middleware: nothing of it is read until a reader asks
 * (Node would read on while the caller is identified, up to its stream buffer past the read that
 * carried the headers), and an answer that leaves before the whole body has arrived (a refusal, a
 * route that takes no body) cuts it, instead of Node reading the rest to keep the connection.
 */
export function guardBody(req: IncomingMessage, res: ServerResponse): void {
  // Once per request: a sandbox's server (sandboxes.ts) gets the request its front has guarded.
  if (!sendsBytes(req) || guarded.has(req)) return;
  guarded.add(req);
  req.socket?.pause();
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (!req.complete) cutBody(req, this);
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
}

/**
 * Lets a held body flow again. Resolves once the socket's deferred `resume` has happened: a pause
 * before it (a cut) would be undone by it, and the socket read on.
 */
function release(socket: Socket | null): Promise<void> {
  if (socket?.readableFlowing !== false || socket.destroyed) return Promise.resolve();
  return new Promise((done) => {
    const resumed = () => {
      socket.off('close', resumed);
      socket.off('resume', resumed);
      done();
    };
    socket.once('resume', resumed);
    socket.once('close', resumed);
    socket.resume();
  });
}

/**
 * Reads a body of at most `limit` bytes. Rejects with a 413 `BodyError` as soon as the declared
 * length or the bytes received pass the limit (the body cut), or with a `request.aborted` error
 * when the client goes away.
 */
export async function readBounded(req: IncomingMessage, res: ServerResponse, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) {
    cutBody(req, res);
    throw tooLarge();
  }
  // A client waiting for `100 Continue` sends its body now (the server does not send it earlier).
  if (req.headers.expect?.toLowerCase() === '100-continue' && !res.headersSent) res.writeContinue();
  await release(req.socket);
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= limit) return void chunks.push(chunk);
      cleanup();
      cutBody(req, res);
      fail(tooLarge());
    };
    const onEnd = () => {
      cleanup();
      done(Buffer.concat(chunks, bytes));
    };
    const onClose = () => {
      cleanup();
      fail(new BodyError(400, 'request.aborted', 'request aborted'));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onClose);
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onClose);
    req.once('error', onClose);
  });
}

/** The charset parameter of the request's content type, lower case, or undefined. */
const charsetOf = (req: Request): string | undefined =>
  /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();

/** The bytes of a JSON body as text: a UTF charset (RFC 8259) that the platform decodes. */
function jsonText(bytes: Buffer, charset = 'utf-8'): string {
  if (!charset.startsWith('utf-')) throw new BodyError(415, 'charset.unsupported', `unsupported charset ${charset}`);
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    throw new BodyError(415, 'charset.unsupported', `unsupported charset ${charset}`);
  }
}

/** body-parser's strict JSON: an object or array at the top, an empty body taken as `{}`. */
function parseJson(text: string): unknown {
  if (text.length === 0) return {};
  const first = /^[ \t\n\r]*(.)/.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw new BodyError(400, 'entity.parse.failed', 'not a JSON object or array');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BodyError(400, 'entity.parse.failed', (error as Error).message);
  }
}

/** The fields of a form (`&`-separated), counted up to one past FORM_PARAMETERS. */
function countFields(text: string): number {
  let count = 1;
  for (let at = text.indexOf('&'); at !== -1 && count <= FORM_PARAMETERS; at = text.indexOf('&', at + 1)) count++;
  return count;
}

/** A form body with body-parser's `extended` rules, refusing deeper nesting and more fields. */
function parseForm(bytes: Buffer, charset = 'utf-8'): unknown {
  if (charset !== 'utf-8' && charset !== 'iso-8859-1')
    throw new BodyError(415, 'charset.unsupported', `unsupported charset ${charset}`);
  const text = bytes.toString(charset === 'utf-8' ? 'utf8' : 'latin1');
  if (text.length === 0) return {};
  const fields = countFields(text);
  if (fields > FORM_PARAMETERS) throw new BodyError(413, 'parameters.too.many', 'too many parameters');
  try {
    return qs.parse(text, {
      allowPrototypes: true,
      arrayLimit: Math.max(100, fields),
      depth: FORM_DEPTH,
      strictDepth: true,
      parameterLimit: FORM_PARAMETERS,
      charset,
    });
  } catch (error) {
    if (error instanceof RangeError) throw new BodyError(400, 'querystring.parse.rangeError', error.message);
    throw error;
  }
}

/**
 * Reads and parses a JSON or form body of at most `limit` bytes into `req.body`, then calls
 * `next`; a refusal goes to `next(error)`. A body over its limit is cut at once; one it does not
 * read (of an unknown type, encoding or charset, or sent to an operation that takes none: `limit`
 * undefined) is cut by its answer (`guardBody`).
 */
export function readBody(limit: number | undefined, req: Request, res: Response, next: NextFunction): void {
  // Nothing sent and no type named (`curl -X POST`): no body; a typed empty one is parsed (`{}`).
  // Answered at once, with no promise: most requests (every GET) have nothing to read.
  if (limit === undefined || (!sendsBytes(req) && req.headers['content-type'] === undefined)) next();
  else void readSent(limit, req, res, next);
}

/** `readBody` of a request that sends a body or names its type. */
async function readSent(limit: number, req: Request, res: Response, next: NextFunction): Promise<void> {
  const type = req.is([JSON_TYPE, FORM_TYPE]);
  if (!type) return next(new BodyError(415, 'entity.unsupported', 'unsupported content type'));
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  const decompress = decompressors[encoding];
  if (encoding !== 'identity' && !decompress)
    return next(new BodyError(415, 'encoding.unsupported', `unsupported content encoding ${encoding}`));
  const charset = charsetOf(req);
  try {
    const bytes = await readBounded(req, res, limit);
    // The inflated body is bounded like the bytes sent: a small bomb is refused, not expanded.
    const plain = decompress ? await decompress(bytes, { maxOutputLength: limit }).catch(inflateError) : bytes;
    req.body = type === JSON_TYPE ? parseJson(jsonText(plain, charset)) : parseForm(plain, charset);
  } catch (error) {
    return next(error);
  }
  next();
}

const inflateError = (error: unknown): never => {
  if (error instanceof RangeError) throw tooLarge();
  throw new BodyError(400, 'entity.parse.failed', (error as Error).message);
};
