// The contract check applied to every response the suite sees: the status is documented for the
// operation (or is one of the shared 403/404/429/500 answers, or a protocol answer of
// `x-protocol-errors` with its message), the body is JSON in the documented envelope and validates
// against the documented schema (Ajv, JSON Schema 2020-12, on the bundled document), a 429 carries
// the four integer rate-limit headers, and a business error's message is one the operation (or the
// document, globally) lists.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { deref, document, findOperation, globalMessages, type Json, protocolErrors } from './document.ts';
import { apiPath } from './target-url.ts';

// Built on the first check: a process that imports this module for something else (the CLI's
// reports read `templateRegex`) does not pay for adding the whole document to Ajv (about 1 s of CPU
// on a loaded 2-core machine).
let ajv: Ajv2020 | undefined;
function documentAjv(): Ajv2020 {
  if (ajv) return ajv;
  // No optimising pass over the generated code: the suite compiles about a hundred response schemas
  // and runs each a few dozen times; without the pass, compiling them all took about 0.9 s of CPU
  // instead of 1.3 s, and checking the document's examples took no longer (issue 32).
  ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, code: { optimize: false } });
  addFormats.default(ajv);
  ajv.addSchema({ ...document, $id: 'doc' }, 'doc');
  return ajv;
}

const validators = new Map<string, ValidateFunction>();
function validatorFor(pointer: string): ValidateFunction {
  let v = validators.get(pointer);
  if (!v) {
    v = documentAjv().compile({ $ref: `doc#${pointer}` });
    validators.set(pointer, v);
  }
  return v;
}

const pointerEscape = (p: string) => p.replaceAll('~', '~0').replaceAll('/', '~1');

/** A message template (`invalid deposit key for assetId: <asset_id>`) as a regular expression. */
export function templateRegex(message: string): RegExp {
  return new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<[a-z_]+>/gi, '.+')}$`);
}

/** A request and its answer as the suite recorded them (its client, the proxy): what `checkResponse` judges. */
export interface RecordedExchange {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
  contentType: string;
}

const SHARED = ['403', '404', '429', '500'];

/**
 * Every way a recorded exchange breaks the document; empty when it conforms. `target`: the base URL
 * the exchange was sent to, when it has a path of its own (a sandbox's `/sandboxes/<id>`).
 */
export function checkResponse(exchange: RecordedExchange, target?: string | URL): string[] {
  const path = apiPath(new URL(exchange.url), target);
  const found = findOperation(exchange.method, path);
  if (!found)
    return exchange.status === 404
      ? []
      : [`${exchange.method} ${path} is not in the document but answered ${exchange.status}`];
  const status = String(exchange.status);
  const documented = found.op.responses[status];
  const protocol = protocolErrors.find((p) => p.status === exchange.status);
  if (!documented && protocol) return protocolAnswerProblems(exchange, protocol.message);
  if (!documented && !SHARED.includes(status)) return [`status ${status} is not documented for ${found.name}`];
  if (exchange.status === 429) {
    const missing = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'].filter(
      (h) => !/^\d+$/.test(exchange.headers[h] ?? ''),
    );
    if (missing.length) return [`429 without integer ${missing.join(', ')}`];
  }
  const SHARED_NAMES: Record<string, string> = {
    403: 'Forbidden',
    404: 'NotFound',
    429: 'TooManyRequests',
    500: 'InternalError',
  };
  const raw = documented ?? { $ref: `#/components/responses/${SHARED_NAMES[status]}` };
  const response = deref(raw);
  const media = Object.keys(response?.content ?? {});
  const type = exchange.contentType.split(';')[0]!.trim();
  if (media.length && !media.includes(type)) return [`content type ${type} is not documented (${media.join(', ')})`];
  if (type !== 'application/json') return [];
  // The schema's JSON pointer: through the shared response when the operation references one.
  const where =
    typeof raw.$ref === 'string'
      ? raw.$ref.slice(1)
      : `/paths/${pointerEscape(found.path)}/${found.method.toLowerCase()}/responses/${status}`;
  const validate = validatorFor(`${where}/content/application~1json/schema`);
  if (!validate(exchange.body)) {
    return (validate.errors ?? []).slice(0, 3).map((e) => `body${e.instancePath} ${e.message}`);
  }
  if (exchange.status === 300) {
    const message = errorMessage(exchange.body);
    const listed: { message: string; type?: string }[] = [...(found.op['x-error-messages'] ?? []), ...globalMessages];
    const known = listed.some((m) =>
      typeof message === 'string'
        ? templateRegex(m.message).test(message)
        : m.type !== undefined && m.type === (message as Json)?.type,
    );
    if (!known) return [`300 message ${JSON.stringify(message)} is not documented for ${found.name}`];
  }
  return [];
}

/**
 * How an answer of `x-protocol-errors` breaks the document: any request may get one, before its
 * operation is matched ("in envelope A", with the listed message), so no operation lists it.
 */
function protocolAnswerProblems(exchange: RecordedExchange, message: string): string[] {
  const type = exchange.contentType.split(';')[0]!.trim();
  if (type !== 'application/json') return [`content type ${type} is not documented (application/json)`];
  const validate = validatorFor('/components/schemas/EnvelopeAError');
  if (!validate(exchange.body))
    return (validate.errors ?? []).slice(0, 3).map((e) => `body${e.instancePath} ${e.message}`);
  const content = (exchange.body as Json).content;
  return content === message
    ? []
    : [
        `${exchange.status} message ${JSON.stringify(content)} is not the document's protocol answer ${JSON.stringify(message)}`,
      ];
}

/** The message of an error body in either envelope. */
export function errorMessage(body: unknown): unknown {
  const b = body as Json;
  return b?.message ?? b?.content;
}

/** The text of an error message, also when it is an object `{type, message}`. */
export function messageText(message: unknown): string | undefined {
  if (typeof message === 'string') return message;
  const text = (message as Json)?.message;
  return typeof text === 'string' ? text : undefined;
}
