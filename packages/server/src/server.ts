// The composition root: builds the store, clock, adapters and Express app from a configuration.
import { randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  FixedWindowLimiter,
  isOnPurpose,
  onPurpose,
  type ProtocolTimeouts,
  protocolServer,
  readDocument,
  settleUrlParseCheck,
} from '@marketplace/contract';
import express from 'express';
import pino from 'pino';
import { outboxAffiliates } from './adapters/affiliate.ts';
import { GeoIpTable } from './adapters/geoip.ts';
import { outboxMailer, smtpMailer } from './adapters/mail.ts';
import { outboxModeration } from './adapters/moderation.ts';
import { Outbox } from './adapters/outbox.ts';
import { PaymentsSimulator } from './adapters/payments.ts';
import { PlatformSimulator } from './adapters/platform.ts';
import { aesSealer, sealStoredSecrets } from './auth/sealed-secrets.ts';
import { createTestClock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { type DemoAdmin, demoAccounts, seedDemoData } from './demo-data.ts';
import { indexesOf } from './domain/indexes.ts';
import { populate } from './domain/population.ts';
import { createApp } from './http/app.ts';
import type { Random, ServerDeps } from './http/deps.ts';
import { documentsRouter } from './routes/documents.ts';
import { routes } from './routes/index.ts';
import { testHelpersRouter } from './routes/test-helpers.ts';
import { Sandboxes, type SandboxServer, sandboxesRouter } from './sandboxes.ts';
import { StartRefusal } from './start-refusal.ts';
import { backendChoice, openBackend } from './store/backend.ts';
import type { Connections } from './store/postgres/connection.ts';
import { sandboxSchema } from './store/postgres/sandbox-registry.ts';
import type { StoreOptions } from './store/store.ts';
import { worldCache } from './world.ts';

/**
 * The document of the @marketplace/openapi package the contract depends on (the repository's
 * openapi/ workspace, or the installed package), so the server validates against the contract
 * version it was built with. Read through the contract (`readDocument`), once per process: it is
 * only read, and the servers of one process (the sandboxes of issue 25) then share the validators
 * built for it (@marketplace/contract, validators.ts).
 */
let document: unknown;
const theDocument = () => {
  document ??= readDocument();
  return document;
};

export const cryptoRandom: Random = {
  hex: (bytes) => randomBytes(bytes).toString('hex'),
  digits: (n) => Array.from({ length: n }, () => randomInt(10)).join(''),
};

export interface ServerOptions {
  config: Config;
  /** Seed demo data into a new store (MARKETPLACE_DEMO=1: npm start, npm run sandbox); tests start empty. */
  demoData?: boolean;
  logger?: pino.Logger;
  /** How the file store snapshots (a benchmark compares the ways). */
  store?: StoreOptions;
  /** On PostgreSQL, the schema of a sandbox's world (ADR 25); default the database's own. */
  schema?: string;
  /** Whether the world this server serves was deleted under it (a sandbox on PostgreSQL, ADR 25). */
  gone?: () => Promise<boolean>;
  /** On PostgreSQL, the instance's connections, which a sandbox's world shares (ADR 25). */
  connections?: Connections;
}

/** Composes the server: the deps and the Express app, not yet listening. */
export async function composeServer({
  config,
  demoData = false,
  logger,
  store: storeOptions,
  schema,
  gone,
  connections,
}: ServerOptions) {
  settleUrlParseCheck(); // the request validator's per-request `url.parse` (the contract's url-parse-check.ts)
  const choice = backendChoice(config.db, { poolSize: config.pgPool, store: storeOptions, schema, connections });
  const backend = await openBackend(choice, {
    'jwt-secret': config.jwtSecret,
    'deposit-secret': config.depositSecret,
    'secrets-key': config.secretsKey,
  });
  const { store, world, secret } = backend;
  indexesOf(store.state); // at startup, not on the first request (seconds at a million assets, ADR 9)
  const testClock = config.testMode ? createTestClock(systemClock, world) : undefined;
  const clock = testClock ?? systemClock;
  const outbox = new Outbox(world);
  const deps: ServerDeps = {
    config,
    store,
    clock,
    testClock,
    world,
    outbox,
    geoip: new GeoIpTable(world),
    platform: new PlatformSimulator(world),
    payments: new PaymentsSimulator(world),
    mail: config.smtpUrl && !config.testMode ? smtpMailer(config.smtpUrl, outbox) : outboxMailer(outbox),
    moderation: outboxModeration(outbox),
    affiliates: outboxAffiliates(outbox),
    limiter: new FixedWindowLimiter(backend.rateWindows, () => clock.now()),
    random: cryptoRandom,
    logger: logger ?? pino({ level: config.logLevel }),
    jwtSecret: new TextEncoder().encode(await secret('jwt-secret')),
    depositSecret: await secret('deposit-secret'),
    codeKey: await secret('code-key'),
    sealer: aesSealer(await secret('secrets-key')),
    document: theDocument(),
    caches: worldCache(world),
  };
  await sealStoredSecrets(store, deps.sealer);
  // The admins' keys are only known here, once: the store keeps their hashes.
  const demoAdmins: DemoAdmin[] | undefined = demoData && store.created ? await seedDemoData(deps) : undefined;
  // Off (production, most runs), the on-purpose layer is not mounted at all: an empty router still
  // costs every request a dispatch (about 2 percent of the bench's read row).
  const onPurpose = onPurposeRouter(config);
  const before = [...(onPurpose ? [onPurpose] : []), documentsRouter(deps.document)];
  if (config.testMode) before.push(testHelpersRouter(deps));
  const limits = config.sandboxes;
  // On PostgreSQL every instance serves every sandbox, each in a schema of its own (ADR 25).
  const registry = backend.sandboxes;
  const sandboxes =
    limits &&
    new Sandboxes(
      limits,
      (id, gone) =>
        composeSandbox(
          config,
          deps.logger,
          registry && { schema: sandboxSchema(id), connections: backend.connections },
          gone,
        ),
      { registry },
    );
  if (sandboxes && limits) before.push(sandboxesRouter(sandboxes, limits.idleSeconds, config.demo));
  const app = createApp({ deps, routes, before, gone });
  return { deps, app, demoAdmins, sandboxes, close: backend.close };
}

/**
 * Slow and failing on purpose (@marketplace/contract's on-purpose.ts), on the API's routes only: a sandbox's requests
 * are its own server's (which has its own draws), and the document, docs and test helpers answer
 * as usual so tests can set up and inspect state.
 */
function onPurposeRouter(config: Config): express.Router | undefined {
  if (!isOnPurpose(config.onPurpose)) return undefined;
  const router = express.Router();
  const handler = onPurpose(config.onPurpose);
  const exempt = /^\/(test_helpers|sandboxes)(\/|$)|^\/(openapi\.json|docs)$/;
  router.use((req, res, next) => (exempt.test(req.path) ? next() : handler(req, res, next)));
  return router;
}

/**
 * A sandbox's server (POST /sandboxes): the server composed again in test mode, with secrets of
 * its own and no mail leaving it; everything but the document is its own. Its store is in memory,
 * or on PostgreSQL in the sandbox's `schema` over the instance's `connections` (its secrets too,
 * so its tokens outlive a restart), where `gone` tells a world deleted through another instance
 * from a failing database.
 */
async function composeSandbox(
  config: Config,
  logger: pino.Logger,
  postgres?: { schema: string; connections: Connections | undefined },
  gone?: () => Promise<boolean>,
): Promise<SandboxServer> {
  const { deps, app, close } = await composeServer({
    ...postgres,
    gone,
    config: {
      ...config,
      db: postgres ? config.db : ':memory:',
      testMode: true,
      onPurpose: { ...config.onPurpose, prefer: true },
      sandboxes: undefined,
      smtpUrl: undefined,
      jwtSecret: undefined,
      depositSecret: undefined,
    },
    logger,
  });
  return {
    handle: app,
    async populate(users, balance) {
      const now = deps.clock.now();
      const result = populate(deps.store.state, {
        users,
        items: 0,
        assets: 0,
        listedShare: 0,
        buyOrders: 0,
        balance,
        now,
      });
      if (!result.ok) throw new Error(JSON.stringify(result.error));
      await deps.store.replace(deps.store.state);
      return result.value.platformIds.map((platformId, n) => ({ platformId, apiKey: result.value.apiKeys[n]! }));
    },
    seedDemo: async () => demoAccounts(await seedDemoData(deps)),
    close,
  };
}

/** The URL a server listens on, from its real address (port 0 resolved, IPv6 in brackets). */
export function serverUrl(server: Server): string {
  const { address, family, port } = server.address() as AddressInfo;
  return `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
}

/**
 * Listens with the document's limits and protocol answers (the contract's protocolServer, the
 * mock's too): a stalled upload is cut (408, connection closed) instead of holding its buffer.
 */
export function listen(
  app: (req: IncomingMessage, res: ServerResponse) => void,
  { port, host, requestTimeout, headersTimeout }: ListenOptions,
): Promise<Server> {
  const server = protocolServer(app, { requestTimeout, headersTimeout });
  return new Promise((done, fail) => {
    const refuse = (error: NodeJS.ErrnoException) => {
      const why = {
        EADDRINUSE: 'is in use',
        EACCES: 'needs privileges',
        EADDRNOTAVAIL: 'is no address of this machine',
      };
      const reason = why[error.code as keyof typeof why];
      fail(reason ? new StartRefusal(`Refusing to start: ${host} port ${port} ${reason} (HOST, PORT).`) : error);
    };
    server.once('error', refuse);
    server.listen(port, host, () => {
      server.off('error', refuse);
      done(server);
    });
  });
}

export interface ListenOptions extends ProtocolTimeouts {
  port: number;
  host: string;
}

/**
 * Starts listening; resolves with the server, its URL and a `close` that drains and flushes the store.
 * The port is taken first: a port in use refuses the start before the store writes a file. Requests
 * that arrive while the store loads wait for it.
 */
export async function startServer(options: ServerOptions) {
  let composed: Promise<Awaited<ReturnType<typeof composeServer>>> | undefined;
  const server = await listen(
    (req, res) => {
      composed!.then(
        ({ app }) => app(req, res),
        () => res.destroy(),
      );
    },
    { port: options.config.port, host: options.config.host },
  );
  composed = composeServer(options);
  const {
    deps,
    demoAdmins,
    sandboxes,
    close: closeBackend,
  } = await composed.catch(async (error) => {
    await new Promise((done) => server.close(done));
    throw error;
  });
  const close = async () => {
    await new Promise<void>((done) => server.close(() => done()));
    await sandboxes?.close();
    await closeBackend();
  };
  return { server, url: serverUrl(server), deps, demoAdmins, close };
}
