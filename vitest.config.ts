import { defineConfig } from 'vitest/config';

// Inside the repository every workspace runs from its sources: the `marketplace-source` export
// condition (ADR 8) resolves `@marketplace/*` to src/*.ts instead of the built dist/. Vite reads it
// from `resolve.conditions`; processes the tests start (node, tsc) inherit NODE_OPTIONS.
const SOURCE = '--conditions=marketplace-source';
if (!process.env.NODE_OPTIONS?.includes(SOURCE))
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} ${SOURCE}`.trim();

// Unit and in-process tests of every workspace. The conformance suite runs against a target
// through its own CLI (`npm run conformance`), so its tests are not collected here.
export default defineConfig({
  resolve: { conditions: ['marketplace-source', 'module', 'node', 'development|production'] },
  ssr: { resolve: { conditions: ['marketplace-source', 'node', 'development|production'] } },
  test: {
    include: [
      'scripts/**/*.test.ts',
      'openapi/**/*.test.ts',
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'conformance/src/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
