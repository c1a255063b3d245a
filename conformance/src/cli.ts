#!/usr/bin/env node
// marketplace-conformance --target <base-url> [--level contract|behavior|all] [--read-only]
//   [--grep <pattern>] [--reporter junit|json|html]... [--api-key K] [--admin-api-key K]
//   [--blocked-country CC] [--out <dir>]
import { parseArgs } from 'node:util';
import { runConformance } from './run.ts';

const { values } = parseArgs({
  options: {
    target: { type: 'string', default: process.env.BASE_URL },
    level: { type: 'string', default: 'all' },
    'read-only': { type: 'boolean', default: false },
    grep: { type: 'string' },
    reporter: { type: 'string', multiple: true, default: [] },
    'api-key': { type: 'string', default: process.env.MARKETPLACE_API_KEY },
    'admin-api-key': { type: 'string', default: process.env.MARKETPLACE_ADMIN_API_KEY },
    'blocked-country': { type: 'string', default: process.env.MARKETPLACE_BLOCKED_COUNTRY },
    out: { type: 'string', default: 'conformance/reports' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help || !values.target) {
  console.log(
    'usage: marketplace-conformance --target <base-url> [--level contract|behavior|all] [--read-only] [--grep <pattern>] [--reporter junit|json|html] [--api-key K] [--admin-api-key K] [--blocked-country CC] [--out dir]',
  );
  process.exit(values.help ? 0 : 2);
}
if (!['contract', 'behavior', 'all'].includes(values.level)) {
  console.error(`--level must be contract, behavior or all (got ${values.level})`);
  process.exit(2);
}

const result = await runConformance({
  target: values.target,
  level: values.level as 'all',
  readOnly: values['read-only'],
  grep: values.grep,
  reporters: values.reporter as ('junit' | 'json' | 'html')[],
  apiKey: values['api-key'],
  adminApiKey: values['admin-api-key'],
  blockedCountry: values['blocked-country'],
  out: values.out,
});

const { coverage: c } = result;
console.log(`\nConformance of ${values.target} (level ${values.level}${values['read-only'] ? ', read-only' : ''})`);
console.log(`  passed ${result.passed}, failed ${result.failed.length}, skipped ${result.skipped.length}`);
console.log(
  `  covered: operations ${c.operations.hit}/${c.operations.all}, documented statuses ${c.statuses.hit}/${c.statuses.all}, documented messages ${c.messages.hit}/${c.messages.all}`,
);
if (result.failed.length) {
  console.log('\nFailed:');
  for (const f of result.failed)
    console.log(`  ✗ ${f.name}\n    ${(f.reason ?? '').split('\n').slice(0, 6).join('\n    ')}`);
}
if (result.skipped.length) {
  const byReason = new Map<string, number>();
  for (const s of result.skipped) byReason.set(s.reason ?? '', (byReason.get(s.reason ?? '') ?? 0) + 1);
  console.log('\nSkipped:');
  for (const [reason, n] of byReason) console.log(`  ${n} × ${reason}`);
}
console.log(
  `\nReports in ${result.out}: results.json, coverage.md, coverage.html${values.reporter.includes('junit') ? ', junit.xml' : ''}${values.reporter.includes('html') ? ', report.html' : ''}`,
);
process.exit(result.failed.length ? 1 : 0);
