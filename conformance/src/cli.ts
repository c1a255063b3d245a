#!/usr/bin/env node
// marketplace-conformance --target <base-url> [--level contract|behavior|all] [--read-only]
//   [--grep <pattern>] [--reporter junit|json|html]... [--api-key K] [--admin-api-key K]
//   [--blocked-country CC] [--mock] [--out <dir>]
import { parseArgs } from 'node:util';
import { summary } from './report.ts';
import { reportFiles, runConformance } from './run.ts';

const USAGE = `usage: marketplace-conformance --target <base-url> [options]

  --target <url>          the implementation to test (or BASE_URL)
  --level <level>         contract, behavior or all (default all)
  --read-only             send only requests that change nothing (a deployment)
  --grep <pattern>        run only the tests whose name matches
  --reporter <name>       junit, json or html; repeatable (results.json is always written)
  --api-key <key>         an account's API key, for a target without test helpers (or MARKETPLACE_API_KEY)
  --admin-api-key <key>   an admin account's API key (or MARKETPLACE_ADMIN_API_KEY)
  --blocked-country <CC>  a country the target refuses at login (or MARKETPLACE_BLOCKED_COUNTRY)
  --mock                  the target is a mock (Prism): do not expect the API's error envelope
  --out <dir>             where reports go (default conformance/reports)`;

const { values } = parseArgs({
  options: {
    target: { type: 'string', default: process.env.BASE_URL },
    level: { type: 'string', default: 'all' },
    'read-only': { type: 'boolean', default: false },
    mock: { type: 'boolean', default: false },
    grep: { type: 'string' },
    reporter: { type: 'string', multiple: true, default: [] },
    'api-key': { type: 'string', default: process.env.MARKETPLACE_API_KEY },
    'admin-api-key': { type: 'string', default: process.env.MARKETPLACE_ADMIN_API_KEY },
    'blocked-country': { type: 'string', default: process.env.MARKETPLACE_BLOCKED_COUNTRY },
    out: { type: 'string', default: 'conformance/reports' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help || !values.target) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
const fail = (message: string) => {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
};
if (!['contract', 'behavior', 'all'].includes(values.level)) fail(`--level must be contract, behavior or all`);
const reporters = values.reporter.flatMap((r) => r.split(','));
for (const r of reporters) if (!['junit', 'json', 'html'].includes(r)) fail(`unknown --reporter ${r}`);
try {
  await fetch(values.target);
} catch (e) {
  fail(`the target ${values.target} does not answer: ${(e as Error).cause ?? (e as Error).message}`);
}

const options = {
  target: values.target,
  level: values.level as 'all',
  readOnly: values['read-only'],
  mock: values.mock,
  grep: values.grep,
  reporters: reporters as ('junit' | 'json' | 'html')[],
  apiKey: values['api-key'],
  adminApiKey: values['admin-api-key'],
  blockedCountry: values['blocked-country'],
  out: values.out,
};
const result = await runConformance(options);
console.log(`\n${summary(result, { level: values.level, readOnly: options.readOnly, files: reportFiles(options) })}`);
process.exit(result.failed.length ? 1 : 0);
