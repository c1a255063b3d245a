// Checks of the document's own conventions that Redocly's rules cannot express, run by
// `npm run lint:document`. `x-gaps` items must be strings: an unquoted `: ` inside an item makes
// YAML read it as a one-key object, which the docs page then shows as `[object Object]`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';

/** Every `.yaml` file under `dir`, recursively (the generated `bundled/` folder excluded). */
export function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'bundled' || name === 'released' ? [] : yamlFiles(path);
    return name.endsWith('.yaml') ? [path] : [];
  });
}

/** Where a parsed YAML value holds an `x-gaps` item that is not a string (a JSON-pointer-like path). */
export function nonStringGaps(node: unknown, at = ''): string[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => nonStringGaps(item, `${at}/${i}`));
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => {
    const inside = nonStringGaps(value, `${at}/${key}`);
    if (key !== 'x-gaps') return inside;
    if (!Array.isArray(value)) return [`${at}/x-gaps is not a list`, ...inside];
    const bad = value.flatMap((item, i) => (typeof item === 'string' ? [] : [`${at}/x-gaps/${i} is not a string`]));
    return [...bad, ...inside];
  });
}

/** The convention problems of every source file under `openapiDir`, one line each. */
export function conventionProblems(openapiDir: string): string[] {
  return yamlFiles(openapiDir).flatMap((file) =>
    nonStringGaps(parse(readFileSync(file, 'utf8'))).map(
      (problem) => `${relative(join(openapiDir, '..'), file)}: ${problem} (quote the item)`,
    ),
  );
}
