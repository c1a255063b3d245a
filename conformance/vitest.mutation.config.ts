import { defineConfig, mergeConfig } from 'vitest/config';
import suite from './vitest.config.ts';

// The suite as Stryker runs it (`npm run mutation`, ADR 0037): its own config, with the reference
// server started in the test worker (mutation-target.ts) and loaded from its sources, so the
// mutated copy Stryker writes is the code that answers the suite's requests.
const config = mergeConfig(
  suite,
  defineConfig({
    resolve: { conditions: ['marketplace-source', 'module', 'node', 'development|production'] },
    ssr: { resolve: { conditions: ['marketplace-source', 'node', 'development|production'] } },
    test: { setupFiles: ['src/testing/mutation-target.ts'] },
  }),
);
// `npm run mutation -- --tests cashouts,sales`: only those suite files (set after merging, since
// mergeConfig would add them to the suite's include instead of replacing it).
if (process.env.MUTATION_TESTS)
  config.test = { ...config.test, include: process.env.MUTATION_TESTS.split(',').map((f) => `tests/${f}.test.ts`) };
export default config;
