import { describe, expect, it } from 'vitest';
import { describeRun, type StubRun } from './project.ts';

const run = (parts: Partial<StubRun>): StubRun => ({
  dir: '/work/api',
  writes: new Map(),
  manifest: { generator: '1.0.0', document: '2.1.0', files: {} },
  added: [],
  changed: [],
  removed: [],
  kept: [],
  written: [],
  deleted: [],
  ...parts,
});

describe('what a run says', () => {
  it('lists the handlers of changed operations and of removed ones, each with its file', () => {
    const text = describeRun(
      run({
        added: [{ operationId: 'getD', file: 'src/handlers/items-2.ts' }],
        changed: [{ operationId: 'getUserBalance', file: 'src/handlers/account.ts' }],
        removed: [{ operationId: 'getUserGetContactMail', file: 'src/handlers/account.ts' }],
        kept: ['src/handlers/account.ts'],
        written: ['src/handlers/items-2.ts', 'src/generated/revisions.ts'],
      }),
      '/work',
    );
    expect(text.split('\n')).toEqual([
      'api: stubs for document 2.1.0; 1 new operation stubbed, 2 files written',
      'Changed since you wrote their handler (tsc shows them: look at each again, then take the stamp of src/generated/revisions.ts):',
      '  getUserBalance (src/handlers/account.ts)',
      'No longer in the document (delete their handler):',
      '  getUserGetContactMail (src/handlers/account.ts)',
      'Left as you edited them: src/handlers/account.ts',
    ]);
  });

  it('says nothing of changes when there are none', () => {
    expect(describeRun(run({}), '/work/api')).toBe(
      '.: stubs for document 2.1.0; 0 new operations stubbed, 0 files written',
    );
  });
});
