// The two validations the differential tests of the request and response checks compare
// (request-validator.test.ts, response-validator.test.ts): ours (the gate's route match, then
// documentValidators) and express-openapi-validator's own middleware with the options ours gives it.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express, NextFunction, Request, Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Json } from './document.ts';
import { documentOperations } from './request-rules.ts';
import { RouteMatcher } from './route-matcher.ts';
import { documentValidators } from './validators.ts';

export type Check = 'ours' | 'library';

/** Adds `check`'s validation of `doc` to `app`: requests, and responses when `validateResponses`. */
export function useValidation(app: Express, doc: Json, check: Check, validateResponses: boolean): void {
  if (check === 'ours') {
    const matcher = new RouteMatcher(documentOperations(doc).values());
    app.use((req: Request, res: Response, next: NextFunction) => {
      const found = matcher.find(req.method, req.path);
      res.locals.operation = found?.info;
      res.locals.route = found;
      next();
    });
    app.use(documentValidators(doc, validateResponses));
    return;
  }
  app.use(
    OpenApiValidator.middleware({
      apiSpec: structuredClone(doc),
      validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false },
      validateResponses,
      validateSecurity: false,
      validateFormats: true,
      fileUploader: false,
    }),
  );
}

const servers: Server[] = [];

/**
 * A starter for one test file's apps: `start(doc, check)` builds the app of that document and
 * check with `build`, starts it once on a free port of 127.0.0.1 (building a validator takes a
 * second) and gives what `connect` makes of its base URL; `closeServers` stops every one started.
 */
export function startOnce<T>(
  build: (doc: Json, check: Check) => Express,
  connect: (base: string) => T,
): (doc: Json, check: Check) => Promise<T> {
  const started = new Map<Json, Map<Check, Promise<T>>>();
  return (doc, check) => {
    const ofDoc = started.get(doc) ?? new Map<Check, Promise<T>>();
    started.set(doc, ofDoc);
    const app = ofDoc.get(check) ?? listen(build(doc, check)).then(connect);
    ofDoc.set(check, app);
    return app;
  };
}

async function listen(app: Express): Promise<string> {
  const server: Server = await new Promise((done) => {
    const s = app.listen(0, '127.0.0.1', () => done(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stops every server `startOnce` started (a test file's `afterAll`). */
export const closeServers = (): Promise<unknown> =>
  Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
