#!/usr/bin/env node
// `npm run mock` / `marketplace-mock`: the mock of the Item Marketplace API (mock.ts), or the names
// of the documented examples `Prefer` picks from (`--examples`).
import { parseArgs } from 'node:util';
import { ON_PURPOSE_ARGS, parseFailRate, parseLatency, parseSeed, readDocument } from '@marketplace/contract';
import { locateDocument } from './document.ts';
import { documentExamples, listing } from './examples.ts';
import { curl, FIRST_REQUESTS } from './first-requests.ts';
import { startMock } from './mock.ts';

const USAGE = `Usage: marketplace-mock [options]
       marketplace-mock --examples [operationId]

Serves the Item Marketplace API document with Prism behind the API's conventions: a missing,
malformed or expired bearer gets 403 forbidden, a request that breaks the document the
operation's documented 300 message. Any documented answer by name:
  -H 'Prefer: code=300, example=<name>'

Options:
  -p, --port <port>    listening port (default: $PORT, else 4010; 0 picks a free one)
      --host <host>    listening address (default: 127.0.0.1)
      --dynamic        data generated from the schemas instead of the examples
      --examples [id]  list the example names of an operation (all operations without an id)
      --latency <min>-<max>
                       every answer waits a time drawn in this range of milliseconds (e.g. 100-800)
      --fail-rate <0..1>
                       this share of requests fails: half with the API's 429 (its four
                       rate-limit headers, Retry-After 1), half with 500 Internal server error
      --seed <n>       seeds those draws (default 1): the same requests in the same order meet
                       the same delays and failures on every run
  -h, --help           this help

Slow and failing on purpose, per request (any operation, with or without the options above):
  -H 'Prefer: delay=<ms>'   waits this long (at most 30000) before answering
  -H 'Prefer: code=429'     the API's 429 with X-RateLimit-Limit, -Remaining, -Reset, Retry-After
  -H 'Prefer: code=500'     the API's 500 Internal server error
  (delay combines with the others: 'Prefer: delay=2000, code=300, example=<name>')

Environment:
  PORT                 listening port when --port is not given

To check a running server's traffic against the document instead, put the conformance suite's
validating proxy in front of it (@marketplace/conformance):
  npx marketplace-conformance proxy --target <url>`;

/** What `--proxy` (Prism's validation proxy, gone) should be asked of now. */
const PROXY_MOVED =
  "--proxy is gone: check a running server's traffic with `npx marketplace-conformance proxy --target <url>`";

/** A usage error: one line saying what is wrong, the usage, exit status 2. */
function refuse(problem: string): never {
  console.error(`marketplace-mock: ${problem}\n\n${USAGE}`);
  process.exit(2);
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      proxy: { type: 'string' }, // only to say where it went (PROXY_MOVED)
      dynamic: { type: 'boolean' },
      examples: { type: 'boolean' },
      ...ON_PURPOSE_ARGS,
      help: { type: 'boolean', short: 'h' },
    },
  });
}
try {
  parsed = parse();
} catch (e) {
  refuse((e as Error).message.split('\n')[0]!.replace(/\. To specify a positional.*$/, ''));
}
const { values, positionals } = parsed;

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

if (values.examples) {
  const operations = documentExamples(readDocument(locateDocument()));
  const [id, ...extra] = positionals;
  if (extra.length) refuse(`one operationId at most, got ${positionals.join(' ')}`);
  const chosen = id === undefined ? operations : operations.filter((o) => o.operationId === id);
  if (!chosen.length) refuse(`unknown operationId '${id}' (marketplace-mock --examples lists them all)`);
  for (const op of chosen) {
    console.log(`${op.operationId}  ${op.method} ${op.path}\n${listing(op).replace(/^/gm, '  ')}\n`);
  }
  if (id !== undefined) console.log("Ask for one with -H 'Prefer: code=<status>, example=<name>'.");
  process.exit(0);
}

if (positionals.length) refuse(`unexpected argument '${positionals[0]}'`);
const portText = values.port ?? process.env.PORT ?? '4010';
const port = Number(portText);
if (!/^\d+$/.test(portText) || port > 65_535) refuse(`invalid port '${portText}': a number from 0 to 65535`);
if (values.proxy !== undefined) refuse(PROXY_MOVED);

const latency = values.latency === undefined ? undefined : parseLatency(values.latency);
if (typeof latency === 'string') refuse(`invalid --latency '${values.latency}': ${latency}`);
const failRate = values['fail-rate'] === undefined ? undefined : parseFailRate(values['fail-rate']);
if (typeof failRate === 'string') refuse(`invalid --fail-rate '${values['fail-rate']}': ${failRate}`);
const seed = values.seed === undefined ? undefined : parseSeed(values.seed);
if (typeof seed === 'string') refuse(`invalid --seed '${values.seed}': ${seed}`);

let mock: Awaited<ReturnType<typeof startMock>>;
try {
  mock = await startMock({
    port,
    host: values.host,
    dynamic: values.dynamic,
    onPurpose: { latency, failRate, seed },
  });
} catch (e) {
  console.error(`marketplace-mock: ${(e as Error).message}`);
  process.exit(1);
}
console.log(`Mock of the Item Marketplace API on ${mock.url} (Prism on the document, answering as the API does)

Try:
${FIRST_REQUESTS.map((r) => `  ${curl(mock.url, r)}`).join('\n')}

A missing, malformed or expired bearer gets 403 forbidden; a request that breaks the document gets
the operation's documented 300 message.
Documented answers by name: -H 'Prefer: code=300, example=<name>'. The names of an operation:
  npm run mock -- --examples <operationId>   (or marketplace-mock --examples <operationId>)
and beside each error on the docs page (npm run docs).
Ctrl-C stops.`);
let stopping = false;
const stop = () => {
  stopping = true;
  return mock.stop().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
// Without Prism every answer would be a 500: better to stop and say so.
mock.process.once('exit', (code, signal) => {
  if (stopping) return;
  console.error(`marketplace-mock: Prism stopped (${signal ?? `exit status ${code}`}); stopping too`);
  void mock.stop().then(() => process.exit(1));
});
