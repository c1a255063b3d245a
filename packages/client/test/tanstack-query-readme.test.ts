// The README's TanStack Query example is tanstack-query.test.ts, which vitest runs: this keeps the
// README's text and the file that runs the same, so the example is tested as written.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

it("Given the README's TanStack Query example, it is tanstack-query.test.ts as written", () => {
  const readme = readFileSync(resolve(import.meta.dirname, '../../../README.md'), 'utf8');
  const example = readFileSync(resolve(import.meta.dirname, 'tanstack-query.test.ts'), 'utf8');
  expect(readme).toContain(`\n\`\`\`ts\n${example}\`\`\`\n`);
});
