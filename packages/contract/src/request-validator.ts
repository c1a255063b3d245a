// The request check of an operation: what express-openapi-validator's request step
// (middlewares/openapi.request.validator.js with parsers/req.parameter.mutator.js) does on every
// request, prepared here once per operation. The library's step builds a parameter mutator per
// request, dereferences and re-normalises every parameter, parses the content type twice and joins
// a cache key: the largest item left in a validated GET's profile (ADR 0040). Here an operation's
// plan (how its parameters are shaped, its Ajv validators) is made on its first request, and a
// request does only what its operation declares.
//
// What decides an answer stays the library's: the Ajv instances with its options, formats and
// keywords (`createRequestAjv`, one coercing parameters by their schema type, one for bodies, as
// its step makes them), the schemas (its parameter and body parsers, on its prepared copy of the
// document), the media-type match and its 415, and its errors (`augmentAjvErrors`,
// `ajvErrorsToValidatorError`, `BadRequest`). A refused request carries the errors it carried
// before, in the same order, so request-rules.ts gives it the same documented message.
//
// Parameter shapes the documents do not use (a parameter of `content`, an object or xOf query
// parameter, a cookie, an array style without a delimiter), bodies they do not take (multipart, a
// wildcard media type, a discriminator) and unknown query parameters refused: an operation with any
// of these is checked by the library's own step, as before.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { createRequestAjv } from 'express-openapi-validator/dist/framework/ajv/index.js';
import type { AjvInstance } from 'express-openapi-validator/dist/framework/types.js';
import { BodySchemaParser } from 'express-openapi-validator/dist/middlewares/parsers/body.parse.js';
import { ParametersSchemaParser } from 'express-openapi-validator/dist/middlewares/parsers/schema.parse.js';
import { dereferenceParameter, normalizeParameter } from 'express-openapi-validator/dist/middlewares/parsers/util.js';
import {
  ajvErrorsToValidatorError,
  augmentAjvErrors,
  ContentType,
} from 'express-openapi-validator/dist/middlewares/util.js';
import qs from 'qs';
import type { Json } from './document.ts';

type Validate = ReturnType<AjvInstance['compile']>;

/** Where a parameter's value is in the request (the library's REQUEST_FIELDS). */
const FIELDS: Record<string, 'query' | 'headers' | 'params'> = { query: 'query', header: 'headers', path: 'params' };

