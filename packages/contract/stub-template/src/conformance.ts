// `npm run conformance`: the installed conformance suite against MARKETPLACE_URL (default
// http://127.0.0.1:3000, where `npm start` listens), with this project's baseline, reports in
// conformance-reports/; further arguments go to the suite (`npm run conformance -- --grep login`).
// A script rather than `${MARKETPLACE_URL:-…}` in package.json, which only a POSIX shell expands
// (npm runs scripts with cmd.exe on Windows).
import { readFileSync } from 'node:fs';

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
await import(new URL(bin['marketplace-conformance']!, manifest).href);
