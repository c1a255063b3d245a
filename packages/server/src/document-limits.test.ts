// Every limit the document states is the one the server applies (issue 24, point 3). The document
// is the contract; its introduction said 8 bodies in progress per IP while the server allowed 32,
// changed in code alone. Here each limit is read from the document's prose (and the README's
// table of the reference server) and compared with the constant the server applies, or, where the
// server reads the limit from the document itself (`x-rate-limit`, `x-body-limit`), the prose with
// that value. A limit changed on one side only fails here.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  BYTES_PER_CHARACTER,
  FORM_DEPTH,
  FORM_PARAMETERS,
  GENERAL_LIMIT,
  HEADERS_TIMEOUT_MS,
  MAX_HEADER_BYTES,
  MAX_HEADER_FIELDS,
  REQUEST_TIMEOUT_MS,
  readDocument,
  SLACK_BYTES,
} from '@marketplace/contract';
import { describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME_SECONDS } from './auth/jwt.ts';
import { ANONYMOUS_BODY_LIMIT, ANONYMOUS_UPLOADS, UPLOAD_RETRY_AFTER } from './http/app.ts';

const document = readDocument();
const introduction: string = document.info.description;
const login = document.paths['/user/login'].post;
const globalBodyMessage: string = document['x-global-error-messages'].find(
  (m: { message: string }) => m.message === 'Invalid request body',
).condition;
const protocolErrors: string = document['x-protocol-errors'].map((e: { condition: string }) => e.condition).join('\n');
const readme = readFileSync(resolve(import.meta.dirname, '../../../README.md'), 'utf8');
/** The README's section on the reference server, up to the next section. */
const readmeServer = readme.slice(
  readme.indexOf('## The reference server'),
  readme.indexOf('\n## ', readme.indexOf('## The reference server') + 1),
);

/** The numbers `pattern` captures in `text`, where it must match exactly once (`1,024` is 1024). */
function stated(text: string, pattern: RegExp): number[] {
  const matches = [...text.matchAll(new RegExp(pattern.source, `${pattern.flags}g`))];
  expect(matches, `${pattern} should match once`).toHaveLength(1);
  return matches[0]!.slice(1).map((n) => Number(n.replaceAll(',', '')));
}

const attachmentLimit: number = document.paths['/support/create'].post['x-body-limit'];
const loginRule = (scope: string) =>
  (login['x-rate-limit'] as { limit: number; window: number; scope: string }[]).find((r) => r.scope === scope)!;
const [perIp, perKey] = [loginRule('ip'), loginRule('apiKey')];

