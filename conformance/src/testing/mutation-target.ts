// The reference server inside the suite's own process, for `npm run mutation` (ADR 0037). Stryker
// switches mutants on a global the mutated code reads at every call, and records which test was
// running when a mutant's code ran: with the server in the test worker, a mutant costs only the
// tests whose requests reach it, and no server restarts per mutant. A setup file runs before every
// test file; the server is started once per worker and kept on globalThis (vitest re-evaluates
// setup files, and the suite's config does not isolate files, so the worker lives for the run). It
// listens through the protocol layer as the reference started on its own does (startTestServer):
// a mutant is judged on requests as the shipped server lets them reach the code.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { startTestServer } from '../../../packages/server/src/routes/test-harness.fixture.ts';

type Reference = Awaited<ReturnType<typeof startTestServer>>;
const holder = globalThis as { mutationReference?: Promise<Reference> };

// The same blocked country as the suite's own run against the reference (suite.test.ts).
holder.mutationReference ??= startTestServer({ env: { MARKETPLACE_BLOCKED_COUNTRIES: 'KP' } });
const reference = await holder.mutationReference;

// What the CLI would pass (run.ts); settings.ts reads it when the first test file imports it.
// With --require-all: the reference implements every operation of the document, so one answered
// 404 is a failure, not a skip (a mutant that answers 404 to every request would otherwise skip every
// test and survive; gate.ts run F1).
Object.assign(process.env, {
  CONFORMANCE_TARGET: reference.baseUrl,
  CONFORMANCE_LEVEL: 'all',
  CONFORMANCE_REQUIRE_ALL: '1',
  MARKETPLACE_BLOCKED_COUNTRY: 'KP',
  CONFORMANCE_OUT: process.env.CONFORMANCE_OUT ?? mkdtempSync(join(tmpdir(), 'mutation-')),
});

// Stryker records a hit outside a test (a file's `beforeAll` building its world: users, items,
// listings) as STATIC coverage, and runs every test of the suite for each such mutant: with the
// whole suite, minutes per mutant. A hook's requests belong to the tests of its file (running any of
// them runs the hook), so during the dry run a hit between tests of a file is kept under FILE_HOOKS
// and credited to every later test of that file. Hits after its last test (an `afterAll`) stay
// static, as do hits before the first file (the server's start: such a mutant needs the server
// started again, which a run of all tests does).
const stryker = inject('mode' as never) === 'dry-run' ? strykerNamespace() : undefined;
if (stryker) {
  const FILE_HOOKS = 'mutation-target#file-hooks';
  let testId: string | undefined;
  let inFile = false;
  /** What the file's hooks reached so far: every test from here on runs them. */
  let world: Hits = {};
  Object.defineProperty(stryker, 'currentTestId', {
    configurable: true,
    get: () => testId ?? (inFile ? FILE_HOOKS : undefined),
    set: (id: string | undefined) => {
      testId = id;
    },
  });
  beforeAll(() => {
    inFile = true;
    world = {};
  });
  // Runs after Stryker's own beforeEach (its setup file comes first), which has set the test's id.
  beforeEach(() => {
    const coverage = stryker.mutantCoverage;
    if (!coverage || testId === undefined) return;
    addHits(world, coverage.perTest[FILE_HOOKS] ?? {});
    delete coverage.perTest[FILE_HOOKS];
    const test = coverage.perTest[testId] ?? {};
    coverage.perTest[testId] = test;
    addHits(test, world);
  });
  // Runs after the file's own afterAll hooks (hooks after a test run in reverse order).
  afterAll(() => {
    inFile = false;
    const coverage = stryker.mutantCoverage;
    if (!coverage) return;
    addHits(coverage.static, coverage.perTest[FILE_HOOKS] ?? {});
    delete coverage.perTest[FILE_HOOKS];
  });
}

type Hits = Record<string, number>;

function addHits(to: Hits, from: Hits): void {
  for (const [mutant, hits] of Object.entries(from)) to[mutant] = (to[mutant] ?? 0) + hits;
}

/** Stryker's global namespace in this worker (its setup file provides the name). */
function strykerNamespace(): StrykerNamespace {
  const name = inject('globalNamespace' as never) as string;
  const scope = globalThis as unknown as Record<string, StrykerNamespace | undefined>;
  const ns = scope[name] ?? {};
  scope[name] = ns;
  return ns;
}

interface StrykerNamespace {
  currentTestId?: string;
  mutantCoverage?: { static: Hits; perTest: Record<string, Hits> };
}
