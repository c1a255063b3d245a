import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as messages from './messages.ts';

const root = resolve(import.meta.dirname, '../../../..');
const seed = readFileSync(resolve(root, 'docs/seed/item-marketplace-api.md'), 'utf8');

/** Every constant of messages.ts; builders are called with the placeholder the documents use. */
function constants(): [string, string][] {
  const out: [string, string][] = [];
  const visit = (name: string, value: unknown) => {
    if (typeof value === 'string') out.push([name, value]);
    else if (typeof value === 'function') out.push([name, value(name.includes('Deposit') ? '<asset_id>' : '<max>')]);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(`${name}.${k}`, v);
  };
  for (const [name, value] of Object.entries(messages)) if (name !== 'rateLimited') visit(name, value);
  return out;
}

/** The messages of the seed's "Messages by endpoint" table, one per entry. */
function seedTableMessages(): string[] {
  const section = seed.split('### Messages by endpoint')[1]!.split('\n## ')[0]!;
  const out: string[] = [];
  for (const row of section.split('\n').filter((l) => l.startsWith('| `'))) {
    const cell = row.split(' | ')[1]!;
    if (cell.includes('`')) continue; // response types (`error`, `notFound`), not messages
    for (let piece of cell.split(/; | \/ /)) {
      const variant = / \((first|second) variant\)$/.test(piece);
      piece = piece.replace(/ \((first|second) variant\)$/, '');
      // In the 2FA rows a variant lists its messages with commas; no such message has a colon.
      out.push(...(variant && !piece.includes(':') ? piece.split(', ') : [piece]));
    }
  }
  return out;
}

describe('messages', () => {
  it('has a constant for every message of the seed table', () => {
    const values = constants().map(([, v]) => v);
    const table = seedTableMessages();
    expect(table.length).toBeGreaterThan(100);
    // "Price limit exceeded": the seed says the message states the maximum, so it is a prefix.
    expect(table.filter((m) => !values.some((v) => v === m || v.startsWith(`${m} (`)))).toEqual([]);
  });

  it('holds only messages the seed or the document name', () => {
    const bundle = readFileSync(resolve(root, 'openapi/bundled/openapi.json'), 'utf8');
    const table = new Set(seedTableMessages());
    // A whole JSON string of the bundle (quotes included), so a truncated message does not pass.
    const named = (v: string) => table.has(v) || bundle.includes(JSON.stringify(v));
    expect(constants().filter(([, v]) => !named(v))).toEqual([]);
  });

  it.each([
    [1, 'Rate limit exceeded. Retry after 1 seconds.'],
    [300, 'Rate limit exceeded. Retry after 300 seconds.'],
  ])('builds the 429 message for %i seconds', (seconds, want) => {
    expect(messages.rateLimited(seconds)).toBe(want);
  });
});