// Each limit: where it is stated, and the numbers the server applies as that text states them.
const limits: [string, [string, RegExp, number[]][]][] = [
  [
    'requests with an API JWT per user, route and method',
    [
      [introduction, /About (\d+) requests per (\d+)-second window/, [GENERAL_LIMIT.limit, GENERAL_LIMIT.window]],
      [
        readmeServer,
        /\| requests with an API JWT, per user, route and method \| (\d+) per (\d+) s \|/,
        [GENERAL_LIMIT.limit, GENERAL_LIMIT.window],
      ],
    ],
  ],
  [
    'login attempts per IP and per API key (the route reads x-rate-limit)',
    [
      [
        login.description.replace(/\s+/g, ' '),
        /at most (\d+) attempts answered `Invalid API key` per IP in (\d+) minutes, and at most (\d+) attempts with one API key in (\d+) minutes/,
        [perIp.limit, perIp.window / 60, perKey.limit, perKey.window / 60],
      ],
      [
        readmeServer,
        /\| login attempts \| (\d+) refused keys per IP and (\d+) attempts per API key, each in (\d+) s \|/,
        [perIp.limit, perKey.limit, perIp.window],
      ],
    ],
  ],
  [
    'the body rule: bytes a character, room around the fields',
    [
      [introduction, /(\d+) bytes per character[\s\S]*?plus ([\d,]+) bytes\./, [BYTES_PER_CHARACTER, SLACK_BYTES]],
      [readmeServer, /(\d+) bytes a character, plus ([\d,]+) bytes/, [BYTES_PER_CHARACTER, SLACK_BYTES]],
    ],
  ],
  [
    'the support attachments (the routes read x-body-limit)',
    [
      [introduction, /carrying an attachment:\s+([\d,]+) bytes/, [attachmentLimit]],
      [readmeServer, /the support attachments: ([\d,]+) bytes/, [attachmentLimit]],
    ],
  ],
  [
    'a body from a caller without a JWT',
    [
      [introduction, /Callers without a JWT send at most ([\d,]+) bytes/, [ANONYMOUS_BODY_LIMIT]],
      [readmeServer, /\| body from a caller without a JWT \| ([\d,]+) bytes \|/, [ANONYMOUS_BODY_LIMIT]],
    ],
  ],
  [
    'bodies arriving at once per IP without a JWT, and the wait after them',
    [
      [
        introduction,
        /may have at most (\d+) bodies arriving at once per IP[\s\S]*?429 \(`Retry-After: (\d+)`\)/,
        [ANONYMOUS_UPLOADS, UPLOAD_RETRY_AFTER],
      ],
      [
        readmeServer,
        /\| bodies arriving at once from one IP without a JWT \| (\d+); the next gets 429 with `Retry-After: (\d+)` \|/,
        [ANONYMOUS_UPLOADS, UPLOAD_RETRY_AFTER],
      ],
    ],
  ],
  [
    'form bodies: depth and parameters',
    [
      [
        introduction,
        /Form bodies nest at most (\d+)\s+levels and hold at most ([\d,]+) parameters/,
        [FORM_DEPTH, FORM_PARAMETERS],
      ],
      [
        globalBodyMessage,
        /nests a form deeper than (\d+) levels or holds more than ([\d,]+) form parameters/,
        [FORM_DEPTH, FORM_PARAMETERS],
      ],
      [readmeServer, /\| form bodies \| (\d+) levels deep, ([\d,]+) parameters \|/, [FORM_DEPTH, FORM_PARAMETERS]],
    ],
  ],
  [
    'a whole request, its headers',
    [
      [
        introduction,
        /must arrive within (\d+) seconds,\s+its headers within (\d+) seconds/,
        [REQUEST_TIMEOUT_MS / 1000, HEADERS_TIMEOUT_MS / 1000],
      ],
      [
        readmeServer,
        /\| a whole request, its headers \| (\d+) s, (\d+) s \|/,
        [REQUEST_TIMEOUT_MS / 1000, HEADERS_TIMEOUT_MS / 1000],
      ],
    ],
  ],
  [
    'request headers: bytes and fields',
    [
      [
        introduction,
        /for headers over ([\d,]+) bytes or more than (\d+)\s+header fields/,
        [MAX_HEADER_BYTES, MAX_HEADER_FIELDS],
      ],
      [
        protocolErrors,
        /headers over ([\d,]+) bytes or more than (\d+) header fields/,
        [MAX_HEADER_BYTES, MAX_HEADER_FIELDS],
      ],
      [readmeServer, /\| request headers \| ([\d,]+) bytes, (\d+) fields;/, [MAX_HEADER_BYTES, MAX_HEADER_FIELDS]],
    ],
  ],
  [
    'JWT lifetime',
    [
      [introduction, /When the JWT expires \(about (\d+) days\)/, [TOKEN_LIFETIME_SECONDS / 86_400]],
      [readmeServer, /\| JWT lifetime \| (\d+) days \|/, [TOKEN_LIFETIME_SECONDS / 86_400]],
    ],
  ],
];

describe('the limits the document states', () => {
  it.each(limits)('%s: the document and the README state what the server applies', (_name, places) => {
    for (const [text, pattern, applied] of places) expect(stated(text, pattern), String(pattern)).toEqual(applied);
  });

  it('the support routes read the attachment limit the introduction states', () => {
    expect(document.paths['/support/post'].post['x-body-limit']).toBe(attachmentLimit);
  });
});
