// The reference server inside the suite's own process, for `npm run mutation` (ADR 0037). Stryker
// switches mutants on a global the mutated code reads at every call, and records which test was
// running when a mutant's code ran: with the server in the test worker, a mutant costs only the
// tests whose requests reach it, and no server restarts per mutant. A setup file runs before every
// test file; the server is started once per worker and kept on globalThis (vitest re-evaluates
// setup files, and the suite's config does not isolate files, so the worker lives for the run).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer } from '../../../packages/server/src/routes/test-harness.fixture.ts';

type Reference = Awaited<ReturnType<typeof startTestServer>>;
const holder = globalThis as { mutationReference?: Promise<Reference> };

// The same blocked country as the suite's own run against the reference (suite.test.ts).
holder.mutationReference ??= startTestServer({ env: { MARKETPLACE_BLOCKED_COUNTRIES: 'KP' } });
const reference = await holder.mutationReference;

// What the CLI would pass (run.ts); settings.ts reads it when the first test file imports it.
Object.assign(process.env, {
  CONFORMANCE_TARGET: reference.baseUrl,
  CONFORMANCE_LEVEL: 'all',
  MARKETPLACE_BLOCKED_COUNTRY: 'KP',
  CONFORMANCE_OUT: process.env.CONFORMANCE_OUT ?? mkdtempSync(join(tmpdir(), 'mutation-')),
});
