// What the CLI passes to the test files (through the environment, since vitest runs them in
// workers): the target, the level, credentials, and where reports go.
import { resolve } from 'node:path';

export type Level = 'contract' | 'behavior' | 'all';

const env = process.env;
export const settings = {
  target: env.CONFORMANCE_TARGET ?? env.BASE_URL ?? 'http://127.0.0.1:8080',
  level: (env.CONFORMANCE_LEVEL ?? 'all') as Level,
  readOnly: env.CONFORMANCE_READ_ONLY === '1',
  /** --mock: the target is a mock (Prism) whatever the detection says. */
  mock: env.CONFORMANCE_MOCK === '1',
  apiKey: env.MARKETPLACE_API_KEY,
  adminApiKey: env.MARKETPLACE_ADMIN_API_KEY,
  blockedCountry: env.MARKETPLACE_BLOCKED_COUNTRY,
  out: resolve(env.CONFORMANCE_OUT ?? 'conformance/reports'),
  /**
   * --operations: the operations (and, when it names some, test helpers) the run may call, by
   * report name, one per line; the tests needing others skip without sending anything to them.
   */
  operations: env.CONFORMANCE_OPERATIONS ? new Set(env.CONFORMANCE_OPERATIONS.split('\n')) : undefined,
  /**
   * --require-all: an operation or test helper a test needs that answers 404 fails the test, a
   * target without working test helpers fails every behaviour test, and a test of a logged-in route
   * left without credentials fails (a release gate).
   */
  requireAll: env.CONFORMANCE_REQUIRE_ALL === '1',
};

/** Whether tests of a level run in this invocation. */
export const runs = (level: 'contract' | 'behavior') => settings.level === 'all' || settings.level === level;

export const LEVEL = 'left out by --level';

/** The files of the contract level; every other test file is the behaviour level. */
const CONTRACT_FILES = ['contract.test', 'negative.test', 'largest-numbers.test'];

/** The level a test file belongs to (`.ts` in the repository, `.js` in the installed package). */
export const levelOf = (file: string): 'contract' | 'behavior' => {
  const name = file.replace(/\.[jt]s$/, '');
  return CONTRACT_FILES.some((f) => name.endsWith(`/${f}`) || name === f) ? 'contract' : 'behavior';
};

/** The extra reports a run can write (`--reporter`); results.json and the coverage are always written. */
export const REPORTERS = ['junit', 'json', 'html', 'badge'] as const;
export type ReporterName = (typeof REPORTERS)[number];
