// `marketplace-conformance explore`: seeded stateful exploration with fast-check's model-based
// testing. Each run resets the target, sets up the cast (model.ts) and plays a random but valid
// sequence of steps (steps.ts), checking every answer and every invariant (invariants.ts) after
// each step. Runs use seeds derived from `--seed`, so a seed repeats its runs exactly. On a failure
// fast-check shrinks the sequence (a sequence failing another way does not count, so the shrunk
// one shows the same failure), the shrunk sequence is played once more to record its exchanges, and
// it is printed as numbered curl lines and written as a replay file and an Arazzo workflow.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { notImplementedReason } from '../kit/not-implemented.ts';
import { arazzoWorkflow } from './arazzo.ts';
import { client, type ExplorerCall, Violation } from './client.ts';
import { leftOutInvariants, probeReads } from './invariants.ts';
import { Missing, type Real, setUp } from './model.ts';
import { leftOutSteps } from './step-kit.ts';
import { STEPS, Step, type StepRecord, stepArbitraries } from './steps.ts';

export interface ExploreOptions {
  target: string;
  seed: number;
  /** Stop starting runs once this many steps ran (in all runs). */
  steps: number;
  /** Stop starting runs after this many seconds. */
  time: number;
  out: string;
  /** Steps per run at most. */
  maxCommands?: number;
  print?: (line: string) => void;
}

export interface Failure {
  kind: string;
  message: string;
  /** The shrunk sequence. */
  steps: StepRecord[];
  /** The exchanges of its last play (set-up and steps, then the reads that show the failure). */
  exchanges: ExplorerCall[];
  /** The reads (or the answer) that show the failure. */
  evidence: ExplorerCall[];
  /** Whether playing the shrunk sequence again failed the same way. */
  replays: boolean;
  files: { replay: string; arazzo: string };
}

/** What a partial implementation kept out of the session, each with the suite's skip reason. */
export interface LeftOut {
  steps: { step: string; reason: string }[];
  invariants: { invariant: string; reason: string }[];
}

export interface ExploreResult {
  seed: number;
  runs: number;
  steps: number;
  failure?: Failure;
  /** Empty against a complete implementation. */
  leftOut: LeftOut;
  /** Why no run could start: an operation or helper the set-up needs answered 404. */
  cannot?: string;
}

export interface ReplayFile {
  format: 'marketplace-explore-replay';
  version: 1;
  seed?: number;
  failure?: { kind: string; message: string };
  steps: StepRecord[];
}

/** The seed of run `i` of a session started with `seed` (any 32-bit integer). */
const runSeed = (seed: number, i: number) => (Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) + i * 0x6d2b79f5) | 0;

/**
 * Sets up once to learn what the target does not implement (the suite's rule: a 404): the set-up's
 * own helpers and log-in (without them nothing can run: `cannot`), then the reads of the
 * invariants. The steps' operations are learnt as the runs meet them.
 */
async function preflight(target: string): Promise<{ missing: Set<string>; cannot?: string }> {
  const missing = new Set<string>();
  const real: Real = { api: client(target), actors: [], ran: [], missing };
  try {
    await probeReads(real, await setUp(real));
  } catch (e) {
    if (e instanceof Missing)
      return { missing, cannot: notImplementedReason(e.operation, 'set up a run: users, items, assets, log-ins') };
    // Anything else happens again in the first run, which reports it as its failure.
  }
  return { missing };
}

const leftOutOf = (missing: ReadonlySet<string>): LeftOut => ({
  steps: leftOutSteps(STEPS, missing),
  invariants: leftOutInvariants(missing),
});

/** Plays the set-up and `steps` once against `target`; the Violation (or error) ends it. */
export async function play(
  target: string,
  steps: StepRecord[],
  missing: Set<string>,
): Promise<{ real: Real; error?: unknown }> {
  const real: Real = { api: client(target), actors: [], ran: [], missing };
  try {
    const model = await setUp(real);
    for (const s of steps) {
      const step = new Step(s.step, s.args);
      if (step.check(model)) await step.run(model, real);
    }
    return { real };
  } catch (error) {
    return { real, error };
  }
}

