// The test helpers' request flow: the API's (`createApi`), applied with the test-helpers
// document (openapi/test-helpers.yaml). The reference server and the projects the server-stub
// generator writes mount it, so neither reads a helper's body by hand. A helper's body is read within a limit
// and validated against the helper's schema before the helper runs, so a bad request gets the
// documented HTTP 300 with a message (`Invalid request body`, `Invalid <field> parameter`, ...)
// and changes nothing; and what the schema does not declare is dropped, never copied into the state.
import { createRequire } from 'node:module';
import express, { type Request } from 'express';
import { createApi, type Dispatch } from './api.ts';
import { type Json, readDocument, resolveRef } from './document.ts';
import { operationOf } from './gate.ts';
import type { OperationInfo } from './operation-index.ts';
import type { PermittedCaller } from './permission.ts';

/**
 * Bytes of body a helper reads at most, when its schema does not bound it lower: a population or
 * platform inventory fits, and nothing larger is read.
 */
export const HELPER_BODY_LIMIT = 10 * 1024 * 1024;

let helpersDocument: Json | undefined;
/**
 * The bundled test-helpers document, read once per process: the validators built for it are kept
 * per document object (contract validators.ts), so every server and sandbox shares one build.
 */
export const testHelpersDocument = (): Json =>
  (helpersDocument ??= readDocument(createRequire(import.meta.url).resolve('@marketplace/openapi/test-helpers.json')));

export interface HelpersGateOptions {
  /** A helper that failed (logged; the caller gets the documented 500). */
  unexpected: (err: unknown, req: Request) => void;
  /** Express's `trust proxy` setting, as the API's app has it (`req.ip` behind a proxy). */
  trustProxy?: string | boolean;
}

/**
 * The router form of projects generated before the helpers were dispatched by operationId: a
 * team's edited test-helpers.ts mounts its helpers on this router by path, and keeps working after
 * a version bump of the contract. New code gives a `Dispatch`.
 */
export type MountHelpers = (router: express.Router) => void;

/**
 * An Express application that admits a helper request as the document allows (its operation, a
 * bounded body, a valid one) and hands it to the host's helper for its operationId, as the API's
 * handlers are dispatched (`createApi`); a helper the host has not written answers 404 like an
 * unknown route, and the rest is refused with the documented answer.
 */
export function helpersGate<Ctx>(
  { unexpected, trustProxy = false }: HelpersGateOptions,
  helpers: Dispatch<PermittedCaller, Ctx> | MountHelpers,
): express.Express {
  // Only what the helper's schema declares reaches the helper (see declaredFields).
  const strip = (req: Request, op: OperationInfo) => {
    if (req.body && typeof req.body === 'object' && !Array.isArray(req.body)) req.body = declaredFields(op, req.body);
  };
  return createApi<PermittedCaller, Ctx>({
    document: testHelpersDocument(),
    identify: () => undefined, // helpers bypass permission levels
    trustProxy,
    bodyLimit: (op) => Math.min(op.bodyLimit ?? HELPER_BODY_LIMIT, HELPER_BODY_LIMIT),
    ...(typeof helpers === 'function'
      ? { forward: mounted(helpers, strip) }
      : {
          dispatch: {
            ...helpers,
            context(req, res, op, params, caller, servesCached) {
              strip(req, op);
              return helpers.context(req, res, op, params, caller, servesCached);
            },
          },
        }),
    unexpected,
  });
}

/** The router a `MountHelpers` fills, behind the same stripping of undeclared fields. */
function mounted(mount: MountHelpers, strip: (req: Request, op: OperationInfo) => void): express.Router {
  const router = express.Router();
  router.use((req, res, next) => {
    const op = operationOf(res);
    if (op) strip(req, op);
    next();
  });
  mount(router);
  return router;
}

/** The top-level fields a request schema names, through `$ref`s and its `oneOf`/`anyOf`/`allOf` branches. */
function namedFields(doc: Json, raw: Json, into = new Set<string>()): Set<string> {
  const schema = resolveRef(doc, raw);
  if (!schema || typeof schema !== 'object') return into;
  for (const name of Object.keys(schema.properties ?? {})) into.add(name);
  for (const branch of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])])
    namedFields(doc, branch, into);
  return into;
}

/**
 * The body with only the fields the operation's JSON schema declares. A schema that admits more
 * (`additionalProperties: true`, the item helper's) accepts them but they reach nothing: a field
 * the document does not type could otherwise overwrite what the server computes (an item's
 * `SKU`, an asset's `user`) or store a value no answer of the API can show.
 */
export function declaredFields(op: OperationInfo, body: Record<string, unknown>): Record<string, unknown> {
  const names = declaredNames(op);
  return Object.fromEntries(Object.entries(body).filter(([name]) => names.has(name)));
}

/** The names an operation's JSON body schema declares, worked out once per operation. */
const declared = new WeakMap<OperationInfo, Set<string>>();
function declaredNames(op: OperationInfo): Set<string> {
  let names = declared.get(op);
  if (!names) {
    const doc = testHelpersDocument();
    const requestBody = resolveRef(doc, doc.paths[op.path]?.[op.method.toLowerCase()]?.requestBody);
    names = namedFields(doc, requestBody?.content?.['application/json']?.schema);
    declared.set(op, names);
  }
  return names;
}
