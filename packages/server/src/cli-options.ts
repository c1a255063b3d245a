// The options of `marketplace-server` (cli.ts). They only set the environment variables `npm start`
// reads (main.ts), so both ways of starting the server stay one code path.
import { parseArgs } from 'node:util';
import { ON_PURPOSE_ARGS } from '@marketplace/contract';

export const USAGE = `usage: marketplace-server [options]

Starts the reference server of the Item Marketplace API: the document at /openapi.json, the docs
page at /docs, every route of the document.

Options (each sets the environment variable after it):
  --port <n>      listening port (PORT, default 8080)
  --db <path>     the store file, :memory: for none, or a postgres:// URL
                  (MARKETPLACE_DB, default ./data/marketplace.json)
  --test-mode     test helpers, a controllable clock, response validation (MARKETPLACE_TEST_MODE=1)
  --demo          demo accounts, items and listings in a new store, and in every new sandbox
                  unless it asks for {"demo": false} (MARKETPLACE_DEMO=1)
  --sandboxes     POST /sandboxes: isolated worlds under /sandboxes/{id}, in memory
                  (MARKETPLACE_SANDBOXES=1; on in test mode unless MARKETPLACE_SANDBOXES=0)
  --latency <min>-<max>  every API answer waits a time drawn in this range of milliseconds
                  (MARKETPLACE_LATENCY)
  --fail-rate <0..1>     this share of API requests fails: half of them with the API's 429
                  (rate-limit headers, Retry-After 1), half with 500 (MARKETPLACE_FAIL_RATE)
  --seed <n>      seeds the latency and failure draws: the same requests meet the same ones
                  (MARKETPLACE_SEED, default 1)
  -h, --help      this text

In test mode (and in every sandbox) a request may ask for itself: Prefer: delay=<ms> waits,
Prefer: code=429 answers the API's 429 with its rate-limit headers, Prefer: code=500 its 500.

Other environment variables: HOST, MARKETPLACE_PG_POOL, MARKETPLACE_JWT_SECRET,
MARKETPLACE_DEPOSIT_SECRET, MARKETPLACE_SECRETS_KEY, MARKETPLACE_BLOCKED_COUNTRIES, MARKETPLACE_TRUST_PROXY,
MARKETPLACE_CORS_ORIGINS (browser origins allowed: none, *, or a list; local dev servers in test mode
or in memory),
MARKETPLACE_SMTP_URL, MARKETPLACE_SITE_URL, MARKETPLACE_SANDBOX_MAX (20), MARKETPLACE_SANDBOX_IDLE
(seconds, 1800), MARKETPLACE_SANDBOX_MEMORY (heap megabytes), LOG_LEVEL. Each bad one refuses the start with a line
saying what is expected.`;

/** The environment the options ask for, or the line that says why they are refused. */
export function environmentOf(args: string[]): { env: Record<string, string> } | { help: true } | { error: string } {
  let values: {
    port?: string;
    db?: string;
    'test-mode'?: boolean;
    demo?: boolean;
    sandboxes?: boolean;
    latency?: string;
    'fail-rate'?: string;
    seed?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        db: { type: 'string' },
        'test-mode': { type: 'boolean' },
        demo: { type: 'boolean' },
        sandboxes: { type: 'boolean' },
        ...ON_PURPOSE_ARGS,
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    // Node's message may go on with advice about `--`: the first sentence says what is wrong.
    return { error: (error as Error).message.split('. ')[0] ?? String(error) };
  }
  if (values.help) return { help: true };
  const env: Record<string, string> = {};
  if (values.port !== undefined) env.PORT = values.port;
  if (values.db !== undefined) env.MARKETPLACE_DB = values.db;
  if (values['test-mode']) env.MARKETPLACE_TEST_MODE = '1';
  if (values.demo) env.MARKETPLACE_DEMO = '1';
  if (values.sandboxes) env.MARKETPLACE_SANDBOXES = '1';
  if (values.latency !== undefined) env.MARKETPLACE_LATENCY = values.latency;
  if (values['fail-rate'] !== undefined) env.MARKETPLACE_FAIL_RATE = values['fail-rate'];
  if (values.seed !== undefined) env.MARKETPLACE_SEED = values.seed;
  return { env };
}
