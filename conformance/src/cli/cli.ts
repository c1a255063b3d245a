#!/usr/bin/env node
// marketplace-conformance --target <base-url> [options]         run the suite against a target
// marketplace-conformance proxy --target <base-url> [--port P]  check live traffic against the document
// marketplace-conformance verify <summary.json>                  check the seal of a badge summary
// marketplace-conformance baseline write [--from results.json] [--out file] [--expires date]
//                                                                record a run's failures as known
// marketplace-conformance explore --target <base-url> [--seed N]  seeded stateful exploration (src/explore/)
// Exit codes: 0 nothing failed, 1 a failure (or a violation seen by the proxy), 2 bad options or a
// target that is not this API or does not answer.
import { enableCompileCache } from 'node:module';
import { parseArgs } from 'node:util';

// Node's on-disk code cache for what loads next, in this process and (through the environment) in
// the vitest worker: a run loads vitest, vite and the suite's modules again each time, and with the
// cache warm that took about 0.4 s less CPU of the 3 s a one-test run spends starting (two runs
// each). Node's default directory (tmpdir), NODE_COMPILE_CACHE to move it,
// NODE_DISABLE_COMPILE_CACHE=1 to turn it off. It never throws: a cache it cannot write is skipped.
const cache = enableCompileCache();
if (cache.directory) process.env.NODE_COMPILE_CACHE ??= cache.directory;

// Colour only for a person at a terminal: never into a file or a pipe, never with NO_COLOR. Set
// before vitest loads (it decides once, at import).
if (!process.stdout.isTTY || process.env.NO_COLOR !== undefined) {
  process.env.NO_COLOR = '1';
  delete process.env.FORCE_COLOR;
}

const USAGE = `usage: marketplace-conformance --target <base-url> [options]
       marketplace-conformance proxy --target <base-url> [--port <port>] [--out <dir>] [--reporter <name>]...
       marketplace-conformance verify <summary.json>
       marketplace-conformance baseline write [--from <results.json>] [--out <file>] [--expires <YYYY-MM-DD>]
       marketplace-conformance explore --target <base-url> [--seed <n>] [--steps <n>] [--time <s>] [--replay <file>] [--out <dir>]

  --target <url>          the implementation to test, with its scheme (or BASE_URL)
  --level <level>         contract, behavior or all (default all)
  --read-only             send only requests that change nothing (a deployment)
  --grep <pattern>        run only the tests whose name, as the reports print it, matches (a regular
                          expression, or text as written)
  --reporter <name>       junit, json, html or badge; repeatable (results.json is always written)
  --api-key <key>         an account's API key, for a target without test helpers (or MARKETPLACE_API_KEY)
  --admin-api-key <key>   an admin account's API key (or MARKETPLACE_ADMIN_API_KEY)
  --blocked-country <CC>  a country the target refuses at login (or MARKETPLACE_BLOCKED_COUNTRY)
  --mock                  the target is a mock (Prism): do not expect the API's error envelope
  --operations <list>     only these operations (comma-separated, or a file of one per line):
                          the tests needing others skip, and nothing is sent to them
  --require-all           an operation or test helper a test needs that answers 404 fails, and so does
                          every behaviour test on a target without working test helpers, and every
                          test of a logged-in route left without credentials (a release gate)
  --baseline <file>       known failures (baseline write): reported, not failing, until they expire
  --previous <file>       a previous run's summary.json (or results.json): the reports say what
                          changed since (newly failing, fixed, newly implemented)
  --out <dir>             where reports go (default conformance/reports)
  --port <port>           proxy: the port to listen on (default: a free port, printed)
  --from <results.json>   baseline write: the run to record (default conformance/reports/results.json)
  --out <file>            baseline write: the baseline file (default conformance-baseline.json)
  --expires <YYYY-MM-DD>  baseline write: the date new entries stop being known (default: never)
  --seed <n>              explore: the seed (a run repeats exactly with the same seed and bounds)
  --steps <n>, --time <s> explore: stop starting runs after this many steps or seconds (default 60 s)
  --replay <file>         explore: play a replay file written by a failed exploration
  -h, --help              this text`;

