// Starts Prism on the bundled document: static examples, and every documented error reachable
// with `Prefer: code=300, example=<name>`. Used by `npm run mock` and by the tests that run the
// conformance suite and the client against the mock.
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';

const require = createRequire(import.meta.url);
/** The document of the @marketplace/openapi package: the contract version the mock was released with. */
export const BUNDLED_DOCUMENT = require.resolve('@marketplace/openapi/openapi.json');

export interface MockServer {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts Prism and resolves once it listens. `port` 0 is not supported by Prism: pick one. */
export async function startMock({
  port = 4010,
  host = '127.0.0.1',
  document = BUNDLED_DOCUMENT,
} = {}): Promise<MockServer> {
  const cli = resolve(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist/index.js');
  const child = spawn(process.execPath, [cli, 'mock', document, '-p', String(port), '-h', host, '-v', 'error'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', SCARF_ANALYTICS: 'false' },
  });
  const url = `http://${host}:${port}`;
  const deadline = Date.now() + 20_000;
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  while (Date.now() < deadline && !exited) {
    try {
      await fetch(`${url}/__prism_ready_probe__`);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  if (exited || Date.now() >= deadline) {
    child.kill();
    throw new Error(`Prism did not start on ${url}`);
  }
  return {
    url,
    process: child,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill();
      }),
  };
}
