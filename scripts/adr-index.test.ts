// The ADR index (docs/adr/README.md) links every decision record of the directory, and nothing else.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

const dir = resolve(import.meta.dirname, '../docs/adr');

it('the ADR index links every record of docs/adr', () => {
  const records = readdirSync(dir).filter((f) => /^\d{4}-.*\.md$/.test(f));
  const linked = [...readFileSync(resolve(dir, 'README.md'), 'utf8').matchAll(/\]\((\d{4}-[^)]+\.md)\)/g)].map(
    (m) => m[1],
  );
  expect(records.length).toBeGreaterThan(0);
  expect(linked.sort()).toEqual(records.sort());
});
