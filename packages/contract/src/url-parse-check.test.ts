import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const CHECK = join(import.meta.dirname, 'url-parse-check.ts');

/** What a fresh Node prints on stderr when code outside node_modules calls `url.parse`. */
function stderrOfUrlParse(settleFirst: boolean): string {
  const script = [
    settleFirst ? `const { settleUrlParseCheck } = await import(${JSON.stringify(CHECK)}); settleUrlParseCheck();` : '',
    "const { parse } = await import('node:url');",
    "parse('/item/listing/1?count=2');",
  ].join('\n');
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(child.stderr);
  return child.stderr;
}

/** The TypeScript sources of the repository that are no tests and no dependencies. */
function sources(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, found);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

describe('the url.parse check (url-parse-check.ts)', () => {
  it('Given a process where it was settled, when code outside node_modules calls url.parse, then no warning is printed', () => {
    expect(stderrOfUrlParse(false)).toContain('DEP0169');
    expect(stderrOfUrlParse(true)).not.toContain('DEP0169');
  });

  it('Given our sources, then none calls url.parse (the warning no longer printed would be for them)', () => {
    const callers = sources(ROOT)
      .filter((file) => file !== CHECK)
      .filter((file) =>
        /\burl\.parse\(|import\s*\{[^}]*\bparse\b[^}]*\}\s*from\s*'(node:)?url'/.test(readFileSync(file, 'utf8')),
      )
      .map((file) => relative(ROOT, file));
    expect(callers).toEqual([]);
  });
});
