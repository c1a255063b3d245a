import { join } from 'node:path';
import { defineConfig, mergeConfig } from 'vitest/config';
import suite from './vitest.config.ts';

// The suite as Stryker runs it (`npm run mutation`, ADR 0037): its own config, with the reference
// server started in the test worker (mutation-target.ts) and loaded from its sources, so the
// mutated copy Stryker writes is the code that answers the suite's requests.
// `@marketplace/*` would resolve through the root node_modules symlinks, which Stryker's sandbox
// shares with the worktree, to the ORIGINAL sources: the alias sends each workspace package to the
// copy beside this config (the sandbox's, under Stryker), so a mutant in the contract is reached.
const packages = join(import.meta.dirname, '..', 'packages');
const config = mergeConfig(
  suite,
  defineConfig({
    resolve: {
      alias: [
        { find: /^@marketplace\/(client|contract|server|types)$/, replacement: join(packages, '$1/src/index.ts') },
      ],
      conditions: ['marketplace-source', 'module', 'node', 'development|production'],
    },
    ssr: { resolve: { conditions: ['marketplace-source', 'node', 'development|production'] } },
    test: { setupFiles: ['src/testing/mutation-target.ts'] },
  }),
);
// `npm run mutation -- --tests cashouts,sales`: only those suite files (set after merging, since
// mergeConfig would add them to the suite's include instead of replacing it).
if (process.env.MUTATION_TESTS)
  config.test = { ...config.test, include: process.env.MUTATION_TESTS.split(',').map((f) => `tests/${f}.test.ts`) };
export default config;
