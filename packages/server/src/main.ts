// `npm start`: the reference server on its lowdb store, with demo data, the document and the docs.
import pino from 'pino';
import { parseConfig } from './config.ts';
import { DEMO_KEYS } from './demo-data.ts';
import { startServer } from './server.ts';
import { refuseStartInOneLine } from './start-refusal.ts';

refuseStartInOneLine(); // a damaged store or a short secret: one line, exit code 1
const config = parseConfig(process.env);
const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' });
const { close } = await startServer({ config, demoData: true, logger });
const base = `http://127.0.0.1:${config.port}`;
logger.info({ db: config.db, testMode: config.testMode }, `Item Marketplace reference server on ${base}`);
console.log(`
  Item Marketplace API reference server: ${base}
  Document: ${base}/openapi.json   Docs: ${base}/docs${config.testMode ? '\n  Test mode: /test_helpers/... routes are on' : ''}
  State: ${config.db === ':memory:' ? 'in memory (a sandbox: every change is lost when it stops)' : config.db}

  Try:
    curl -s ${base}/item/listing/1
    curl -s -X POST ${base}/user/login -H 'Content-Type: application/json' -d '{"apiKey": "${DEMO_KEYS.alice}"}'
`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining requests and flushing the store');
    await close();
    process.exit(0);
  });
}
