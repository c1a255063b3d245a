import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { conventionProblems, nonStringGaps } from './document-conventions.ts';

describe('nonStringGaps', () => {
  it('finds an x-gaps item YAML read as an object because of an unquoted ": "', () => {
    const doc = parse(`
get:
  x-gaps:
    - The body is not shown.
    - The body is not shown; {id, bans: Ban[]} is ours.
    - 'Quoted: {id, bans: Ban[]} is a string.'
tags:
  - name: A
    x-gaps: one string
`);
    expect(nonStringGaps(doc)).toEqual(['/get/x-gaps/1 is not a string', '/tags/0/x-gaps is not a list']);
  });
});

describe('the document', () => {
  it('has only string x-gaps items', () => {
    expect(conventionProblems(resolve(import.meta.dirname, '../openapi'))).toEqual([]);
  });
});
