import { describe, expect, it } from 'vitest';
import type { StubOperation } from './operations.ts';
import { GENERATED_FILES, hashText, type Manifest, type PlanInput, planStubs } from './plan.ts';

const op = (operationId: string, tag: string, revision = 'aaaaaaaa'): StubOperation => ({
  operationId,
  method: 'GET',
  path: `/${operationId}`,
  tag,
  summary: operationId,
  permission: 'None',
  rateLimits: [],
  errorMessages: [],
  revision,
});

/** A folder in memory: runs plans against it as `project.ts` does on disk. */
function folder() {
  const files = new Map<string, string>();
  let manifest: Manifest | undefined;
  const plan = (ops: StubOperation[], templates = new Map([['README.md', 'read me']])) => {
    const input: PlanInput = {
      ops,
      version: '1',
      generator: '1',
      templates,
      previous: manifest,
      hashOf: (path) => (files.has(path) ? hashText(files.get(path)!) : undefined),
    };
    const result = planStubs(input);
    for (const [path, text] of result.writes) text === null ? files.delete(path) : files.set(path, text);
    manifest = result.manifest;
    return result;
  };
  return { files, plan };
}

const FIRST = [op('getA', 'Items'), op('getB', 'Items'), op('getC', 'Account')];

describe('the first generation', () => {
  it('writes one file per tag, the templates and the generated files, and records each hash', () => {
    const { files, plan } = folder();
    const result = plan(FIRST);
    expect([...files.keys()].sort()).toEqual(
      [
        'README.md',
        'src/handlers/account.ts',
        'src/handlers/items.ts',
        GENERATED_FILES.handlers,
        GENERATED_FILES.messages,
        GENERATED_FILES.revisions,
      ].sort(),
    );
    expect(result.added.map((a) => a.operationId)).toEqual(['getA', 'getB', 'getC']);
    expect(result.manifest.files['src/handlers/items.ts']).toEqual({
      hash: hashText(files.get('src/handlers/items.ts')!),
      tag: 'Items',
      operations: { getA: 'aaaaaaaa', getB: 'aaaaaaaa' },
    });
    expect(files.get(GENERATED_FILES.revisions)).toContain("  getC: 'aaaaaaaa';\n");
    expect(files.get(GENERATED_FILES.handlers)).toContain("from '../handlers/account.ts';");
  });
});

describe('an update', () => {
  it('rewrites untouched files: a changed stub gets its new stamp, a removed one goes, a new one joins its tag', () => {
    const { files, plan } = folder();
    plan(FIRST);
    const result = plan([op('getA', 'Items', 'bbbbbbbb'), op('getC', 'Account'), op('getD', 'Items')]);
    const items = files.get('src/handlers/items.ts')!;
    expect(items).toContain("Handler<'getA', 'bbbbbbbb'>");
    expect(items).not.toContain('getB');
    expect(items).toContain("Handler<'getD', 'aaaaaaaa'>");
    expect(result.added).toEqual([{ operationId: 'getD', file: 'src/handlers/items.ts' }]);
    expect([result.changed, result.removed, result.kept]).toEqual([[], [], []]);
    expect(result.writes.has('src/handlers/account.ts')).toBe(false);
  });

  it('never writes an edited file: lists its changed and removed handlers, puts new stubs of its tag in a new file', () => {
    const { files, plan } = folder();
    plan(FIRST);
    const edited = `${files.get('src/handlers/items.ts')}// ours\n`;
    files.set('src/handlers/items.ts', edited);
    const result = plan([op('getA', 'Items', 'bbbbbbbb'), op('getC', 'Account'), op('getD', 'Items')]);
    expect(files.get('src/handlers/items.ts')).toBe(edited);
    expect(result.writes.has('src/handlers/items.ts')).toBe(false);
    expect(result.changed).toEqual([{ operationId: 'getA', file: 'src/handlers/items.ts' }]);
    expect(result.removed).toEqual([{ operationId: 'getB', file: 'src/handlers/items.ts' }]);
    expect(result.kept).toEqual(['src/handlers/items.ts']);
    expect(result.added).toEqual([{ operationId: 'getD', file: 'src/handlers/items-2.ts' }]);
    expect(files.get('src/handlers/items-2.ts')).toContain("Handler<'getD', 'aaaaaaaa'>");
    // The edited file keeps the revisions it was written against: the next update still reports it.
    expect(result.manifest.files['src/handlers/items.ts']?.operations).toEqual({ getA: 'aaaaaaaa', getB: 'aaaaaaaa' });
    expect(plan([op('getA', 'Items', 'bbbbbbbb'), op('getC', 'Account'), op('getD', 'Items')]).changed).toEqual(
      result.changed,
    );
    // The new revision is what tsc checks the edited file against.
    expect(files.get(GENERATED_FILES.revisions)).toContain("  getA: 'bbbbbbbb';\n");
    expect(files.get(GENERATED_FILES.handlers)).toContain("from '../handlers/items-2.ts';");
  });

  it('deletes an untouched handler file whose operations are all gone', () => {
    const { files, plan } = folder();
    plan(FIRST);
    const result = plan([op('getA', 'Items'), op('getB', 'Items')]);
    expect(result.writes.get('src/handlers/account.ts')).toBeNull();
    expect(files.has('src/handlers/account.ts')).toBe(false);
    expect(files.get(GENERATED_FILES.handlers)).not.toContain('account.ts');
  });

  it('rewrites an untouched template, keeps an edited one, and never overwrites a file it did not write', () => {
    const { files, plan } = folder();
    plan(
      FIRST,
      new Map([
        ['README.md', 'v1'],
        ['src/app.ts', 'app v1'],
      ]),
    );
    files.set('src/app.ts', 'our app');
    files.set('src/extra.ts', 'ours');
    const result = plan(
      FIRST,
      new Map([
        ['README.md', 'v2'],
        ['src/app.ts', 'app v2'],
        ['src/extra.ts', 'generated'],
      ]),
    );
    expect([files.get('README.md'), files.get('src/app.ts'), files.get('src/extra.ts')]).toEqual([
      'v2',
      'our app',
      'ours',
    ]);
    expect(result.kept.sort()).toEqual(['src/app.ts', 'src/extra.ts']);
  });

  it('deletes an untouched template the generator no longer ships, and keeps an edited one', () => {
    const { files, plan } = folder();
    plan(
      FIRST,
      new Map([
        ['src/app.ts', 'app'],
        ['src/rate-limit.ts', 'limits'],
        ['src/old.ts', 'old'],
      ]),
    );
    files.set('src/old.ts', 'our old');
    const result = plan(FIRST, new Map([['src/app.ts', 'app']]));
    expect(result.writes.get('src/rate-limit.ts')).toBeNull();
    expect([files.has('src/rate-limit.ts'), files.get('src/old.ts')]).toEqual([false, 'our old']);
    expect(result.kept).toEqual(['src/old.ts']);
    expect(Object.keys(result.manifest.files)).toContain('src/old.ts');
  });
});
