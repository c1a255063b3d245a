// The stub template's TypeScript, checked in `npm test` in seconds: a project generated from the
// sources into .tmp/ (inside the repository, so its @marketplace imports resolve to the workspaces'
// sources through the `marketplace-source` condition), type-checked with its own tsconfig.json as a
// team's `npm run typecheck` would. The template cannot join the root tsconfig: it imports the files
// `init` generates from the document (src/generated/). scripts/server-stubs.test.ts still checks it
// installed from the packed tarballs; this is the quick answer while editing the template.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initProject } from './project.ts';

const repo = resolve(import.meta.dirname, '../../../..');
let scratch: string;
let app: string;

beforeAll(() => {
  mkdirSync(join(repo, '.tmp'), { recursive: true });
  scratch = mkdtempSync(join(repo, '.tmp/stub-types-'));
  app = join(scratch, 'market-api');
  initProject(app);
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The project's type errors, each as `file(line,col): message` relative to the project; `old` is reused. */
function typeErrors(old?: ts.Program): { errors: string[]; program: ts.Program } {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(app, 'tsconfig.json'),
    { customConditions: ['marketplace-source'] },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`${app}/tsconfig.json: not read`);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, oldProgram: old });
  const errors = ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    if (!d.file || d.start === undefined) return message;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${relative(app, d.file.fileName)}(${line + 1},${character + 1}): ${message}`;
  });
  return { errors, program };
}

describe('the stub template, generated into a project', () => {
  it('type-checks with the project’s tsconfig against the workspaces’ sources, and fails on a type error in it', () => {
    const clean = typeErrors();
    expect(clean.program.getRootFileNames().map((f) => relative(app, f))).toEqual(
      expect.arrayContaining(['src/app.ts', 'src/main.ts', 'src/generated/handlers.ts']),
    );
    expect(clean.errors).toEqual([]);
    // The check can fail: a wrong type in a template file is reported at its line.
    appendFileSync(join(app, 'src/app.ts'), "\nexport const notANumber: number = 'text';\n");
    expect(typeErrors(clean.program).errors).toEqual([
      expect.stringMatching(/^src\/app\.ts\(\d+,14\): Type 'string' is not assignable to type 'number'\.$/),
    ]);
  }, 180_000);
});
