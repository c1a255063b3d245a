// The rooms of the suite's sources (README "Layout and proof"): each folder of src/ imports only from
// itself and the folders after it, so the oracle depends on nothing of the suite; tests/ import the
// kit (and the oracle below it); what the package publishes imports nothing it leaves out (src/testing/,
// unit tests, fixtures, the repository around it) and no package it does not depend on. Every
// import, `import type` and `export ... from` of every file is read with TypeScript's preprocessor,
// so a rule broken anywhere fails here naming the file, the import and the rule.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** The rooms of src/, in order: a room imports from itself and the rooms after it; testing/ from any. */
const ROOMS = ['cli', 'proxy', 'explore', 'run', 'kit', 'oracle', 'testing'];
/** What tests/ may import of src/: the kit they are written with, and the oracle it stands on. */
const TESTS_IMPORT = ['kit', 'oracle'];

/** One file of the suite, its path relative to conformance/, and each import's specifier and line. */
interface SourceFile {
  path: string;
  imports: { specifier: string; line: number }[];
}

/** What the published package is made of: its files (relative to conformance/) and its dependencies. */
interface Package {
  published: Set<string>;
  dependencies: Set<string>;
}

/** The room of a path relative to conformance/ (`src/kit/http.ts` is in `kit`), if it is in one. */
const roomOf = (path: string): string | undefined => (/^src\/([^/]+)\//.exec(path) ?? [])[1];

/** The package a bare specifier names (`ajv/dist/2020.js` is `ajv`, `@marketplace/types/x` is `@marketplace/types`). */
const packageOf = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Every broken rule: `file:line imports 'specifier': rule`. */
function violations(files: SourceFile[], pkg: Package): string[] {
  const found: string[] = [];
  for (const file of files) {
    const room = roomOf(file.path);
    for (const { specifier, line } of file.imports) {
      const broken = (rule: string) => found.push(`${file.path}:${line} imports '${specifier}': ${rule}`);
      if (!specifier.startsWith('.')) {
        const name = packageOf(specifier);
        const builtin = specifier.startsWith('node:') || builtinModules.includes(name);
        if (pkg.published.has(file.path) && !builtin && !pkg.dependencies.has(name))
          broken(`the published package imports only its dependencies, and ${name} is not one`);
        continue;
      }
      const target = join(dirname(file.path), specifier);
      const targetRoom = roomOf(target);
      if (room && room !== 'testing' && targetRoom && ROOMS.indexOf(targetRoom) < ROOMS.indexOf(room))
        broken(`${room}/ imports only from the rooms after it (${ROOMS.slice(ROOMS.indexOf(room) + 1).join(', ')})`);
      if (file.path.startsWith('tests/') && target.startsWith('src/') && !TESTS_IMPORT.includes(targetRoom ?? ''))
        broken(`tests/ import only ${TESTS_IMPORT.map((r) => `src/${r}/`).join(' and ')} of src/`);
      if (pkg.published.has(file.path) && !pkg.published.has(target))
        broken(
          targetRoom === 'testing'
            ? 'the published package does not import src/testing/ (left out of it)'
            : target.startsWith('..')
              ? 'the published package imports nothing outside conformance/'
              : 'the published package imports only files it publishes (no unit test, no fixture)',
        );
    }
  }
  return found;
}

const conformance = resolve(import.meta.dirname, '..');

/** Every .ts file under `dir` (relative to conformance/). */
function tsFiles(dir: string): string[] {
  return readdirSync(join(conformance, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
}

/** A file's imports as TypeScript's preprocessor finds them (imports, `import type`, `export from`, `import()`). */
function read(path: string): SourceFile {
  const text = readFileSync(join(conformance, path), 'utf8');
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return {
    path,
    imports: importedFiles.map((f) => ({
      specifier: f.fileName,
      line: text.slice(0, f.pos).split('\n').length,
    })),
  };
}

/** The published package: the files tsconfig.build.json compiles, and package.json's dependencies. */
function thePackage(): Package {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(conformance, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  const manifest = JSON.parse(readFileSync(join(conformance, 'package.json'), 'utf8'));
  return {
    published: new Set((config?.fileNames ?? []).map((f) => relative(conformance, f))),
    dependencies: new Set(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })),
  };
}

describe('the rules of the rooms', () => {
  const pkg: Package = {
    published: new Set([
      'src/cli/cli.ts',
      'src/run/run.ts',
      'src/run/report.ts',
      'src/kit/http.ts',
      'src/oracle/document.ts',
      'tests/cart.test.ts',
    ]),
    dependencies: new Set(['ajv', '@marketplace/types']),
  };
  const cases: [string, { given: SourceFile; want: string[] }][] = [
    [
      'a room importing from the rooms after it, the packages it depends on and Node',
      {
        given: {
          path: 'src/cli/cli.ts',
          imports: [
            { specifier: '../run/run.ts', line: 1 },
            { specifier: 'ajv/dist/2020.js', line: 2 },
            { specifier: '@marketplace/types', line: 3 },
            { specifier: 'node:fs', line: 4 },
          ],
        },
        want: [],
      },
    ],
    [
      'a room importing from a room before it',
      {
        given: { path: 'src/kit/http.ts', imports: [{ specifier: '../run/run.ts', line: 7 }] },
        want: [
          "src/kit/http.ts:7 imports '../run/run.ts': kit/ imports only from the rooms after it (oracle, testing)",
        ],
      },
    ],
    [
      'a published file importing the suite’s own test support',
      {
        given: { path: 'src/run/run.ts', imports: [{ specifier: '../testing/cli-process.ts', line: 3 }] },
        want: [
          "src/run/run.ts:3 imports '../testing/cli-process.ts': the published package does not import src/testing/ (left out of it)",
        ],
      },
    ],
    [
      'a unit test importing the test support and another package’s fixture (neither is published)',
      {
        given: {
          path: 'src/run/grep.test.ts',
          imports: [
            { specifier: '../testing/cli-process.ts', line: 1 },
            { specifier: '../../../packages/server/src/x.fixture.ts', line: 2 },
            { specifier: 'playwright-core', line: 3 },
          ],
        },
        want: [],
      },
    ],
    [
      'a published file importing a fixture, the repository around it and a package it does not depend on',
      {
        given: {
          path: 'src/kit/http.ts',
          imports: [
            { specifier: './money.fixture.ts', line: 1 },
            { specifier: '../../../packages/server/src/x.ts', line: 2 },
            { specifier: 'playwright-core', line: 3 },
          ],
        },
        want: [
          "src/kit/http.ts:1 imports './money.fixture.ts': the published package imports only files it publishes (no unit test, no fixture)",
          "src/kit/http.ts:2 imports '../../../packages/server/src/x.ts': the published package imports nothing outside conformance/",
          "src/kit/http.ts:3 imports 'playwright-core': the published package imports only its dependencies, and playwright-core is not one",
        ],
      },
    ],
    [
      'the testing room importing from any room',
      {
        given: { path: 'src/testing/faults.ts', imports: [{ specifier: '../cli/cli.ts', line: 1 }] },
        want: [],
      },
    ],
    [
      'tests importing the kit, the oracle, and then a run’s report',
      {
        given: {
          path: 'tests/cart.test.ts',
          imports: [
            { specifier: '../src/kit/http.ts', line: 1 },
            { specifier: '../src/oracle/document.ts', line: 2 },
            { specifier: '../src/run/report.ts', line: 3 },
          ],
        },
        want: [
          "tests/cart.test.ts:3 imports '../src/run/report.ts': tests/ import only src/kit/ and src/oracle/ of src/",
        ],
      },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(violations([given], pkg)).toEqual(want);
  });
});

describe("the suite's sources", () => {
  it('keep the rooms: every import of src/ and tests/ follows them', () => {
    const pkg = thePackage();
    // The reading works: the package is found, and imports are seen (kit/ reads the oracle).
    expect(pkg.published.has('src/run/run.ts')).toBe(true);
    expect(pkg.published.has('src/testing/faults.ts')).toBe(false);
    const files = [...new Set([...tsFiles('src'), ...tsFiles('tests'), ...pkg.published])].map(read);
    expect(files.find((f) => f.path === 'src/kit/http.ts')?.imports).toContainEqual(
      expect.objectContaining({ specifier: '../oracle/contract.ts' }),
    );
    expect(files.filter((f) => f.path.startsWith('src/') && !roomOf(f.path) && !f.path.endsWith('.test.ts'))).toEqual(
      [],
    );
    expect(violations(files, pkg)).toEqual([]);
  });
});
