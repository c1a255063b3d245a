import { defineConfig } from 'vitest/config';

// The suite's own run (the CLI passes the target through the environment). Files run one after
// another (they share the target's state: every behaviour file resets it and moves its clock) in
// one reused worker: without isolation the document, its compiled validators and the suite's
// modules load once instead of once per file, which brings a full run from about 30 s to about 12 s
// on a 2-core machine. The suite keeps no module state that one file could leave to another
// besides the target's capabilities, which are the same for every file.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    // .ts in the repository, .js in the installed package; its root lies under node_modules there.
    include: ['tests/**/*.test.{ts,js}'],
    exclude: [],
    fileParallelism: false,
    isolate: false,
    // Test names carry operation paths and case names in full (`GET /admin/support/messages/{ticket}/{user}`):
    // reports, skips and --grep use them as printed.
    taskTitleValueFormatTruncate: 0,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
