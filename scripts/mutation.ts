// `npm run mutation -- [--sample <fraction>] [--seed <n>] <file>...`: StrykerJS mutates the given
// source files (the reference server's domain, the contract) and runs the CONFORMANCE SUITE against
// each mutant: a mutant the suite does not fail is a meaning the suite cannot tell apart (ADR 0037).
// The reference server runs in the suite's own worker (conformance/vitest.mutation.config.ts), so
// per-test coverage runs only the tests whose requests reach a mutant. One worker: the machine has
// 2 cores shared by others. `--sample 0.3 --seed 7` keeps a seeded 30 % of each file's lines (a
// file with too many mutants for an hour); the mutants on the other lines are not generated.
// `--rest-of 0.1:2,0.3:3` keeps the lines that those earlier samples (fraction:seed) left out, so
// runs of one file add up to the whole of it (the file unchanged since).
// `--spanning` mutates whole files but only the mutants that span lines (a body emptied, a
// multi-line literal): the ones no line range of a sample or `--rest-of` run holds whole.
// `--tests cashouts,sales` runs only those files of conformance/tests (a quicker first look; the
// score reported in the README is taken with the whole suite, the default).
// `--all-tests` runs every selected test against each mutant (no per-test coverage): for code that
// runs once per operation and is memoised (a rate-limit rule's plan), coverage credits only the test
// that first reached the operation, so a mutant there would run only that test. Trust its kills; a
// survivor whose `testsCompleted` is below the dry run's count stopped short (ADR 0037).
// Reports: reports/mutation/<file>.json and .html, named after the mutated files (git-ignored), so
// runs of different files side by side keep their own. Survivors are triaged by
// hand into conformance/mutation-survivors.md, and the score per file goes into conformance/README.md.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Stryker } from '@stryker-mutator/core';
import { lineRanges, parseSamples, restLines, sampledLines } from './mutation-lines.ts';

const { values, positionals: files } = parseArgs({
  allowPositionals: true,
  options: {
    sample: { type: 'string' },
    seed: { type: 'string', default: '1' },
    'rest-of': { type: 'string' },
    spanning: { type: 'boolean', default: false },
    tests: { type: 'string' },
    'all-tests': { type: 'boolean', default: false },
  },
});
if (files.length === 0) {
  process.stderr.write(
    'usage: npm run mutation -- [--sample <fraction 0..1>] [--seed <n>] [--rest-of <fraction:seed,...>] [--spanning] [--tests a,b] [--all-tests] <file>...\n',
  );
  process.exit(2);
}
const sample = values.sample === undefined ? 1 : Number(values.sample);
const seed = Number(values.seed);
if (!(sample > 0 && sample <= 1) || !Number.isSafeInteger(seed)) {
  process.stderr.write('--sample takes a fraction in (0, 1], --seed an integer\n');
  process.exit(2);
}

const restOf = values['rest-of'] === undefined ? undefined : parseSamples(values['rest-of']);
if (values['rest-of'] !== undefined && (restOf === undefined || sample !== 1)) {
  process.stderr.write('--rest-of takes fraction:seed pairs, comma-separated, and no --sample\n');
  process.exit(2);
}
if (values.spanning && (sample !== 1 || restOf !== undefined || files.some((f) => f.includes(':')))) {
  process.stderr.write('--spanning takes whole files: no --sample, --rest-of or line ranges\n');
  process.exit(2);
}

/** The file whole, a seeded sample of its lines, or the lines earlier samples left out, as Stryker ranges. */
function mutate(file: string): string[] {
  if (sample === 1 && restOf === undefined) return [file];
  // Counted as the first samples were: the parts of the text split at newlines.
  const count = readFileSync(file, 'utf8').split('\n').length;
  const lines = restOf ? restLines(count, restOf) : sampledLines(count, sample, seed);
  return lineRanges(lines).map(([from, to]) => `${file}:${from}-${to}`);
}

// Named after the mutated files, each once: a run given ranges of one file (`sale.ts:2-4 sale.ts:9-12`)
// is named after the file, not after every range.
const names = [...new Set(files.map((f) => basename(f.replace(/:.*$/, ''), '.ts')))];
const report = `reports/mutation/${names.join('+')}${values.spanning ? '.spanning' : ''}`;

// Read by conformance/vitest.mutation.config.ts in Stryker's test runner process.
if (values.tests) process.env.MUTATION_TESTS = values.tests;

const stryker = new Stryker({
  mutate: files.flatMap(mutate),
  testRunner: 'vitest',
  plugins: [
    '@stryker-mutator/vitest-runner',
    ...(values.spanning ? [fileURLToPath(new URL('./mutation-spanning.ts', import.meta.url))] : []),
  ],
  ignorers: values.spanning ? ['single-line'] : [],
  vitest: { configFile: 'conformance/vitest.mutation.config.ts', related: false },
  // The suite's requests reach the mutated code inside the worker, so coverage is per test.
  coverageAnalysis: values['all-tests'] ? 'off' : 'perTest',
  concurrency: 1,
  // A behaviour test on a loaded machine takes seconds; a mutant that loops is cut after this.
  timeoutMS: 60_000,
  // The whole suite with per-test coverage on a loaded 2-core machine takes minutes, not seconds.
  dryRunTimeoutMinutes: 30,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: `${report}.json` },
  htmlReporter: { fileName: `${report}.html` },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
});
const results = await stryker.runMutationTest();
const survived = results.filter((r) => r.status === 'Survived' || r.status === 'NoCoverage');
process.exitCode = survived.length > 0 ? 1 : 0;
