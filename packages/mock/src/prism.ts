// Prism as a child process on an internal port of the loopback interface: it serves the examples,
// dynamic data and `Prefer`, behind the front (front.ts) that answers as
// the API does. Prism cannot listen on port 0, so a free port is found first, and taken again if
// another process grabs it in between.
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const HOST = '127.0.0.1';

export interface PrismOptions {
  document: string;
  /** Prism's dynamic mode (`-d`): data generated from the schemas instead of the examples. */
  dynamic?: boolean;
}

export interface Prism {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      done();
    });
    child.kill();
  });
}

/** Starts Prism on a free internal port; resolves once it answers HTTP. */
export async function startPrism(options: PrismOptions, timeoutMs = 60_000): Promise<Prism> {
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    const started = await tryStart(options, port, timeoutMs);
    if ('url' in started) return started;
    lastError = started.error;
  }
  throw new Error(`Prism did not start: ${lastError}`);
}

async function tryStart(options: PrismOptions, port: number, timeoutMs: number): Promise<Prism | { error: string }> {
  const cli = resolve(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist/index.js');
  // One process: Prism's multi-process mode, its default under NODE_ENV=production, fails to
  // start on Node 24 (it reads `isPrimary` of an undefined cluster module).
  const args = [
    cli,
    'mock',
    options.document,
    '-p',
    String(port),
    '-h',
    HOST,
    '-v',
    'error',
    '--no-multiprocess',
    // CORS is the front's (the contract's cors.ts, the server's header set): Prism's would reflect
    // any origin with credentials and override it.
    '--no-cors',
    ...(options.dynamic ? ['-d'] : []),
  ];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', SCARF_ANALYTICS: 'false' },
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://${HOST}:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (child.exitCode === null && child.signalCode === null && Date.now() < deadline) {
    try {
      await fetch(`${url}/__prism_ready_probe__`);
      return { url, process: child, stop: () => stopChild(child) };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await stopChild(child);
  return { error: output.trim() || `no answer on ${url} within ${timeoutMs} ms` };
}
