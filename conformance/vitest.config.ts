import { defineConfig } from 'vitest/config';

// The suite's own run (the CLI passes the target through the environment). Files run one after
// another: they share the target's state.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['tests/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
