// Starts the API on PORT (default 3000). MARKETPLACE_TEST_MODE=1 (or `--test-mode`, which
// `npm run start:test-mode` passes on any shell) also mounts the test helpers the conformance suite
// needs: never in production. The server is the contract's `protocolServer`: the document's header
// limit and timeouts, and malformed HTTP (a bad request line, oversized headers, a broken chunked
// body) answered in the API's envelope instead of Node's bare 400.
import { protocolServer } from '@marketplace/contract';
import { createApp } from './app.ts';
import { Clock } from './clock.ts';
import { MemoryStore } from './memory-store.ts';

const port = Number(process.env.PORT ?? 3000);
const testMode = process.env.MARKETPLACE_TEST_MODE === '1' || process.argv.includes('--test-mode');
const app = createApp({ store: new MemoryStore(), clock: new Clock(), testMode });
const server = protocolServer(app).listen(port, process.env.HOST ?? '127.0.0.1', () => {
  const address = server.address();
  const at = typeof address === 'object' && address ? address.port : port;
  console.log(`listening on http://127.0.0.1:${at}${testMode ? ' (test mode)' : ''}`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