const OPTIONS = {
  target: { type: 'string' },
  level: { type: 'string' },
  'read-only': { type: 'boolean' },
  mock: { type: 'boolean' },
  operations: { type: 'string' },
  'require-all': { type: 'boolean' },
  grep: { type: 'string' },
  reporter: { type: 'string', multiple: true },
  'api-key': { type: 'string' },
  'admin-api-key': { type: 'string' },
  'blocked-country': { type: 'string' },
  out: { type: 'string' },
  baseline: { type: 'string' },
  previous: { type: 'string' },
  from: { type: 'string' },
  expires: { type: 'string' },
  port: { type: 'string' },
  seed: { type: 'string' },
  steps: { type: 'string' },
  time: { type: 'string' },
  replay: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;
type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** One line saying what is wrong, the usage, exit 2. */
function usageError(message: string): never {
  process.stderr.write(`marketplace-conformance: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

/** One line, exit 2: the options were fine but the run cannot start. */
function stop(message: string): never {
  process.stderr.write(`marketplace-conformance: ${message}\n`);
  process.exit(2);
}

/** Edit distance, to suggest the option meant by a typo (`--levle`). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const kept = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = kept;
    }
  }
  return row[b.length]!;
}

/** The parse error of node:util in one line of our own. */
function optionError(e: Error & { code?: string }): string {
  const quoted = e.message.match(/'([^']+)'/)?.[1] ?? '';
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const near = Object.keys(OPTIONS)
      .map((name) => ({ name, d: distance(quoted.replace(/^-+/, ''), name) }))
      .sort((a, b) => a.d - b.d)[0];
    return `unknown option ${quoted}${near && near.d <= 2 ? ` (did you mean --${near.name}?)` : ''}`;
  }
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `${quoted.split(' ')[0]} needs a value`;
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument ${quoted}`;
  return e.message.split('\n')[0] ?? 'bad options';
}

/**
 * The operations of `--operations`: a file with one per line (`#` comments), or a comma-separated
 * list; each `METHOD /path` as the reports print it, or an operationId. An unknown one stops the run.
 */
async function operationList(value: string): Promise<Set<string>> {
  const { existsSync, readFileSync } = await import('node:fs');
  const { parseOperations } = await import('../kit/not-implemented.ts');
  const fromFile = existsSync(value);
  const { names, unknown } = parseOperations(fromFile ? readFileSync(value, 'utf8') : value);
  if (unknown.length)
    usageError(
      `--operations: ${unknown.map((u) => JSON.stringify(u)).join(', ')} ${unknown.length > 1 ? 'are' : 'is'} neither an operation of the document (\`GET /user/balance\`, or its operationId) nor a test helper${fromFile ? '' : ', and no such file'}`,
    );
  if (!names.size) usageError(`--operations ${value} names no operation`);
  return names;
}

function parse(args: string[]): { values: Values; positionals: string[] } {
  try {
    return parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    return usageError(optionError(e as Error & { code?: string }));
  }
}

const argv = process.argv.slice(2);
const command = ['proxy', 'verify', 'baseline', 'explore'].includes(argv[0] ?? '') ? argv[0]! : 'run';
const { values, positionals } = parse(command === 'run' ? argv : argv.slice(1));
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (command !== 'baseline')
  for (const name of ['from', 'expires'] as const)
    if (values[name] !== undefined) usageError(`--${name} is an option of baseline write`);

if (command === 'baseline') {
  if (positionals.length !== 1 || positionals[0] !== 'write') usageError('baseline takes one command: write');
  for (const name of Object.keys(values))
    if (!['from', 'out', 'expires'].includes(name)) usageError(`--${name} is not an option of baseline write`);
  const { readFileSync } = await import('node:fs');
  const { baselineOf, isDate, writeBaseline } = await import('../run/baseline.ts');
  if (values.expires !== undefined && !isDate(values.expires))
    usageError(`--expires must be a date YYYY-MM-DD, got ${values.expires}`);
  const from = values.from ?? 'conformance/reports/results.json';
  let run: Parameters<typeof baselineOf>[0];
  try {
    run = JSON.parse(readFileSync(from, 'utf8'));
    if (!Array.isArray(run.outcomes)) throw new Error('no "outcomes": not the results.json of a run');
  } catch (e) {
    stop(`cannot read ${from}: ${(e as Error).message.split('\n')[0]}`);
  }
  const file = values.out ?? 'conformance-baseline.json';
  const baseline = baselineOf(run, values.expires);
  writeBaseline(file, baseline);
  const n = baseline.failures.length;
  process.stdout.write(
    `${file}: ${n} known failure${n === 1 ? '' : 's'} of ${from}${values.expires ? ` (new ones known until ${values.expires})` : ''}; run with --baseline ${file}\n`,
  );
  process.exit(0);
}

if (command === 'verify') {
  if (positionals.length !== 1) usageError('verify takes one summary.json');
  const { readFileSync } = await import('node:fs');
  const { verifySummary } = await import('../run/badge.ts');
  let summary: Parameters<typeof verifySummary>[0];
  try {
    summary = JSON.parse(readFileSync(positionals[0]!, 'utf8'));
  } catch (e) {
    stop(`cannot read ${positionals[0]}: ${(e as Error).message.split('\n')[0]}`);
  }
  const ok = verifySummary(summary, process.env.CONFORMANCE_SIGNING_KEY);
  process.stdout.write(
    ok
      ? `${positionals[0]}: seal ${summary.seal?.algorithm} matches (${summary.result}, ${summary.counts.passed} passed, ${summary.counts.failed} failed)\n`
      : `${positionals[0]}: the seal does not match its content${summary.seal?.algorithm === 'hmac-sha256' && !process.env.CONFORMANCE_SIGNING_KEY ? ' (an HMAC seal: set CONFORMANCE_SIGNING_KEY)' : ''}\n`,
  );
  process.exit(ok ? 0 : 1);
}

if (positionals.length) usageError(`unexpected argument ${positionals[0]}`);
const target = (values.target ?? process.env.BASE_URL)?.replace(/\/+$/, '');
if (!target) usageError('missing --target <url> (or BASE_URL)');
const { REPORTERS } = await import('../kit/settings.ts');
const reporters = (values.reporter ?? []).flatMap((r) => r.split(',')).filter(Boolean);
for (const r of reporters)
  if (!(REPORTERS as readonly string[]).includes(r))
    usageError(`unknown --reporter ${r} (one of ${REPORTERS.join(', ')})`);
const out = values.out ?? 'conformance/reports';
const EXPLORE_OPTIONS = ['seed', 'steps', 'time', 'replay'] as const;
if (command !== 'explore')
  for (const name of EXPLORE_OPTIONS) if (values[name] !== undefined) usageError(`--${name} is an option of explore`);

/** The options of a plain run only (the proxy and explore refuse them). */
const RUN_ONLY = [
  'level',
  'read-only',
  'mock',
  'grep',
  'api-key',
  'admin-api-key',
  'blocked-country',
  'operations',
  'require-all',
  'baseline',
  'previous',
] as const;

if (command === 'explore') {
  for (const name of [...RUN_ONLY, 'port'] as const)
    if (values[name] !== undefined) usageError(`--${name} is not an option of explore`);
  const { exploreCommand } = await import('../explore/command.ts');
  const code = await exploreCommand(
    { target, out, seed: values.seed, steps: values.steps, time: values.time, replay: values.replay },
    { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) },
  );
  process.exit(code);
}

if (command === 'proxy') {
  for (const name of RUN_ONLY)
    if (values[name] !== undefined) usageError(`--${name} is an option of a run, not of the proxy`);
  const port = Number(values.port ?? 0);
  if (!/^\d+$/.test(values.port ?? '0') || port > 65535) usageError(`--port must be a port number, got ${values.port}`);
  const { probeTarget } = await import('../run/probe.ts');
  const problem = await probeTarget(target);
  if (problem) stop(problem);
  const { startValidatingProxy } = await import('../proxy/proxy.ts');
  const proxy = await startValidatingProxy({ target, port, out, reporters: reporters as never });
  process.stdout.write(
    `Validating proxy to ${target} on ${proxy.url}: point your client there; violations are printed as they happen. Ctrl-C writes the reports.\n`,
  );
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      const report = await proxy.close();
      process.stdout.write(`\n${report.summary}\n`);
      process.exit(report.violations ? 1 : 0);
    });
} else {
  if (values.port !== undefined) usageError('--port is an option of the proxy command');
  const level = values.level ?? 'all';
  if (!['contract', 'behavior', 'all'].includes(level))
    usageError(`--level must be contract, behavior or all, got ${level}`);
  // The files a run reads, read now: one that is not what it should be stops it before it starts.
  const { readBaseline } = await import('../run/baseline.ts');
  const { readPrevious } = await import('../run/changes.ts');
  for (const [file, read] of [
    [values.baseline, readBaseline],
    [values.previous, readPrevious],
  ] as const)
    try {
      if (file !== undefined) read(file);
    } catch (e) {
      stop((e as Error).message);
    }
  const operations = values.operations === undefined ? undefined : await operationList(values.operations);
  const { probeTarget } = await import('../run/probe.ts');
  const problem = await probeTarget(target, undefined, operations);
  if (problem) stop(problem);
  const { runConformance, writtenReports } = await import('../run/run.ts');
  const { summary } = await import('../run/report.ts');
  const options = {
    target,
    level: level as 'all',
    readOnly: values['read-only'] ?? false,
    mock: values.mock ?? false,
    grep: values.grep,
    reporters: reporters as never[],
    apiKey: values['api-key'] ?? process.env.MARKETPLACE_API_KEY,
    adminApiKey: values['admin-api-key'] ?? process.env.MARKETPLACE_ADMIN_API_KEY,
    blockedCountry: values['blocked-country'] ?? process.env.MARKETPLACE_BLOCKED_COUNTRY,
    operations,
    requireAll: values['require-all'] ?? false,
    out,
    baseline: values.baseline,
    previous: values.previous,
  };
  const result = await runConformance(options);
  if (!result.outcomes.length) stop('the suite collected no test: see the messages above');
  if (options.grep && result.outcomes.every((o) => o.state === 'skipped' && o.reason?.startsWith('left out by --grep')))
    stop(`no test name matches --grep ${options.grep}`);
  process.stdout.write(`\n${summary(result, writtenReports(result, options))}\n`);
  process.exit(result.failed.length ? 1 : 0);
}
