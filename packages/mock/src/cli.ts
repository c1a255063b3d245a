#!/usr/bin/env node
// `npm run mock`: serves the bundled document with Prism and prints a first request to try.
import { startMock } from './mock.ts';

const port = Number(process.env.PORT ?? 4010);
const mock = await startMock({ port });
console.log(`Prism mock of the Item Marketplace API on ${mock.url}

Try:
  curl -s ${mock.url}/item/listing/1
  curl -s -X POST ${mock.url}/item/buyorder -H 'Authorization: Bearer any' -H 'Content-Type: application/json' \\
       -H 'Prefer: code=300, example=notEnoughBalance' -d '{"itemid": 1, "value": 150, "amount": 1}'

Documented errors: send 'Prefer: code=300, example=<name>' (names are in the document). Ctrl-C stops.`);
const stop = () => mock.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
