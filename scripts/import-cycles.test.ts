// No import circle in the workspaces' sources and the repository's scripts: a module that imports, through others, itself is
// loaded half-initialised by one of its importers, and a layer that imports a layer above it is a
// layer no more. The module graph is read with TypeScript's parser; `import type` and `export type`
// declarations are left out, as they are erased before the code runs (an `import { type X }` is not:
// Node keeps it as an import of the module).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '..');
// The code that ships (the packages and the suite) and the scripts that build, check and bench it.
const ROOTS = ['packages', 'conformance', 'scripts'].map((d) => join(repo, d));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each file's relative imports that exist at run time (`./x.ts`, `../y.ts`), resolved to files. */
function moduleGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
      const targets = source.statements
        .flatMap((statement) => {
          if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly)
            return [statement.moduleSpecifier];
          if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly)
            return [statement.moduleSpecifier];
          return [];
        })
        .filter(ts.isStringLiteral)
        .map((specifier) => specifier.text)
        .filter((name) => name.startsWith('.'))
        .map((name) => resolve(dirname(file), name))
        .filter((target) => known.has(target));
      return [file, targets];
    }),
  );
}

/** The circles of a graph, each once, as the files around it. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('the import graph', () => {
  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(circles(graph)).toEqual([['a', 'b', 'c']]);
    expect(
      circles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('counts the imports that run, not those erased with the types', () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-graph-'));
    try {
      const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
      write('a.ts', "import { b } from './b.ts';\nimport type { C } from './c.ts';\nexport const a = b;");
      write('b.ts', "import { type A } from './a.ts';\nexport const b = 1;");
      write('c.ts', "export type { A } from './a.ts';\nexport type C = number;");
      const graph = moduleGraph(['a.ts', 'b.ts', 'c.ts'].map((f) => join(dir, f)));
      expect(circles(graph).map((c) => c.map((f) => relative(dir, f)))).toEqual([['a.ts', 'b.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has no circle in the sources', () => {
    const files = ROOTS.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(100);
    const found = circles(moduleGraph(files)).map((c) => c.map((f) => relative(repo, f)).join(' -> '));
    expect(found).toEqual([]);
  });
});
