// The composition root: builds the store, clock, adapters and Express app from a configuration.
import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import pino from 'pino';
import { outboxAffiliates } from './adapters/affiliate.ts';
import { GeoIpTable } from './adapters/geoip.ts';
import { outboxMailer, smtpMailer } from './adapters/mail.ts';
import { outboxModeration } from './adapters/moderation.ts';
import { Outbox } from './adapters/outbox.ts';
import { PaymentsSimulator } from './adapters/payments.ts';
import { PlatformSimulator } from './adapters/platform.ts';
import { createTestClock, systemClock } from './clock.ts';
import { type Config, loadSecret } from './config.ts';
import { seedDemoData } from './demo-data.ts';
import { indexesOf } from './domain/indexes.ts';
import { createApp } from './http/app.ts';
import type { Random, ServerDeps } from './http/deps.ts';
import { RateLimiter } from './rate-limit.ts';
import { documentsRouter } from './routes/documents.ts';
import { routes } from './routes/index.ts';
import { testHelpersRouter } from './routes/test-helpers.ts';
import { openStore } from './store/store.ts';

export const BUNDLED_DOCUMENT = resolve(import.meta.dirname, '../../../openapi/bundled/openapi.json');

export const cryptoRandom: Random = {
  hex: (bytes) => randomBytes(bytes).toString('hex'),
  digits: (n) => Array.from({ length: n }, () => randomInt(10)).join(''),
};

export interface ServerOptions {
  config: Config;
  /** Seed demo data into a new store (npm start); tests start empty. */
  demoData?: boolean;
  logger?: pino.Logger;
}

/** Composes the server: the deps and the Express app, not yet listening. */
export async function composeServer({ config, demoData = false, logger }: ServerOptions) {
  const store = await openStore(config.db);
  indexesOf(store.state); // at startup, not on the first request (seconds at a million assets, ADR 9)
  const testClock = config.testMode ? createTestClock() : undefined;
  const outbox = new Outbox();
  const deps: ServerDeps = {
    config,
    store,
    clock: testClock ?? systemClock,
    testClock,
    outbox,
    geoip: new GeoIpTable(),
    platform: new PlatformSimulator(),
    payments: new PaymentsSimulator(),
    mail: config.smtpUrl && !config.testMode ? smtpMailer(config.smtpUrl, outbox) : outboxMailer(outbox),
    moderation: outboxModeration(outbox),
    affiliates: outboxAffiliates(outbox),
    limiter: new RateLimiter(testClock ?? systemClock),
    random: cryptoRandom,
    logger: logger ?? pino({ level: process.env.LOG_LEVEL ?? 'info' }),
    jwtSecret: new TextEncoder().encode(loadSecret(config.jwtSecret, config.db, 'jwt-secret')),
    depositSecret: loadSecret(config.depositSecret, config.db, 'deposit-secret'),
    document: JSON.parse(readFileSync(BUNDLED_DOCUMENT, 'utf8')),
    caches: new Map(),
  };
  if (demoData && store.created) await seedDemoData(deps);
  const before = [documentsRouter(deps.document)];
  if (config.testMode) before.push(testHelpersRouter(deps));
  const app = createApp({ deps, routes, before });
  return { deps, app };
}

/** Starts listening; resolves with the server and a `close` that drains and flushes the store. */
export async function startServer(options: ServerOptions & { host?: string }) {
  const { deps, app } = await composeServer(options);
  const server: Server = await new Promise((done) => {
    const s = app.listen(options.config.port, options.host ?? '0.0.0.0', () => done(s));
  });
  const close = async () => {
    await new Promise<void>((done) => server.close(() => done()));
    await deps.store.close();
  };
  return { server, deps, close };
}
