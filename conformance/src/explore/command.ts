// The `explore` command of the CLI: checks the target (it must be this API and expose the test
// helpers: exploration needs known state and a clock), runs or replays, prints the report.
// Exit codes as the CLI's: 0 every invariant held, 1 a failure, 2 the run cannot start.
import { probeTarget } from '../run/probe.ts';
import { type ExploreResult, explore, replay, report } from './explore.ts';

export interface ExploreCommand {
  target: string;
  out: string;
  seed?: string;
  steps?: string;
  time?: string;
  replay?: string;
}

/** Whether the target exposes the test helpers (GET /test_helpers/clock answers `{now}`). */
async function hasHelpers(target: string): Promise<boolean> {
  const res = await fetch(new URL('/test_helpers/clock', target)).catch(() => undefined);
  const body = res?.headers.get('content-type')?.includes('json') ? await res.json().catch(() => null) : null;
  return res?.status === 200 && typeof body?.content?.now === 'number';
}

const count = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a whole number, got ${value}`);
  return Number(value);
};

/** Runs the command; returns the exit code and writes to `out`/`err`. */
export async function exploreCommand(
  c: ExploreCommand,
  write: { out: (s: string) => void; err: (s: string) => void },
): Promise<number> {
  let seed: number | undefined;
  let steps: number | undefined;
  let time: number | undefined;
  try {
    seed = c.seed === undefined ? undefined : Number.parseInt(c.seed, 10);
    if (seed !== undefined && (!/^-?\d+$/.test(c.seed!) || !Number.isSafeInteger(seed)))
      throw new Error(`--seed must be an integer, got ${c.seed}`);
    steps = count('steps', c.steps);
    time = count('time', c.time);
  } catch (e) {
    write.err(`marketplace-conformance: ${(e as Error).message}\n`);
    return 2;
  }
  const problem = await probeTarget(c.target);
  if (problem) {
    write.err(`marketplace-conformance: ${problem}\n`);
    return 2;
  }
  if (!(await hasHelpers(c.target))) {
    write.err(
      `marketplace-conformance: explore needs the test helpers (shared/test-helpers.md): ${c.target} does not answer GET /test_helpers/clock with {now}. Start the target in test mode (reference server: MARKETPLACE_TEST_MODE=1).\n`,
    );
    return 2;
  }
  let result: ExploreResult;
  const cannot = (r: ExploreResult) => {
    write.err(`marketplace-conformance: explore cannot start a run: ${r.cannot}\n`);
    return 2;
  };
  if (c.replay) {
    try {
      result = await replay(c.target, c.replay, c.out);
    } catch (e) {
      write.err(`marketplace-conformance: cannot replay ${c.replay}: ${(e as Error).message.split('\n')[0]}\n`);
      return 2;
    }
    if (result.cannot) return cannot(result);
    write.out(
      `${result.failure ? report(result, `replay of ${c.replay}`) : `explore: the replay of ${c.replay} passes: every invariant held`}\n`,
    );
    return result.failure ? 1 : 0;
  }
  seed ??= Math.floor(Math.random() * 2 ** 31);
  const bound =
    steps === undefined && time === undefined
      ? { steps: Number.MAX_SAFE_INTEGER, time: 60 }
      : {
          steps: steps ?? Number.MAX_SAFE_INTEGER,
          time: time ?? Number.MAX_SAFE_INTEGER / 1000,
        };
  write.out(
    `explore ${c.target}: seed ${seed}, ${steps ?? 'any number of'} steps, ${time ?? (steps === undefined ? 60 : 'no time limit in')} s\n`,
  );
  result = await explore({ target: c.target, seed, out: c.out, ...bound, print: (line) => write.out(`${line}\n`) });
  if (result.cannot) return cannot(result);
  const how = `repeat with --seed ${seed}${steps === undefined ? '' : ` --steps ${steps}`}${time === undefined ? '' : ` --time ${time}`}`;
  write.out(`${report(result, how)}\n`);
  return result.failure ? 1 : 0;
}