const kindOf = (e: unknown) => (e instanceof Violation ? e.kind : 'the run completes');
const evidenceOf = (e: unknown) => (e instanceof Violation ? e.evidence : []);
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Runs seeded sequences until the step or time budget is spent or one fails (then shrinks it). */
export async function explore(options: ExploreOptions): Promise<ExploreResult> {
  const print = options.print ?? (() => {});
  const deadline = Date.now() + options.time * 1000;
  const { missing, cannot } = await preflight(options.target);
  if (cannot) return { seed: options.seed, runs: 0, steps: 0, leftOut: leftOutOf(missing), cannot };
  let steps = 0;
  let runs = 0;
  let first: string | undefined;
  let last: { steps: StepRecord[]; error: unknown } | undefined;
  const property = fc.asyncProperty(
    fc.commands(stepArbitraries, { maxCommands: options.maxCommands ?? 25, size: 'max' }),
    async (commands) => {
      const real: Real = { api: client(options.target), actors: [], ran: [], missing };
      try {
        await fc.asyncModelRun(async () => ({ model: await setUp(real), real }), commands);
        if (first === undefined) steps += real.ran.length;
      } catch (error) {
        // While shrinking, a sequence failing another way is not the failure being shrunk.
        if (first !== undefined && kindOf(error) !== first) return;
        first ??= kindOf(error);
        last = { steps: [...real.ran], error };
        throw error;
      }
    },
  );
  while (first === undefined && steps < options.steps && Date.now() < deadline) {
    const details = await fc.check(property, { seed: runSeed(options.seed, runs), numRuns: 1, endOnFailure: false });
    runs += 1;
    if (!details.failed) print(`run ${runs}: passed (${steps} steps so far)`);
  }
  if (!last) return { seed: options.seed, runs, steps, leftOut: leftOutOf(missing) };
  const found = last as { steps: StepRecord[]; error: unknown };
  // The shrunk sequence, played again: the exchanges to print, and proof that it replays.
  const again = await play(options.target, found.steps, missing);
  const replays = again.error !== undefined && kindOf(again.error) === first;
  const failure = writeFailure(options, {
    kind: first!,
    message: messageOf(replays ? again.error : found.error),
    steps: found.steps,
    exchanges: again.real.api.log,
    evidence: evidenceOf(replays ? again.error : found.error),
    replays,
  });
  return { seed: options.seed, runs, steps, failure, leftOut: leftOutOf(missing) };
}

/** Writes the replay file and the Arazzo workflow of a failure into `out`. */
function writeFailure(options: { out: string; seed?: number; target: string }, f: Omit<Failure, 'files'>): Failure {
  mkdirSync(options.out, { recursive: true });
  const replay = join(options.out, 'explore-replay.json');
  const arazzo = join(options.out, 'explore-failure.arazzo.json');
  const file: ReplayFile = {
    format: 'marketplace-explore-replay',
    version: 1,
    seed: options.seed,
    failure: { kind: f.kind, message: f.message },
    steps: f.steps,
  };
  writeFileSync(replay, `${JSON.stringify(file, null, 2)}\n`);
  writeFileSync(arazzo, `${JSON.stringify(arazzoWorkflow(f), null, 2)}\n`);
  return { ...f, files: { replay, arazzo } };
}

/** Reads a replay file written by a failed run. */
export function readReplay(path: string): ReplayFile {
  const file = JSON.parse(readFileSync(path, 'utf8')) as ReplayFile;
  if (file.format !== 'marketplace-explore-replay' || !Array.isArray(file.steps))
    throw new Error(`${path} is not a replay file of marketplace-conformance explore`);
  return file;
}

/** Plays a replay file once: its failure again, or none (the target was fixed). */
export async function replay(target: string, path: string, out: string): Promise<ExploreResult> {
  const file = readReplay(path);
  const { missing, cannot } = await preflight(target);
  if (cannot) return { seed: file.seed ?? 0, runs: 0, steps: 0, leftOut: leftOutOf(missing), cannot };
  const { real, error } = await play(target, file.steps, missing);
  const leftOut = leftOutOf(missing);
  if (error === undefined) return { seed: file.seed ?? 0, runs: 1, steps: real.ran.length, leftOut };
  const failure = writeFailure(
    { out, seed: file.seed, target },
    {
      kind: kindOf(error),
      message: messageOf(error),
      steps: real.ran,
      exchanges: real.api.log,
      evidence: evidenceOf(error),
      replays: kindOf(error) === file.failure?.kind,
    },
  );
  return { seed: file.seed ?? 0, runs: 1, steps: real.ran.length, failure, leftOut };
}

