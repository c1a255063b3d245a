// The reference server on its file store (journal and lowdb JSON snapshot), with the document and the docs. Demo data only with
// MARKETPLACE_DEMO=1 (`npm start` and `npm run sandbox` set it): a plain start creates no account.
import pino from 'pino';
import { parseConfig } from './config.ts';
import { DEMO_KEYS, type DemoAdmin } from './demo-data.ts';
import { startServer } from './server.ts';
import { refuseStartInOneLine } from './start-refusal.ts';
import { isPostgresUrl, redactedUrl } from './store/postgres/connection.ts';

refuseStartInOneLine(); // bad variables, a damaged store, a short secret: one line each, exit code 1
const config = parseConfig(process.env);
const logger = pino({ level: config.logLevel });
const { close, url, demoAdmins } = await startServer({ config, demoData: config.demo, logger });
const shownDb = isPostgresUrl(config.db)
  ? `${redactedUrl(config.db)} (PostgreSQL: instances on it answer as one service)`
  : config.db;
logger.info(
  { db: shownDb, testMode: config.testMode, demo: config.demo },
  `Item Marketplace reference server on ${url}`,
);
console.log(`
  Item Marketplace API reference server: ${url}
  Document: ${url}/openapi.json   Docs: ${url}/docs${config.testMode ? '\n  Test mode: /test_helpers/... routes are on' : ''}${config.sandboxes ? `\n  Sandboxes: POST ${url}/sandboxes creates a world of its own (in memory${config.demo ? ', with the demo data' : ''})` : ''}
  State: ${config.db === ':memory:' ? 'in memory (a sandbox: every change is lost when it stops)' : shownDb}
${config.demo ? demoLines(url, demoAdmins) : noDemoLines(url)}`);

/** What to try on the demo data; the admins' random keys are shown only when they are created. */
function demoLines(base: string, admins: DemoAdmin[] | undefined): string {
  const keys = admins
    ? `  Demo admin API keys (shown once, only their hashes are kept):\n${admins.map((a) => `    ${a.name}: ${a.apiKey}`).join('\n')}\n`
    : '  Demo data: already in the store (its admin keys were printed when it was created).\n';
  return `${keys}
  Try:
    curl -s ${base}/item/listing/1
    curl -s -X POST ${base}/user/login -H 'Content-Type: application/json' -d '{"apiKey": "${DEMO_KEYS.alice}"}'
`;
}

function noDemoLines(base: string): string {
  return `  No demo data (MARKETPLACE_DEMO=1 adds it to a new store; \`npm start\` does).

  Try:
    curl -s ${base}/openapi.json
`;
}

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
