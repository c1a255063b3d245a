// The mock of the Item Marketplace API: Prism serves the document's examples, dynamic data and
// `Prefer` (or proxies to a real server), behind a front that answers as the API does (front.ts,
// ADR 0017), on a server that answers malformed HTTP as the reference server does (the contract's
// protocolServer). Used by `npm run mock` / `marketplace-mock`, and by the tests that run the client
// and the conformance suite against the mock.
import type { ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type OnPurposeOptions,
  type ProtocolTimeouts,
  protocolServer,
  readDocument,
  settleUrlParseCheck,
} from '@marketplace/contract';
import { AnswerCache } from './answer-cache.ts';
import { locateDocument } from './document.ts';
import { createFront } from './front.ts';
import { startPrism } from './prism.ts';

export interface MockOptions extends ProtocolTimeouts {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** The bundled OpenAPI document (JSON); the one of this repository by default. */
  document?: string;
  /** Prism's dynamic mode: data generated from the schemas instead of the examples. */
  dynamic?: boolean;
  /** Where faults worth a look are reported; stderr by default. */
  log?: (line: string) => void;
  /** Per-run latency and failures, seeded (`--latency`, `--fail-rate`, `--seed`). */
  onPurpose?: OnPurposeOptions;
}

export interface MockServer {
  url: string;
  /** The Prism child process. */
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts Prism and the front; resolves once both listen. */
export async function startMock({
  port = 0,
  host = '127.0.0.1',
  document = locateDocument(),
  dynamic = false,
  log = (line) => console.error(line),
  onPurpose,
  requestTimeout,
  headersTimeout,
}: MockOptions = {}): Promise<MockServer> {
  settleUrlParseCheck(); // the request validator's per-request `url.parse` (the contract's url-parse-check.ts)
  const parsed = readDocument(document);
  const prism = await startPrism({ document, dynamic });
  // Dynamic answers vary per request: only example answers are kept for reuse.
  const cache = dynamic ? undefined : new AnswerCache();
  const app = createFront({ document: parsed, prism: prism.url, log, cache, onPurpose });
  let server: Server;
  try {
    // The document's limits and protocol answers, as on the reference server (ADR 0026).
    server = protocolServer(app, { requestTimeout, headersTimeout });
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(port, host, () => {
        server.off('error', fail);
        done();
      });
    });
  } catch (e) {
    await prism.stop();
    throw e;
  }
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    process: prism.process,
    stop: async () => {
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      await prism.stop();
    },
  };
}
