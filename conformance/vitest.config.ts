import { defineConfig } from 'vitest/config';

// The suite's own run (the CLI passes the target through the environment). Files run one after
// another: they share the target's state.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    // .ts in the repository, .js in the installed package; its root lies under node_modules there.
    include: ['tests/**/*.test.{ts,js}'],
    exclude: [],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
