// Answers to requests a server cannot read as HTTP, given before any operation is matched
// (issue 24, point 4), the same on the reference server and the mock (issue 23, ADR 0026). Node
// answers these itself with a bare status line and no body (431 for large headers, 400 for a
// malformed request, 408 for a slow one, 417 for an unknown `Expect`) or not at all (`CONNECT`);
// here each is the document's answer (`x-protocol-errors`) in envelope A, with `Connection: close`.
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { LINGER_MS } from './body-reader.ts';
import { NOT_FOUND, PROTOCOL } from './messages.ts';

/** Header fields a request may have: more gets 431 (Node would drop those past its count silently). */
export const MAX_HEADER_FIELDS = 100;
/** Bytes of request line and headers (Node's `maxHeaderSize`, stated by the document). */
export const MAX_HEADER_BYTES = 16_384;
/** The document's bounds on a slow request ("Request bodies"): all of it in 60 s, its headers in 10 s. */
export const REQUEST_TIMEOUT_MS = 60_000;
export const HEADERS_TIMEOUT_MS = 10_000;

type App = (req: IncomingMessage, res: ServerResponse) => void;

export interface ProtocolTimeouts {
  /** REQUEST_TIMEOUT_MS by default. */
  requestTimeout?: number;
  /** HEADERS_TIMEOUT_MS by default (never more than `requestTimeout`). */
  headersTimeout?: number;
}

/** A whole HTTP answer in envelope A, for a socket no response object owns. */
export function protocolAnswer(status: number, message: string): string {
  const body = JSON.stringify({ err: true, success: false, content: message });
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** Writes `answer` and closes the connection, dropping it LINGER_MS later (the answer's time to arrive). */
function answerAndClose(socket: Duplex, answer: string): void {
  if (socket.writable) socket.end(answer);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** The status and message Node's parser error `code` gets. */
function answerTo(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, PROTOCOL.headersTooLarge];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, PROTOCOL.timeout];
  return [400, PROTOCOL.badRequest];
}

/** Sends a response object's answer in envelope A and closes the connection. */
function sendProtocolError(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ err: true, success: false, content: message });
  res
    .writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    })
    .end(body);
}

/**
 * Refuses, in the request's first middleware (the gate's guard), what Node lets through but the
 * document does not: an HTTP/1.1 request without `Host` (Node's own check answers a bare 400, so
 * protocolServer turns it off) and more header fields than MAX_HEADER_FIELDS. Returns whether the
 * request was answered.
 */
export function refuseMalformed(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.rawHeaders.length / 2 > MAX_HEADER_FIELDS) sendProtocolError(res, 431, PROTOCOL.headersTooLarge);
  else if (req.httpVersion === '1.1' && req.headers.host === undefined)
    sendProtocolError(res, 400, PROTOCOL.badRequest);
  else return false;
  return true;
}

/**
 * Makes the server answer in the document's terms what Node would answer bare: parser errors and
 * timeouts, `Expect` headers, `CONNECT`. `Expect: 100-continue` goes to the application without
 * Node's immediate `100 Continue`: the body reader sends it when it is about to read, so a refused
 * caller is answered before sending its body.
 */
export function answerProtocolErrors(server: Server, app: App): void {
  server.maxHeadersCount = MAX_HEADER_FIELDS + 1; // one more than allowed, so refuseMalformed sees the excess
  // The last response on each socket: an answer must not be written into one in progress. One that
  // has ended is done, its bytes queued on the socket before the answer: a kept-alive connection's
  // next request that fails parsing (more than 100 header fields) is answered, not closed bare.
  const inFlight = new WeakMap<Duplex, ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => inFlight.set(req.socket, res));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const last = inFlight.get(socket);
    if (last?.headersSent && !last.writableEnded) return void socket.destroy();
    answerAndClose(socket, protocolAnswer(...answerTo(error.code)));
  });
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) =>
    sendProtocolError(res, 417, PROTOCOL.expectationFailed),
  );
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    inFlight.set(req.socket, res);
    app(req, res);
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) =>
    answerAndClose(socket, protocolAnswer(404, NOT_FOUND)),
  );
}

/**
 * An HTTP server for `app` (not yet listening) with the document's limits and protocol answers:
 * the request and headers timeouts, so a stalled upload is cut (408, connection closed) instead of
 * holding its buffer, checked every second at most (Node's default interval, 30 s, is longer than
 * the headers timeout); MAX_HEADER_BYTES; and answerProtocolErrors. The app's first middleware is
 * the gate's guard, which applies refuseMalformed.
 */
export function protocolServer(
  app: App,
  { requestTimeout = REQUEST_TIMEOUT_MS, headersTimeout = HEADERS_TIMEOUT_MS }: ProtocolTimeouts = {},
): Server {
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(headersTimeout, requestTimeout),
      connectionsCheckingInterval: Math.min(1000, headersTimeout, requestTimeout),
      maxHeaderSize: MAX_HEADER_BYTES,
      // Checked by the guard, which answers in the envelope (Node's answer is a bare 400).
      requireHostHeader: false,
    },
    app,
  );
  answerProtocolErrors(server, app);
  return server;
}
