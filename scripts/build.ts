// `npm run build`: regenerates the bundled documents and the TypeScript types.
import { resolve } from 'node:path';
import { ARTIFACTS, generate } from './generated.ts';

const root = resolve(import.meta.dirname, '..');
await generate(root, root);
for (const file of ARTIFACTS) console.log(`wrote ${file}`);
