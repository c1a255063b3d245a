// The response check (test mode) of an operation, compiled against one shared root.
// express-openapi-validator's response step (middlewares/openapi.response.validator.js,
// `buildValidators`) compiles each documented status and media type of an operation as a root
// schema of its own, `{properties: {response: <schema>}, paths, components}`, and Ajv keeps what a
// `$ref` compiles per root: every component with references inside was compiled again for every
// response of every operation, and the five shared `components/responses` once per operation each
// (about 2.5 s of a conformance run's server CPU against a fresh server, the largest item of its
// profile). Here the validator's copy of the document is added to its Ajv once, under an id of its
// own, and a response compiles `{properties: {response: {$ref: '<id>#<pointer>'}}}`: what a `$ref`
// inside compiles is kept on that one root, and a schema met again (a shared response: the
// validator's preparation puts the one object of `components/responses/X` in place of each `$ref`
// to it) is compiled once.
//
// What decides an answer stays the library's: its Ajv (`ajvBody`, with its options, formats and
// keywords), its prepared copy of the document (the schemas compiled are the very objects its own
// step would wrap), which statuses and media types get a validator (the rules of its
// `buildValidators`, below), and its `_validate`, which picks the validator, tells a body where
// there should be none, and throws its errors. response-validator.test.ts compares both.
import type { Request } from 'express';
import type { AjvInstance } from 'express-openapi-validator/dist/framework/types.js';
import type { Json } from './document.ts';

type Validate = ReturnType<AjvInstance['compile']>;

/** What the library's `_validate` reads: by status, then by media type; `{}` where no content is documented. */
export type ResponseValidators = Record<string, Record<string, Validate>>;

/** The parts of the library's `ResponseValidator` this builds on. */
export interface LibraryResponseValidator {
  /** The Ajv of its response step, with the library's options, formats and keywords. */
  ajvBody: AjvInstance;
  /** Its prepared copy of the document (the responses' copy). */
  spec: Json;
  /** Whether a media type is JSON (`json` or `+json`); throws on a type it cannot parse. */
  canValidateContentType(contentType: string): boolean;
}

/** The id the document is added to the response Ajv under (any id the document does not use). */
const DOCUMENT_ID = 'marketplace-response-document.json';

/** A URI fragment's JSON pointer to the node at `keys`. */
const pointer = (keys: string[]): string =>
  keys.map((key) => `/${encodeURIComponent(key.replaceAll('~', '~0').replaceAll('/', '~1'))}`).join('');

/**
 * Builds an operation's response validators against the one shared root; undefined when the
 * responses handed in are not the document's own at the request's route and method (the library's
 * builder then builds them as before).
 */
export function sharedResponseValidators(
  library: LibraryResponseValidator,
): (req: Request & { openapi: Json }, responses: Json) => ResponseValidators | undefined {
  const { ajvBody: ajv, spec } = library;
  let added = false;
  const bySchema = new Map<unknown, Validate>();

  /** The validator of `schema`, found at `keys` in the document, compiled once. */
  const validatorOf = (schema: unknown, keys: string[]): Validate => {
    let validate = bySchema.get(schema);
    if (!validate) {
      if (!added) {
        // `paths` and `components` only: the root itself compiles to nothing (no keyword of a schema).
        ajv.addSchema({ paths: spec.paths, components: spec.components }, DOCUMENT_ID);
        added = true;
      }
      const ref = `${DOCUMENT_ID}#${pointer(keys)}`;
      validate = ajv.compile({ type: 'object', properties: { response: { $ref: ref } } });
      bySchema.set(schema, validate);
    }
    return validate;
  };

  /** The library's `validationTypes`: the media types it validates, or `no_content`. */
  const validationTypes = (response: Json): string[] => {
    if (!response.content) return ['no_content'];
    if (typeof response.content !== 'object') return [];
    const types: string[] = [];
    for (const type of Object.keys(response.content)) {
      try {
        if (library.canValidateContentType(type) && response.content[type]?.schema) types.push(type);
      } catch {
        // wildcards, which the content-type parser refuses
        if (response.content[type].schema && (type === '*/*' || /^[a-z]+\/\*$/.test(type))) types.push(type);
      }
    }
    return types;
  };

  return (req, responses) => {
    const route: string | undefined = req.openapi?.openApiRoute;
    const method = req.method.toLowerCase();
    if (!route || !responses || spec.paths?.[route]?.[method]?.responses !== responses) return undefined;
    const validators: ResponseValidators = {};
    for (const [status, declared] of Object.entries<Json>(responses)) {
      let response = declared;
      let at = ['paths', route, method, 'responses', status];
      if (declared?.$ref) {
        // As the library resolves a response's `$ref`: by its last segment, in `components.responses`.
        const id: string = declared.$ref.replace(/^.+\//i, '');
        response = spec.components?.responses?.[id];
        at = ['components', 'responses', id];
      }
      if (!response || typeof response !== 'object') return undefined; // the library's builder fails on it as before
      for (const type of validationTypes(response)) {
        if (type === 'no_content') validators[status] = {};
        else
          validators[status] = {
            ...validators[status],
            [type]: validatorOf(response.content[type].schema, [...at, 'content', type, 'schema']),
          };
      }
    }
    return validators;
  };
}
