// `prepack` of @marketplace/openapi: builds the docs page (the same page `npm run docs` writes to
// docs/site/index.html) into the package, so an installed package serves it without this
// repository. The page is not committed: `postpack` removes it again.
import { resolve } from 'node:path';
import { buildDocs } from './docs.ts';

const output = process.argv[2];
if (!output) {
  console.error('usage: node scripts/pack-docs.ts <output.html>');
  process.exit(2);
}
console.log(`wrote ${buildDocs(resolve(output))}`);
