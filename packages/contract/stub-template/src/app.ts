// The API: the request flow of @marketplace/contract (`createApi`), which applies the document
// before any handler runs (match the operation, identify the caller, check its permission level,
// count its rate limits, read the body within the operation's limit, validate; every refusal in the
// API's envelope with the documented message), answers a stub as an unknown route and hands the
// rest to the operation's handler, by operationId in src/handlers/. A fix to that flow reaches this
// project by a version bump of @marketplace/contract. What is this project's: who the caller is
// (auth.ts), where the rate-limit windows live, the test helpers, what a handler receives (`Ctx`,
// handler.ts) and the handlers.
import { createApi, FixedWindowLimiter, MemoryWindows, OperationLimits, readDocument } from '@marketplace/contract';
import type express from 'express';
import { type Caller, identify } from './auth.ts';
import type { Clock } from './clock.ts';
import { handlerModules } from './generated/handlers.ts';
import { GeoIp } from './geoip.ts';
import type { Ctx } from './handler.ts';
import type { Store } from './store.ts';
import { testHelpers } from './test-helpers.ts';

export interface AppOptions {
  store: Store;
  clock: Clock;
  /** The country of a client IP (default: the table the test helpers fill, `US` otherwise). */
  geoip?: GeoIp;
  /** Mounts the test helpers and validates answers against the document too. */
  testMode: boolean;
}

export function createApp({ store, clock, geoip = new GeoIp(), testMode }: AppOptions): express.Express {
  // The windows live in this process's memory: several instances each count their own until they
  // are kept in a store all of them share (a `RateWindows` of yours in place of MemoryWindows).
  const limiter = new FixedWindowLimiter(new MemoryWindows(), () => clock.now());
  return createApi<Caller, Ctx<never>>({
    document: readDocument(),
    identify: (req) => identify(req, store, clock.now()),
    trustProxy: 'loopback',
    before: testMode ? [testHelpers(store, clock, limiter, geoip)] : [],
    // The document's rate limits, counted by the contract (those answered with a documented 300
    // are the handler's). Every caller has a token; the general limit applies to each.
    limits: new OperationLimits<Caller>({
      limiter,
      counted: (caller) => ({ user: caller.user.platformId, apiKey: caller.user.apiKey, general: true }),
    }),
    validateResponses: testMode,
    dispatch: {
      handlers: Object.assign({}, ...handlerModules),
      context: (req, res, op, params, caller, servesCached) =>
        ({
          req,
          res,
          op,
          store,
          clock,
          geoip,
          limiter,
          servesCached,
          now: clock.now(),
          ip: req.ip ?? '',
          caller,
          body: req.body ?? {},
          query: req.query ?? {},
          params,
        }) as Ctx<never>,
    },
    unexpected: (err, req) => console.error(`${req.method} ${req.path} failed`, err),
  });
}