/** The delimiter of a non-exploded array parameter, by style. */
const ARRAY_DELIMITER: Record<string, string> = { simple: ',', form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

/** Characters a query value must send encoded unless its parameter allows them (`allowReserved`). */
const RESERVED_CHARS = /[:/?#[\]@!$&'()*+,;=]/;

/** Header values whose body check is kept per operation (the header is the client's: bounded). */
const KEPT_MEDIA_TYPES = 32;

/** A query parameter whose raw value must not hold reserved characters (commas allowed when not exploded). */
interface ReservedCheck {
  name: string;
  allowComma: boolean;
}

/** An array parameter's value made an array: split on its style's delimiter, or a lone value wrapped. */
interface ArrayShape {
  name: string;
  field: 'query' | 'headers' | 'params';
  delimiter?: string;
}

/** An operation's request check, made on its first request. */
interface Plan {
  reserved: ReservedCheck[];
  arrays: ArrayShape[];
  /** The parameters' validator (coercing); none when the operation declares no parameter. */
  general?: Validate;
  /** The body's check by Content-Type header; none when the operation takes no body. */
  body?: Map<string, Validate | null>;
  /** The operation's schema and route, for a media type met the first time. */
  schema: Json;
  expressRoute: string;
}

/** The metadata step's part of a request (validators.ts): the operation's route and schema. */
interface OpenApiRequest extends Request {
  openapi?: { expressRoute: string; schema: Json };
}

/**
 * The request step for the validator's prepared copy of the document (`apiDoc`), with the options
 * the validator gives its own (`ajvOptions`); `libraryStep` builds the validator's own step, for
 * the operations this one leaves to it.
 */
export function requestValidation(apiDoc: Json, ajvOptions: Json, libraryStep: () => RequestHandler): RequestHandler {
  // As the library's RequestValidator: parameters are always coerced by their schema type (query,
  // path and header values arrive as strings), bodies only as the options say (here: not).
  const generalAjv = createRequestAjv(
    apiDoc,
    ajvOptions.coerceTypes ? ajvOptions : { ...ajvOptions, coerceTypes: true },
  );
  const bodyAjv = createRequestAjv(apiDoc, ajvOptions);
  const plans = new Map<object, Plan | null>();
  const bodyValidators = new WeakMap<object, Validate>();
  let fallback: RequestHandler | undefined;

  /** An operation's plan, or null for one the library's step checks. */
  function planOf(openapi: { expressRoute: string; schema: Json }): Plan | null {
    let plan = plans.get(openapi.schema);
    if (plan === undefined) {
      try {
        plan = makePlan(openapi.schema, openapi.expressRoute);
      } catch {
        plan = null; // a parameter the library's parser refuses: its step refuses it as before
      }
      plans.set(openapi.schema, plan);
    }
    return plan;
  }

  function makePlan(schema: Json, expressRoute: string): Plan | null {
    const allowUnknown = schema['x-eov-allow-unknown-query-parameters'] ?? schema['x-allow-unknown-query-parameters'];
    if (!(allowUnknown ?? ajvOptions.allowUnknownQueryParameters)) return null;
    if (expressRoute.endsWith('*')) return null;
    const content: Json = schema.requestBody?.content;
    for (const [type, media] of Object.entries<Json>(content ?? {}))
      if (type.includes('*') || type.startsWith('multipart/') || media?.schema?._discriminator) return null;

    const plan: Plan = { reserved: [], arrays: [], schema, expressRoute };
    for (const declared of schema.parameters ?? []) {
      const parameter = dereferenceParameter(apiDoc, declared);
      const field = FIELDS[parameter.in];
      if (!field || parameter.content) return null;
      const { name, schema: valueSchema } = normalizeParameter(generalAjv as never, parameter);
      const type = (valueSchema as Json)?.type;
      if (field === 'query' && isObjectOrXOf(valueSchema)) return null;
      if (type === 'array' && !parameter.explode) {
        const delimiter = ARRAY_DELIMITER[parameter.style ?? ''];
        if (!delimiter) return null;
        plan.arrays.push({ name, field, delimiter });
      } else if (type === 'array') plan.arrays.push({ name, field });
      else if (parameter.style === 'form' && parameter.explode && (type === 'object' || hasXOf(valueSchema)))
        return null;
      if (field === 'query' && !parameter.allowReserved) plan.reserved.push({ name, allowComma: !parameter.explode });
    }
    if (schema.parameters?.length) {
      const parameters = new ParametersSchemaParser(generalAjv as never, apiDoc).parse(expressRoute, schema.parameters);
      plan.general = generalAjv.compile({
        paths: apiDoc.paths,
        components: apiDoc.components,
        required: ['query', 'headers', 'params'],
        properties: { ...parameters, body: {} },
      });
    }
    if (content) plan.body = new Map();
    return plan;
  }

  /** The body's validator for a Content-Type header: null when nothing is checked; throws the library's 415. */
  function bodyCheck(plan: Plan, header: string | undefined): Validate | null {
    const body: Json = new BodySchemaParser().parse(
      plan.expressRoute,
      plan.schema,
      ContentType.fromString(header as string),
    );
    if (Object.keys(body).length === 0) return null; // no schema: the library's check of `{}` passes all
    let validate = bodyValidators.get(body);
    if (!validate) {
      const binary = body.format === 'binary';
      validate = bodyAjv.compile({
        paths: apiDoc.paths,
        components: apiDoc.components,
        properties: { query: {}, headers: {}, params: {}, cookies: {}, body: binary ? {} : body },
        // As the library's: a body is required when its schema requires fields.
        ...(body.required && !binary ? { required: ['body'] } : {}),
      });
      bodyValidators.set(body, validate);
    }
    return validate;
  }

  return function checkRequest(req: Request, res: Response, next: NextFunction) {
    const openapi = (req as OpenApiRequest).openapi;
    if (!openapi) return next(); // no operation of the document: nothing to check
    const plan = planOf(openapi);
    if (!plan) {
      fallback ??= libraryStep();
      return fallback(req, res, next);
    }
    let validateBody: Validate | null = null;
    if (plan.body) {
      const header = req.headers['content-type'];
      const key = header ?? '';
      const kept = plan.body.get(key);
      if (kept !== undefined) validateBody = kept;
      else {
        // An unsupported media type is refused before the parameters are looked at, as the library does.
        validateBody = bodyCheck(plan, header);
        if (plan.body.size < KEPT_MEDIA_TYPES) plan.body.set(key, validateBody);
      }
    }
    // Express 5 parses the query string on every read of `req.query`: read once, shaped, kept
    // (defined as the library defines it, so that its own step may define it again).
    // A URL without a query gives `{}` (qs of nothing): not parsed for that.
    const query = req.url.includes('?') ? bracketNotation(req.query ?? {}) : {};
    Object.defineProperty(req, 'query', { value: query, writable: true });
    if (plan.reserved.length > 0) refuseReserved(plan.reserved, req.originalUrl);
    for (const shape of plan.arrays) shapeArray(req, shape);

    const data = {
      query,
      headers: req.headers,
      params: req.params,
      cookies: req.cookies ? { ...req.cookies, ...req.signedCookies } : undefined,
      body: req.body,
    };
    const validParameters = plan.general ? plan.general(data) : true;
    const validBody = validateBody ? validateBody(data) : true;
    if (validParameters && validBody) return next();
    const errors = augmentAjvErrors([...(plan.general?.errors ?? []), ...(validateBody?.errors ?? [])] as never[]);
    const error = new OpenApiValidator.error.BadRequest({
      path: req.path,
      message: generalAjv.errorsText(errors, { dataVar: 'request' }),
    });
    error.errors = ajvErrorsToValidatorError(400, errors).errors;
    next(error);
  };
}

/**
 * Query keys the parser left with a bracket (`a[b=1`: nothing it could nest) are parsed again as
 * nested keys and replaced by their first segment, as the library's BracketNotationHandler does
 * (none of the documents names a parameter with a bracket).
 */
function bracketNotation(query: Json): Json {
  for (const key of Object.keys(query)) {
    if (!key.includes('[')) continue;
    const normalized = key.split('[')[0]!;
    const parsed: Json = qs.parse(`${key}=${query[key]}`);
    if (parsed[normalized] !== undefined) {
      const merge =
        query[normalized] &&
        typeof query[normalized] === 'object' &&
        typeof parsed[normalized] === 'object' &&
        !Array.isArray(parsed[normalized]);
      query[normalized] = merge ? { ...query[normalized], ...parsed[normalized] } : parsed[normalized];
    }
    delete query[key];
  }
  return query;
}

/** Refuses a query value sent with reserved characters unencoded (the library's 400, per parameter in order). */
function refuseReserved(checks: ReservedCheck[], url: string): void {
  const raw = rawQuery(url);
  if (!raw) return;
  // The library's split: pairs on `&`, the value between the first and a second `=`, keys undecoded.
  const pairs = raw.replace('?', '').split('&');
  for (const { name, allowComma } of checks) {
    for (const pair of pairs) {
      const [key, value] = pair.split('=');
      if (key !== name || value === undefined) continue;
      for (const part of allowComma ? value.split(',') : [value]) {
        if (!RESERVED_CHARS.test(part)) continue;
        throw new OpenApiValidator.error.BadRequest({
          path: `/query/${name}`,
          message: `Parameter '${name}' must be url encoded. Its value may not contain reserved characters.`,
        });
      }
    }
  }
}

/** A path that Node's legacy `url.parse` takes its fast way through (`lib/url.js`, simplePathPattern). */
const SIMPLE_PATH = /^\/\/?(?!\/)[^?\s]*(\?[^\s]*)?$/;

/**
 * The undecoded query string of a request URL as the library reads it (the `query` of Node's
 * legacy `url.parse`, which our code does not call: url-parse-check.ts): all after the first `?` on
 * a simple path (no `#` anywhere, no `@` before the `?`); otherwise what lies between the `?` and a
 * `#`, with `'` escaped, and none when the `#` comes first.
 */
export function rawQuery(url: string): string | undefined {
  const mark = url.indexOf('?');
  if (mark < 0) return undefined;
  const hash = url.indexOf('#');
  if (hash < 0 && !url.slice(0, mark).includes('@') && SIMPLE_PATH.test(url)) return url.slice(mark + 1);
  if (hash >= 0 && hash < mark) return undefined;
  return url.slice(mark + 1, hash < 0 ? undefined : hash).replaceAll("'", '%27');
}

/** An array parameter's value as an array (the library splits a string, wraps an exploded lone value). */
function shapeArray(req: Request, { name, field, delimiter }: ArrayShape): void {
  const values = req[field] as Record<string, unknown> | undefined;
  const value = values?.[name];
  if (!values || !value || Array.isArray(value)) return;
  values[name] = delimiter === undefined ? [value] : (value as string).split(delimiter);
}

/** Whether a schema is an object or a composition (the library's `isObjectOrXOf`). */
function isObjectOrXOf(schema: Json): boolean {
  if (!schema) return false;
  if (schema.$ref) return true;
  const { type, allOf, oneOf, anyOf } = schema;
  return type === 'object' || [allOf, oneOf, anyOf].flat().some(isObjectOrXOf);
}

const hasXOf = (schema: Json): boolean => Boolean(schema?.allOf || schema?.oneOf || schema?.anyOf);
