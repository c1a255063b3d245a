// Requests a program answers before any operation (protocol-errors.ts), sent over a raw socket as a
// broken client or a scanner would send them, with the document's answer to each: checked on each
// program that installs the layer, the reference server (its http/protocol-errors.test.ts) and the
// mock (its protocol-errors.test.ts). The program under test runs with a headers timeout of a few
// seconds at most (the last case waits for it).
import { connect } from 'node:net';
import { NOT_FOUND, PROTOCOL } from './messages.ts';
import { MAX_HEADER_BYTES, MAX_HEADER_FIELDS } from './protocol-errors.ts';

/** Sends `raw` (then `more` once the server has answered anything) and resolves with all it answered, once it closes. */
export function sendRaw(port: number, raw: string, more?: string): Promise<string> {
  return new Promise((done, fail) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    socket.setTimeout(20_000, () => {
      socket.destroy();
      fail(new Error(`no close; answer so far: ${answer.slice(0, 200)}`));
    });
    socket.on('data', (chunk) => {
      if (!answer && more) socket.write(more);
      answer += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => done(answer));
  });
}

/** Status, `Connection` header and JSON body of the last answer in `text` (after a `100 Continue`). */
export function lastAnswer(text: string) {
  const answers = text.split(/(?=HTTP\/1\.1 )/);
  const [head = '', body = ''] = answers.at(-1)!.split('\r\n\r\n');
  return {
    status: Number(head.split(' ')[1]),
    connection: /^connection: (.*)$/im.exec(head)?.[1]?.toLowerCase(),
    body: JSON.parse(body),
  };
}

/** What lastAnswer reads from an answer in envelope A that closes the connection. */
export const closingEnvelope = (status: number, content: string) => ({
  status,
  connection: 'close',
  body: { err: true, success: false, content },
});

/** A request's head: its line, then its header fields (`Host: x` by default). */
export const rawRequest = (line: string, headers: string[] = ['Host: x']) =>
  `${line}\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`;

/** Requests Node would answer bare (or not at all): name, what is sent, the documented status and message. */
export const PROTOCOL_ERROR_CASES: [string, string, number, string][] = [
  [
    `headers over ${MAX_HEADER_BYTES} bytes`,
    rawRequest('GET /item/listing/1 HTTP/1.1', ['Host: x', `X-Big: ${'a'.repeat(MAX_HEADER_BYTES)}`]),
    431,
    PROTOCOL.headersTooLarge,
  ],
  [
    `more than ${MAX_HEADER_FIELDS} header fields`,
    rawRequest('GET /item/listing/1 HTTP/1.1', [
      'Host: x',
      ...Array.from({ length: MAX_HEADER_FIELDS }, (_, i) => `h${i}: 1`),
    ]),
    431,
    PROTOCOL.headersTooLarge,
  ],
  [
    // Past the server's count (MAX_HEADER_FIELDS + 1) Node's parser refuses the request itself.
    `${MAX_HEADER_FIELDS + 6} header fields, refused by Node's parser`,
    rawRequest('GET /item/listing/1 HTTP/1.1', [
      'Host: x',
      ...Array.from({ length: MAX_HEADER_FIELDS + 5 }, (_, i) => `h${i}: 1`),
    ]),
    431,
    PROTOCOL.headersTooLarge,
  ],
  ['a malformed request line', 'GARBAGE\r\n\r\n', 400, PROTOCOL.badRequest],
  ['a method HTTP does not define', rawRequest('FOO /user/balance HTTP/1.1'), 400, PROTOCOL.badRequest],
  ['HTTP/3.0', rawRequest('GET /item/listing/1 HTTP/3.0'), 400, PROTOCOL.badRequest],
  ['the HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 400, PROTOCOL.badRequest],
  [
    'an HTTP/1.1 request without Host',
    rawRequest('GET /item/listing/1 HTTP/1.1', ['Connection: keep-alive']),
    400,
    PROTOCOL.badRequest,
  ],
  [
    'both Content-Length and Transfer-Encoding',
    rawRequest('POST /user/login HTTP/1.1', ['Host: x', 'Content-Length: 2', 'Transfer-Encoding: chunked']) +
      '0\r\n\r\n',
    400,
    PROTOCOL.badRequest,
  ],
  [
    'a malformed chunked body',
    `${rawRequest('POST /user/login HTTP/1.1', ['Host: x', 'Content-Type: application/json', 'Transfer-Encoding: chunked'])}ZZ\r\nabc\r\n`,
    400,
    PROTOCOL.badRequest,
  ],
  [
    'an Expect other than 100-continue',
    rawRequest('POST /user/login HTTP/1.1', ['Host: x', 'Expect: teapot', 'Content-Length: 0']),
    417,
    PROTOCOL.expectationFailed,
  ],
  ['CONNECT', rawRequest('CONNECT example.com:443 HTTP/1.1', ['Host: example.com:443']), 404, NOT_FOUND],
  ['a headers timeout', 'GET /item/listing/1 HTTP/1.1\r\nHost: x\r\n', 408, PROTOCOL.timeout],
];