/** A value a step's answer created, captured into a shell variable by its curl line. */
const CAPTURED: [field: string, prefix: string][] = [
  ['jwt', 'JWT'],
  ['platformId', 'USER'],
  ['apiKey', 'KEY'],
  ['assetId', 'ASSET'],
];

/**
 * The numbered curl lines of a failure, runnable in a shell (with jq): the set-up and each step's
 * requests, the identifiers they create captured into variables, then the read that shows the
 * failure (the state reads between steps change nothing and are left out).
 */
export function curlLines(f: Pick<Failure, 'exchanges' | 'evidence'>): string[] {
  const shown = f.exchanges.filter((x) => x.phase !== 'observe');
  const vars = new Map<string, string>();
  const counters = new Map<string, number>();
  const substitute = (curl: string) =>
    [...vars].reduce((line, [value, name]) => line.replaceAll(value, `'"$${name}"'`), curl).replaceAll(`''`, '');
  const lines = shown.map((x, i) => {
    const curl = substitute(x.curl);
    const content = x.status === 200 ? x.body?.content : undefined;
    const outputs = CAPTURED.filter(([field]) => typeof content?.[field] === 'string' && !vars.has(content[field]));
    let line = curl;
    if (outputs.length) {
      const names = outputs.map(([field, prefix]) => {
        const n = (counters.get(prefix) ?? 0) + 1;
        counters.set(prefix, n);
        vars.set(content[field], `${prefix}${n}`);
        return `${prefix}${n}`;
      });
      const fields = outputs.map(([field]) => `.content.${field}`).join(', ');
      line = `read -r ${names.join(' ')} < <(${curl.replace('curl -i', 'curl -s')} | jq -r '[${fields}] | join(" ")')`;
    }
    return `${String(i + 1).padStart(3)}. ${line}`;
  });
  const last = shown.at(-1);
  if (last) lines.push(`       → ${last.status} ${JSON.stringify(last.body).slice(0, 300)}`);
  if (f.evidence.length)
    lines.push('  then the reads that show it:', ...f.evidence.map((x) => `     ${substitute(x.curl)}`));
  return lines;
}

/** The lines saying what a partial implementation kept out of the session (none for a complete one). */
export function leftOutLines(l: LeftOut): string[] {
  if (!l.steps.length && !l.invariants.length) return [];
  return [
    '',
    `Left out, as the target does not implement what they need: ${l.steps.length} of ${Object.keys(STEPS).length} kinds of step, ${l.invariants.length} checks of invariants`,
    ...l.steps.map((s) => `  ↷ step ${s.step}: ${s.reason}`),
    ...l.invariants.map((i) => `  ↷ invariant ${i.invariant}: ${i.reason}`),
  ];
}

/** The console report of a session. */
export function report(r: ExploreResult, how: string): string {
  const partial = r.leftOut.steps.length + r.leftOut.invariants.length > 0;
  if (!r.failure)
    return [
      `explore: ${r.runs} runs, ${r.steps} steps, every invariant ${partial ? 'it could check ' : ''}held (seed ${r.seed}; ${how})`,
      ...leftOutLines(r.leftOut),
    ].join('\n');
  const f = r.failure;
  return [
    `✗ explore: ${f.message}`,
    '',
    `Shrunk to ${f.steps.length} step${f.steps.length === 1 ? '' : 's'} (seed ${r.seed}; ${how}):`,
    ...f.steps.map((s, i) => `  ${i + 1}. ${s.step} ${JSON.stringify(s.args)}`),
    '',
    'Reproduce (each run starts with POST /test_helpers/reset):',
    ...curlLines(f),
    '',
    f.replays
      ? 'Played again, the shrunk sequence fails the same way.'
      : 'Played again, the shrunk sequence did NOT fail the same way (a flaky target?).',
    `Replay: marketplace-conformance explore --target <url> --replay ${f.files.replay}`,
    `Workflow: ${f.files.arazzo}`,
    ...leftOutLines(r.leftOut),
  ].join('\n');
}
