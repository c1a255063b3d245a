// The one place that opens a backend (ADR 0027): `MARKETPLACE_DB` names a memory store, a file
// store (ADR 0001, 0010) or a PostgreSQL database (ADR 0019), and each comes with the world, the
// rate-limit windows and the secrets that go with it. On PostgreSQL all of them live in the
// database, so that every instance on it answers as one service; otherwise they are this
// process's own (the secrets kept beside the file). The composition root opens one and never asks
// again which it is.
import { MemoryWindows, type RateWindows } from '@marketplace/contract';
import { checkSecret, keepNewSecret } from '../config.ts';
import { MemoryWorld, type SharedWorld } from '../world.ts';
import { type Connections, isPostgresUrl } from './postgres/connection.ts';
import { openPostgresStore } from './postgres/postgres-store.ts';
import { PostgresRateWindows } from './postgres/rate-windows.ts';
import { SandboxRegistry } from './postgres/sandbox-registry.ts';
import { sharedSecret } from './postgres/secrets.ts';
import { openPostgresWorld } from './postgres/world.ts';
import { openStore, type Store, type StoreOptions } from './store.ts';

/** The secrets a server keeps, and the environment variable that can give each one. */
const SECRETS = [
  { name: 'jwt-secret', variable: 'MARKETPLACE_JWT_SECRET' },
  { name: 'deposit-secret', variable: 'MARKETPLACE_DEPOSIT_SECRET' },
  { name: 'code-key', variable: undefined },
  { name: 'secrets-key', variable: 'MARKETPLACE_SECRETS_KEY' },
] as const;
export type SecretName = (typeof SECRETS)[number]['name'];
const variableOf = (name: SecretName) => SECRETS.find((s) => s.name === name)?.variable;
/** The secrets given in the environment; the others are generated once and kept by the backend. */
export type GivenSecrets = Partial<Record<SecretName, string | undefined>>;

/** Which backend to open. */
export type BackendChoice =
  | { kind: 'memory' }
  | {
      kind: 'file';
      path: string;
      /** How the file store snapshots (a benchmark compares the ways; tests inject a failing file port). */
      store?: StoreOptions;
    }
  | {
      kind: 'postgres';
      url: string;
      /** Connections of this instance (default 10). */
      poolSize?: number;
      /** The schema of a sandbox's world (ADR 25); default the database's own. */
      schema?: string;
      /** The instance's connections, shared by a sandbox's world instead of opening its own (ADR 25). */
      connections?: Connections;
    };

/** The backend a `MARKETPLACE_DB` value names: `:memory:`, a `postgres://` URL or a file path. */
export function backendChoice(
  db: string,
  options: { poolSize?: number; store?: StoreOptions; schema?: string; connections?: Connections } = {},
): BackendChoice {
  if (db === ':memory:') return { kind: 'memory' };
  if (isPostgresUrl(db)) {
    const { poolSize, schema, connections } = options;
    return { kind: 'postgres', url: db, poolSize, schema, ...(connections && { connections }) };
  }
  return { kind: 'file', path: db, store: options.store };
}

/** An open backend: the engine's state, the outside world, the rate-limit windows and the secrets. */
export interface Backend {
  readonly kind: BackendChoice['kind'];
  store: Store;
  world: SharedWorld;
  /** Where the rate-limit windows are kept (the contract's limiter counts on them, on the server's clock). */
  rateWindows: RateWindows;
  /** A secret: the one given, or the one the backend keeps (generated on first use). */
  secret(name: SecretName): Promise<string>;
  /** Waits for the world's and the store's writes, then closes them. */
  close(): Promise<void>;
  /**
   * Where sandboxes are registered for every instance (PostgreSQL's main world, ADR 25); without
   * one, a server's sandboxes live in its process only.
   */
  sandboxes?: SandboxRegistry;
  /** The instance's database connections (PostgreSQL), for the sandboxes it serves to share (ADR 25). */
  connections?: Connections;
}

/** Opens (creating or migrating) the backend; a refused start (`StartRefusal`) leaves nothing behind. */
export async function openBackend(choice: BackendChoice, given: GivenSecrets = {}): Promise<Backend> {
  const opened =
    choice.kind === 'postgres' ? await openPostgresBackend(choice, given) : await openLocalBackend(choice, given);
  const { store, world } = opened;
  return {
    ...opened,
    kind: choice.kind,
    close: async () => {
      await world.close();
      await store.close();
    },
  };
}

/** What each kind of backend opens in its own way. */
type Opened = Omit<Backend, 'kind' | 'close'>;

async function openLocalBackend(
  choice: Extract<BackendChoice, { kind: 'memory' | 'file' }>,
  given: GivenSecrets,
): Promise<Opened> {
  const db = choice.kind === 'file' ? choice.path : ':memory:';
  // A refused start touches nothing: the secrets kept beside a file store are read and checked
  // before the store writes a file (an empty `<db>.jwt-secret` used to leave a new store behind).
  const found = new Map(SECRETS.map(({ name, variable }) => [name, checkSecret(given[name], db, name, variable)]));
  const store = await openStore(db, choice.kind === 'file' ? choice.store : undefined);
  return {
    store,
    world: new MemoryWorld(),
    rateWindows: new MemoryWindows(),
    secret: async (name) => found.get(name) ?? keepNewSecret(db, name),
  };
}

/** Every instance on one database shares the world, the rate-limit windows and the secrets (ADR 19). */
async function openPostgresBackend(
  choice: Extract<BackendChoice, { kind: 'postgres' }>,
  given: GivenSecrets,
): Promise<Opened> {
  const { url, poolSize, schema, connections } = choice;
  const store = await openPostgresStore(url, { poolSize, schema, connections });
  const { pool } = store;
  let world: SharedWorld;
  try {
    world = await openPostgresWorld(pool);
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    store,
    world,
    rateWindows: new PostgresRateWindows(pool),
    secret: (name) => sharedSecret(pool, given[name], name, variableOf(name)),
    // A sandbox's world has no sandboxes of its own: the registry is the main world's.
    sandboxes: choice.schema ? undefined : new SandboxRegistry(pool),
    connections: store.connections,
  };
}
