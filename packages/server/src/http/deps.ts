// Everything the HTTP layer is composed from (the composition root builds it in server.ts).
import type { FixedWindowLimiter } from '@marketplace/contract';
import type { Logger } from 'pino';
import type { Affiliates } from '../adapters/affiliate.ts';
import type { GeoIpTable } from '../adapters/geoip.ts';
import type { Mailer } from '../adapters/mail.ts';
import type { Moderation } from '../adapters/moderation.ts';
import type { Outbox } from '../adapters/outbox.ts';
import type { PaymentsSimulator } from '../adapters/payments.ts';
import type { PlatformSimulator } from '../adapters/platform.ts';
import type { Clock, TestClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Cache } from '../domain/cache.ts';
import type { Sealer } from '../domain/two-factor.ts';
import type { Store } from '../store/store.ts';
import type { SharedWorld } from '../world.ts';

export interface Random {
  /** `bytes` random bytes as hex. */
  hex(bytes: number): string;
  /** `n` random decimal digits. */
  digits(n: number): string;
}

export interface ServerDeps {
  config: Config;
  store: Store;
  clock: Clock;
  /** Present in test mode only: the clock the test helpers move. */
  testClock: TestClock | undefined;
  /** What the simulators, the outbox and the test clock hold, shared by every instance (ADR 19). */
  world: SharedWorld;
  outbox: Outbox;
  geoip: GeoIpTable;
  platform: PlatformSimulator;
  payments: PaymentsSimulator;
  mail: Mailer;
  moderation: Moderation;
  affiliates: Affiliates;
  /** The rate-limit windows' limiter (the contract's, on this server's clock and backend). */
  limiter: FixedWindowLimiter;
  random: Random;
  logger: Logger;
  jwtSecret: Uint8Array;
  depositSecret: string;
  /** HMAC key of the 6-digit codes sent by e-mail (domain/codes.ts), kept in `<db>.code-key`. */
  codeKey: string;
  /** Seals TOTP secrets for the store (AES-GCM under the secrets key, kept apart from the store). */
  sealer: Sealer;
  // biome-ignore lint/suspicious/noExplicitAny: the bundled OpenAPI document
  document: any;
  /** Computed answers reused for a while (pricing, price lists): not state, shared through the world. */
  caches: Cache & { clear(): void };
}
