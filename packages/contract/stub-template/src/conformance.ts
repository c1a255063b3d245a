// `npm run conformance`: the installed conformance suite against MARKETPLACE_URL (default
// http://127.0.0.1:3000, where `npm start` listens), with this project's baseline, reports in
// conformance-reports/ and the first of the countries the server blocks (settings.ts) as
// `--blocked-country`, so `Country blocked` is tested; further arguments go to the suite
// (`npm run conformance -- --grep login`).
// A script rather than `${MARKETPLACE_URL:-…}` in package.json, which only a POSIX shell expands
// (npm runs scripts with cmd.exe on Windows).
import { readFileSync } from 'node:fs';
import { BLOCKED_COUNTRIES } from './settings.ts';

const manifest = new URL(import.meta.resolve('@marketplace/conformance/package.json'));
const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
process.argv.push(
  '--target',
  process.env.MARKETPLACE_URL || 'http://127.0.0.1:3000',
  '--baseline',
  'conformance-baseline.json',
  '--out',
  'conformance-reports',
);
const [blocked] = BLOCKED_COUNTRIES;
if (blocked && !process.argv.some((arg) => arg.startsWith('--blocked-country')))
  process.argv.push('--blocked-country', blocked);
await import(new URL(bin['marketplace-conformance']!, manifest).href);
