import { defineConfig } from 'vitest/config';

// Unit and in-process tests of every workspace. The conformance suite runs against a target
// through its own CLI (`npm run conformance`), so its tests are not collected here.
export default defineConfig({
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
