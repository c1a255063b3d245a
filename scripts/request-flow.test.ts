// One request flow (ADR 0034): the contract's `createApi` is the only place that composes a
// request's pipeline (guard, gate, terminal, not found, refusals). Each host mounts it with its
// own parts (the reference server, the mock, the test helpers, the project the stub generator
// writes) and none builds the frame again: a fix to the flow then reaches every host, a team's
// project by a version bump. This reads the sources as text, the way the review that asked for it
// counted the compositions (`git grep createGate|gate.guard|gate.mount|gate.refuse`; `mount` is
// `admission` now).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '..');
/** The files allowed to compose: the flow itself, the gate it mounts and the validators the gate mounts. */
const FLOW = [
  'packages/contract/src/api.ts',
  'packages/contract/src/gate.ts',
  'packages/contract/src/validators.ts',
  // Test code, no host: the differential tests of the request and response checks mount the
  // validators alone on purpose, to compare them with express-openapi-validator's own middleware.
  'packages/contract/src/validation-pair.fixture.ts',
];
/** What composing a pipeline looks like: building a gate, or mounting its pieces by hand. */
const COMPOSING = /\bcreateGate\s*[<(]|\bgate\.(guard|admission|refuse|refuseDocumented)\b|\bdocumentValidators\s*\(/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', 'dist'].includes(entry.name) || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const read = (path: string) => readFileSync(join(repo, path), 'utf8');

describe('one request flow', () => {
  it('nothing outside the contract composes a pipeline: no gate built or mounted by hand', () => {
    const files = ['packages', 'conformance', 'scripts'].flatMap((d) => sources(join(repo, d)));
    const composing = files
      .map((file) => relative(repo, file))
      .filter((file) => !FLOW.includes(file) && COMPOSING.test(readFileSync(join(repo, file), 'utf8')));
    expect(composing).toEqual([]);
  });

  it.each([
    ['the reference server', 'packages/server/src/http/app.ts'],
    ['the mock', 'packages/mock/src/front.ts'],
    ['the test helpers', 'packages/contract/src/helpers-gate.ts'],
    ['a generated project', 'packages/contract/stub-template/src/app.ts'],
  ])('%s mounts createApi, once', (_host, file) => {
    expect(read(file).match(/\bcreateApi\s*[<(]/g)).toHaveLength(1);
  });

  it('the contract does not offer the gate to build one: its face has createApi', () => {
    const face = read('packages/contract/src/index.ts');
    expect(face).toMatch(/\bcreateApi\b/);
    expect(face).not.toMatch(/\bcreateGate\b|\bdocumentValidators\b/);
  });
});
