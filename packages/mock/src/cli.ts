#!/usr/bin/env node
// `npm run mock`: serves the bundled document with Prism and prints a first request to try.
import { curl, FIRST_REQUESTS } from './first-requests.ts';
import { startMock } from './mock.ts';

const port = Number(process.env.PORT ?? 4010);
const mock = await startMock({ port });
console.log(`Prism mock of the Item Marketplace API on ${mock.url}

Try:
${FIRST_REQUESTS.map((r) => `  ${curl(mock.url, r)}`).join('\n')}

Documented errors: send 'Prefer: code=300, example=<name>' (names are in the document). Ctrl-C stops.`);
const stop = () => mock.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
